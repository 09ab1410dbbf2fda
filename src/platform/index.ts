/**
 * The platform: what API and ingest processes share besides the database. Memory backends in one process,
 * Redis backends when REDIS_URL is set (several API processes then share caches, presence and pub/sub).
 */
import { Redis } from "ioredis";
import { settings } from "../config/index.js";
import { mebibytes } from "./bounded-map.js";
import { TtlCache, MemoryCacheBackend, RedisCacheBackend } from "./cache.js";
import { systemClock, type Clock } from "./clock.js";
import { MemoryPresence, RedisPresence, type Presence } from "./presence.js";
import { MemoryPubSub, RedisPubSub, type PubSub } from "./pubsub.js";
import { MemoryRateLimiter, RedisRateLimiter, countingRefusals, type RateLimiter } from "./rate-limiter.js";
import { MemorySlots, RedisSlots, type ConnectionSlots } from "./slots.js";

export interface PlatformOptions {
  redisUrl?: string | undefined;
  redisPrefix: string;
  cacheMaxEntries: number;
  cacheStaleSeconds: number;
  /** In-process cache budget (CACHE_MAX_MB); its default when absent. */
  cacheMaxMb?: number | undefined;
  /** CACHE_NOT_FOUND_SECONDS; its default when absent. */
  cacheNotFoundSeconds?: number | undefined;
}

export interface Platform {
  readonly kind: "memory" | "redis";
  readonly clock: Clock;
  readonly cache: TtlCache;
  readonly pubsub: PubSub;
  readonly presence: Presence;
  readonly rateLimiter: RateLimiter;
  /** Concurrent-connection caps (SSE streams per key). */
  readonly slots: ConnectionSlots;
  /** The command connection, when Redis is in use (rate limits use it). */
  readonly redis: Redis | undefined;
  readonly redisPrefix: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function createPlatform(options: PlatformOptions, clock: Clock = systemClock): Promise<Platform> {
  const staleMs = options.cacheStaleSeconds * 1000;
  const notFoundMs = (options.cacheNotFoundSeconds ?? settings.platform.cacheNotFoundSeconds.defaultValue) * 1000;
  if (!options.redisUrl) {
    const bounds = {
      maxEntries: options.cacheMaxEntries,
      maxBytes: mebibytes(options.cacheMaxMb ?? settings.platform.cacheMaxMb.defaultValue),
    };
    const presence = new MemoryPresence(clock);
    return {
      kind: "memory",
      clock,
      cache: new TtlCache(new MemoryCacheBackend(clock, bounds), clock, staleMs, notFoundMs),
      pubsub: new MemoryPubSub(),
      presence,
      rateLimiter: countingRefusals(new MemoryRateLimiter(clock)),
      slots: new MemorySlots(clock),
      redis: undefined,
      redisPrefix: options.redisPrefix,
      async ping() {},
      async close() {
        await presence.close();
      },
    };
  }
  // Named, so that CLIENT LIST tells each process's two connections apart.
  const connect = (role: string) =>
    new Redis(options.redisUrl as string, {
      lazyConnect: true,
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      connectionName: `${options.redisPrefix}${role}`,
    });
  const redis = connect("commands");
  const subscriber = connect("subscriber");
  // Connection errors surface on the commands that need Redis; the emitter must not crash the process.
  redis.on("error", () => undefined);
  subscriber.on("error", () => undefined);
  // Unreachable, the connections would go on retrying and keep a short-lived command (pelagic keys) from exiting.
  await Promise.all([redis.connect(), subscriber.connect()]).catch((error: unknown) => {
    redis.disconnect();
    subscriber.disconnect();
    throw error;
  });
  const prefix = options.redisPrefix;
  const pubsub = new RedisPubSub(redis, subscriber, prefix);
  return {
    kind: "redis",
    clock,
    cache: new TtlCache(new RedisCacheBackend(redis, prefix), clock, staleMs, notFoundMs),
    pubsub,
    presence: new RedisPresence(redis, prefix, clock),
    rateLimiter: countingRefusals(new RedisRateLimiter(redis, prefix, clock)),
    slots: new RedisSlots(redis, prefix, clock),
    redis,
    redisPrefix: prefix,
    async ping() {
      await redis.ping();
    },
    async close() {
      await pubsub.close();
      subscriber.disconnect();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
