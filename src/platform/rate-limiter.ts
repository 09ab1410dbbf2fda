/**
 * Sliding-window rate limits: a request is allowed when the requests counted in the last 60 s, plus its cost,
 * stay within the limit. The window is an exact log of timestamps (no bucketing), so "600 per minute" is exactly 600.
 * Rejected requests consume nothing. Memory backend for one process; Redis backend (one Lua script, atomic) when
 * several API processes share one budget. `pace` is the same window at a caller's length (the alerts hold each chat
 * platform's per-second limits across processes) and says, when full, when a place frees.
 */
import { budgetOfBucket, metrics } from "./metrics.js";
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import type { Clock } from "./clock.js";

export const WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** What this request consumed (0 when refused or peeked). */
  consumed: number;
}

export interface RateLimiter {
  /** Counts `cost` requests against `bucket` if they fit. */
  consume(bucket: string, limit: number, cost: number): Promise<RateDecision>;
  /** What is left, consuming nothing. */
  peek(bucket: string, limit: number): Promise<RateDecision>;
  /**
   * Takes a place in `bucket` if fewer than `limit` were taken in the last `windowMs`: returns 0; else nothing is
   * taken and it returns in how many ms the oldest place leaves the window.
   */
  pace(bucket: string, limit: number, windowMs: number): Promise<number>;
  close(): Promise<void>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, number[]>();
  private calls = 0;

  constructor(private readonly clock: Clock) {}

  private live(bucket: string, now: number, windowMs = WINDOW_MS): number[] {
    const log = this.logs.get(bucket) ?? [];
    let expired = 0;
    while (expired < log.length && (log[expired] as number) <= now - windowMs) expired++;
    if (expired) log.splice(0, expired);
    return log;
  }

  async consume(bucket: string, limit: number, cost: number): Promise<RateDecision> {
    const now = this.clock.nowMs();
    if (++this.calls % 10_000 === 0) this.sweep(now);
    const log = this.live(bucket, now);
    if (log.length + cost > limit) {
      this.logs.set(bucket, log);
      return { allowed: false, limit, remaining: Math.max(0, limit - log.length), consumed: 0 };
    }
    for (let i = 0; i < cost; i++) log.push(now);
    this.logs.set(bucket, log);
    return { allowed: true, limit, remaining: limit - log.length, consumed: cost };
  }

  async peek(bucket: string, limit: number): Promise<RateDecision> {
    const log = this.live(bucket, this.clock.nowMs());
    return { allowed: log.length < limit, limit, remaining: Math.max(0, limit - log.length), consumed: 0 };
  }

  async pace(bucket: string, limit: number, windowMs: number): Promise<number> {
    const now = this.clock.nowMs();
    // Pace buckets live in the same map, under their own names; windows shorter than WINDOW_MS are swept with it.
    const log = this.live(`pace:${bucket}`, now, windowMs);
    this.logs.set(`pace:${bucket}`, log);
    if (log.length < limit) {
      log.push(now);
      return 0;
    }
    return (log[log.length - limit] as number) + windowMs - now;
  }

  /** Drops buckets with nothing in the window, so idle clients do not hold memory. */
  private sweep(now: number): void {
    for (const [bucket, log] of this.logs) {
      if (log.length === 0 || (log[log.length - 1] as number) <= now - WINDOW_MS) this.logs.delete(bucket);
    }
  }

  async close(): Promise<void> {
    this.logs.clear();
  }
}

const CONSUME_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local id = ARGV[5]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if cost > 0 and count + cost <= limit then
  for i = 1, cost do
    redis.call('ZADD', key, now, id .. ':' .. i)
  end
  redis.call('PEXPIRE', key, window)
  return {1, limit - count - cost, cost}
end
local left = limit - count
if left < 0 then left = 0 end
if cost == 0 and count < limit then return {1, left, 0} end
return {0, left, 0}
`;

const PACE_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count < limit then
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, window)
  return 0
end
local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
return tonumber(oldest[2]) + window - now
`;

export class RedisRateLimiter implements RateLimiter {
  private readonly instance = randomBytes(6).toString("hex");
  private sequence = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {
    redis.defineCommand("pelagicRateConsume", { numberOfKeys: 1, lua: CONSUME_SCRIPT });
    redis.defineCommand("pelagicPace", { numberOfKeys: 1, lua: PACE_SCRIPT });
  }

  async pace(bucket: string, limit: number, windowMs: number): Promise<number> {
    const command = (this.redis as unknown as Record<string, (...args: unknown[]) => Promise<number>>).pelagicPace;
    const id = `${this.instance}:${++this.sequence}`;
    return Number(
      await command!.call(this.redis, `${this.prefix}pace:${bucket}`, this.clock.nowMs(), windowMs, limit, id),
    );
  }

  private async run(bucket: string, limit: number, cost: number): Promise<RateDecision> {
    const id = `${this.instance}:${++this.sequence}`;
    const command = (this.redis as unknown as Record<string, (...args: unknown[]) => Promise<[number, number, number]>>)
      .pelagicRateConsume;
    const [allowed, remaining, consumed] = await command!.call(
      this.redis,
      `${this.prefix}rate:${bucket}`,
      this.clock.nowMs(),
      WINDOW_MS,
      limit,
      cost,
      id,
    );
    return { allowed: allowed === 1, limit, remaining, consumed };
  }

  consume(bucket: string, limit: number, cost: number): Promise<RateDecision> {
    return this.run(bucket, limit, cost);
  }

  peek(bucket: string, limit: number): Promise<RateDecision> {
    return this.run(bucket, limit, 0);
  }

  async close(): Promise<void> {}
}

/** The limiter, its refusals counted in the process's metrics by budget (the bucket's first segment). */
export function countingRefusals(limiter: RateLimiter): RateLimiter {
  return {
    async consume(bucket, limit, cost) {
      const decision = await limiter.consume(bucket, limit, cost);
      if (!decision.allowed) metrics.rateLimitRefusals.inc({ budget: budgetOfBucket(bucket) });
      return decision;
    },
    peek: (bucket, limit) => limiter.peek(bucket, limit),
    pace: (bucket, limit, windowMs) => limiter.pace(bucket, limit, windowMs),
    close: () => limiter.close(),
  };
}
