/**
 * Where an API process receives the relay's labelled fills (relay.ts publishes them): the platform's in-process
 * pub/sub in the embedded mode (it cannot drop), or, when scaled, a Redis subscriber connection of the stream's own,
 * which does not reconnect by itself: UpstreamLink decides when and how often it tries again.
 */
import type { Redis } from "ioredis";
import type { Platform } from "../platform/index.js";
import type { PubSub } from "../platform/pubsub.js";
import { LIVE_CHANNELS } from "./relay.js";

export type UpstreamMessage = (channel: string, message: string) => void;

export interface LiveUpstream {
  /** Connects and subscribes to the live channels; rejects when it cannot. `onDrop` runs once if it is lost later. */
  open(onMessage: UpstreamMessage, onDrop: () => void): Promise<void>;
  /** Ends the connection, without `onDrop`. */
  close(): Promise<void>;
}

const CHANNELS = [LIVE_CHANNELS.trades, LIVE_CHANNELS.indexed];

export class PubSubUpstream implements LiveUpstream {
  private stops: Array<() => Promise<void>> = [];

  constructor(private readonly pubsub: PubSub) {}

  async open(onMessage: UpstreamMessage): Promise<void> {
    await this.close();
    this.stops = await Promise.all(
      CHANNELS.map((channel) => this.pubsub.subscribe(channel, (message) => onMessage(channel, message))),
    );
  }

  async close(): Promise<void> {
    const stops = this.stops;
    this.stops = [];
    await Promise.all(stops.map((stop) => stop()));
  }
}

/** Connection settings of the stream's own subscriber: no retries of its own, no queue while it is down. */
const OWN_CONNECTION = {
  lazyConnect: true,
  retryStrategy: () => null,
  maxRetriesPerRequest: 0,
  enableOfflineQueue: false,
  autoResubscribe: false,
  connectTimeout: 5_000,
} as const;

export class RedisUpstream implements LiveUpstream {
  private current: Redis | null = null;

  /** `like`: a connection whose server and options the subscriber copies (the platform's). */
  constructor(
    private readonly like: Redis,
    private readonly prefix: string,
  ) {}

  async open(onMessage: UpstreamMessage, onDrop: () => void): Promise<void> {
    await this.close();
    const redis = this.like.duplicate(OWN_CONNECTION);
    redis.on("error", () => undefined);
    try {
      await redis.connect();
      await redis.subscribe(...CHANNELS.map((channel) => this.prefix + channel));
    } catch (error) {
      redis.disconnect();
      throw error;
    }
    redis.on("message", (channel: string, message: string) => {
      if (channel.startsWith(this.prefix)) onMessage(channel.slice(this.prefix.length), message);
    });
    redis.once("end", () => {
      if (this.current !== redis) return;
      this.current = null;
      onDrop();
    });
    this.current = redis;
  }

  async close(): Promise<void> {
    const redis = this.current;
    this.current = null;
    redis?.disconnect();
  }
}

export function upstreamOf(platform: Platform): LiveUpstream {
  return platform.redis ? new RedisUpstream(platform.redis, platform.redisPrefix) : new PubSubUpstream(platform.pubsub);
}
