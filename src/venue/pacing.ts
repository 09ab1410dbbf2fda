/**
 * Client-side pacing under the venue's published limits: one token bucket per endpoint group, and an
 * optional cap on requests in flight. Time comes from an injected clock and sleep, so tests run instantly.
 */
import type { Clock } from "../platform/clock.js";

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** A limit such as "200 requests per 10 s on /trades". */
export interface RateLimit {
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
  /** Which request paths the limit covers; all of them when absent. */
  readonly match?: (path: string) => boolean;
  /** Requests allowed at once after a quiet spell; defaults to a tenth of the limit. */
  readonly burst?: number;
}

/** A limit for the requests whose path is `path` or lies under it. */
export function pathLimit(name: string, path: string, limit: number, windowMs: number): RateLimit {
  return { name, limit, windowMs, match: (p) => p === path || p.startsWith(`${path}/`) };
}

/**
 * Refills at (limit − burst) per window and holds at most `burst`, so no window of `windowMs` ever sees more
 * than `limit` requests (a bucket holding the full limit could let through twice that across a window edge).
 */
export class TokenBucket {
  private tokens: number;
  private updatedMs: number;
  private readonly capacity: number;
  private readonly refillPerMs: number;

  constructor(
    readonly rule: RateLimit,
    private readonly clock: Clock,
  ) {
    this.capacity = Math.max(1, Math.min(rule.limit, rule.burst ?? Math.ceil(rule.limit / 10)));
    this.refillPerMs = Math.max(rule.limit - this.capacity, 1) / rule.windowMs;
    this.tokens = this.capacity;
    this.updatedMs = clock.nowMs();
  }

  private refill(): void {
    const now = this.clock.nowMs();
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.updatedMs) * this.refillPerMs);
    this.updatedMs = now;
  }

  /** Milliseconds until a token is available (0 = now). */
  waitMs(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil((1 - this.tokens) / this.refillPerMs);
  }

  take(): void {
    this.refill();
    this.tokens -= 1;
  }
}

export class Pacer {
  private readonly buckets: TokenBucket[];
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    rules: readonly RateLimit[],
    private readonly clock: Clock,
    private readonly sleep: Sleep,
    private readonly maxConcurrent = Number.POSITIVE_INFINITY,
  ) {
    this.buckets = rules.map((r) => new TokenBucket(r, clock));
  }

  /** Waits for a token of every limit covering `path` and for a free slot; call the returned release when done. */
  async acquire(path: string, signal?: AbortSignal): Promise<() => void> {
    const buckets = this.buckets.filter((b) => !b.rule.match || b.rule.match(path));
    for (;;) {
      // Checking and taking happen in one synchronous step, so concurrent callers cannot overdraw a bucket.
      const wait = Math.max(0, ...buckets.map((b) => b.waitMs()));
      if (wait === 0) break;
      await this.sleep(wait, signal);
    }
    for (const b of buckets) b.take();
    await this.enterSlot(signal);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
      this.waiting.shift()?.();
    };
  }

  private async enterSlot(signal?: AbortSignal): Promise<void> {
    if (this.inFlight < this.maxConcurrent) {
      this.inFlight += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        this.inFlight += 1;
        resolve();
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(grant);
    });
  }
}
