/**
 * Presence sets with expiry: "who is looking at this page now". A member stays present for the TTL of its
 * last touch. Expiry follows the injected clock on both backends (Redis keeps expiry times as sorted-set scores).
 */
import type { Redis } from "ioredis";
import type { Clock } from "./clock.js";

export interface Presence {
  touch(set: string, member: string, ttlMs: number): Promise<void>;
  count(set: string): Promise<number>;
  close(): Promise<void>;
}

export class MemoryPresence implements Presence {
  private readonly sets = new Map<string, Map<string, number>>();

  constructor(private readonly clock: Clock) {}

  async touch(set: string, member: string, ttlMs: number): Promise<void> {
    let members = this.sets.get(set);
    if (!members) this.sets.set(set, (members = new Map()));
    members.set(member, this.clock.nowMs() + ttlMs);
  }

  async count(set: string): Promise<number> {
    const members = this.sets.get(set);
    if (!members) return 0;
    const now = this.clock.nowMs();
    for (const [member, expires] of members) if (expires <= now) members.delete(member);
    if (members.size === 0) this.sets.delete(set);
    return members.size;
  }

  async close(): Promise<void> {
    this.sets.clear();
  }
}

export class RedisPresence implements Presence {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly clock: Clock,
    /** Real-time safety net so abandoned sets vanish from Redis. */
    private readonly maxKeepMs = 24 * 3600 * 1000,
  ) {}

  async touch(set: string, member: string, ttlMs: number): Promise<void> {
    const key = this.prefix + "presence:" + set;
    await this.redis.multi().zadd(key, this.clock.nowMs() + ttlMs, member).pexpire(key, this.maxKeepMs).exec();
  }

  async count(set: string): Promise<number> {
    const key = this.prefix + "presence:" + set;
    const now = this.clock.nowMs();
    const replies = await this.redis.multi().zremrangebyscore(key, "-inf", now).zcard(key).exec();
    const last = replies?.[1];
    if (!last || last[0]) throw last?.[0] ?? new Error("presence count failed");
    return last[1] as number;
  }

  async close(): Promise<void> {}
}
