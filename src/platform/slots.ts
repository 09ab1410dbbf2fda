/**
 * Counted slots with expiry: "at most N concurrent SSE connections per key", across API processes.
 * A lease lives for `ttlMs` unless refreshed, so a crashed process cannot hold slots forever.
 */
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import type { Clock } from "./clock.js";

export interface SlotLease {
  refresh(): Promise<void>;
  release(): Promise<void>;
}

export interface ConnectionSlots {
  /** A lease when fewer than `max` live leases exist for the bucket, else undefined. */
  acquire(bucket: string, max: number, ttlMs: number): Promise<SlotLease | undefined>;
  count(bucket: string): Promise<number>;
}

const newId = () => randomBytes(8).toString("hex");

export class MemorySlots implements ConnectionSlots {
  private readonly buckets = new Map<string, Map<string, number>>();

  constructor(private readonly clock: Clock) {}

  private live(bucket: string): Map<string, number> {
    const leases = this.buckets.get(bucket) ?? new Map<string, number>();
    const now = this.clock.nowMs();
    for (const [id, expires] of leases) if (expires <= now) leases.delete(id);
    this.buckets.set(bucket, leases);
    return leases;
  }

  async acquire(bucket: string, max: number, ttlMs: number): Promise<SlotLease | undefined> {
    const leases = this.live(bucket);
    if (leases.size >= max) return undefined;
    const id = newId();
    leases.set(id, this.clock.nowMs() + ttlMs);
    return {
      refresh: async () => {
        if (leases.has(id)) leases.set(id, this.clock.nowMs() + ttlMs);
      },
      release: async () => {
        leases.delete(id);
        if (leases.size === 0) this.buckets.delete(bucket);
      },
    };
  }

  async count(bucket: string): Promise<number> {
    return this.live(bucket).size;
  }
}

const ACQUIRE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`;

export class RedisSlots implements ConnectionSlots {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {
    redis.defineCommand("pelagicSlotAcquire", { numberOfKeys: 1, lua: ACQUIRE_SCRIPT });
  }

  async acquire(bucket: string, max: number, ttlMs: number): Promise<SlotLease | undefined> {
    const key = `${this.prefix}slots:${bucket}`;
    const id = newId();
    const now = this.clock.nowMs();
    const command = (this.redis as unknown as Record<string, (...args: unknown[]) => Promise<number>>)
      .pelagicSlotAcquire;
    const ok = await command!.call(this.redis, key, now, max, now + ttlMs, id, ttlMs * 2);
    if (ok !== 1) return undefined;
    return {
      refresh: async () => {
        await this.redis.zadd(key, "XX", this.clock.nowMs() + ttlMs, id);
        await this.redis.pexpire(key, ttlMs * 2);
      },
      release: async () => {
        await this.redis.zrem(key, id);
      },
    };
  }

  async count(bucket: string): Promise<number> {
    const key = `${this.prefix}slots:${bucket}`;
    await this.redis.zremrangebyscore(key, "-inf", this.clock.nowMs());
    return this.redis.zcard(key);
  }
}
