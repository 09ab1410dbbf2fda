/** Pub/sub of string messages: in-process, or Redis so that every API process sees what ingest publishes. */
import { EventEmitter } from "node:events";
import type { Redis } from "ioredis";

export type Handler = (message: string) => void;

export interface PubSub {
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is active; returns the function that ends it. */
  subscribe(channel: string, handler: Handler): Promise<() => Promise<void>>;
  /**
   * Calls `listener(false)` when messages may be missed from now on (the connection to Redis dropped), and
   * `listener(true)` once every subscription is active again; returns the function that stops the calls.
   */
  onGap(listener: GapListener): () => void;
  close(): Promise<void>;
}

export type GapListener = (listening: boolean) => void;

export class MemoryPubSub implements PubSub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(channel: string, message: string): Promise<void> {
    this.emitter.emit(channel, message);
  }

  async subscribe(channel: string, handler: Handler): Promise<() => Promise<void>> {
    this.emitter.on(channel, handler);
    return async () => {
      this.emitter.off(channel, handler);
    };
  }

  /** In-process delivery has no gaps. */
  onGap(): () => void {
    return () => undefined;
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/** One subscriber connection per process, shared by all subscriptions. */
export class RedisPubSub implements PubSub {
  private readonly local = new MemoryPubSub();
  private readonly counts = new Map<string, number>();
  private readonly gaps = new EventEmitter().setMaxListeners(0);
  private lost = false;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
  ) {
    subscriber.on("message", (channel: string, message: string) => {
      if (channel.startsWith(prefix)) void this.local.publish(channel.slice(prefix.length), message);
    });
    subscriber.on("close", () => {
      if (this.lost) return;
      this.lost = true;
      this.gaps.emit("gap", false);
    });
    // ioredis sends the subscriptions again as the connection gets ready; a PING queued after them answers once
    // they are all active.
    subscriber.on("ready", () => {
      if (!this.lost) return;
      subscriber.ping().then(
        () => {
          if (!this.lost || subscriber.status !== "ready") return;
          this.lost = false;
          this.gaps.emit("gap", true);
        },
        () => undefined,
      );
    });
  }

  onGap(listener: GapListener): () => void {
    this.gaps.on("gap", listener);
    return () => this.gaps.off("gap", listener);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.publisher.publish(this.prefix + channel, message);
  }

  async subscribe(channel: string, handler: Handler): Promise<() => Promise<void>> {
    const count = this.counts.get(channel) ?? 0;
    this.counts.set(channel, count + 1);
    if (count === 0) await this.subscriber.subscribe(this.prefix + channel);
    const stopLocal = await this.local.subscribe(channel, handler);
    return async () => {
      await stopLocal();
      const left = (this.counts.get(channel) ?? 1) - 1;
      this.counts.set(channel, left);
      if (left === 0) {
        this.counts.delete(channel);
        await this.subscriber.unsubscribe(this.prefix + channel);
      }
    };
  }

  async close(): Promise<void> {
    this.gaps.removeAllListeners();
    await this.local.close();
  }
}
