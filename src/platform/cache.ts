/**
 * TTL cache with last-known-good fallback. An entry is fresh until its TTL, then stale: a stale entry is
 * served only when reloading it fails, so an upstream outage degrades to old data instead of errors.
 * Loads of one key are single-flight within a process.
 */
import type { Redis } from "ioredis";
import type { Clock } from "./clock.js";

export interface CacheEntry<T> {
  value: T;
  /** ms since epoch when the entry stops being fresh. */
  freshUntil: number;
}

/** The storage behind the cache: memory in one process, Redis when scaled. */
export interface CacheBackend {
  get(key: string): Promise<CacheEntry<unknown> | undefined>;
  set(key: string, entry: CacheEntry<unknown>, keepMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface CacheResult<T> {
  value: T;
  /** true when the value is last-known-good because reloading failed. */
  stale: boolean;
  /** ms since epoch when the value was computed (freshUntil - ttl). */
  storedAt: number;
}

export class TtlCache {
  private readonly inflight = new Map<string, Promise<CacheResult<unknown>>>();
  private admitted: () => boolean = () => true;

  constructor(
    private readonly backend: CacheBackend,
    private readonly clock: Clock,
    /** How long past expiry an entry is kept as last-known-good. */
    private readonly staleMs: number,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    const entry = await this.backend.get(key);
    return entry && entry.freshUntil > this.clock.nowMs() ? (entry.value as T) : undefined;
  }

  /**
   * Values are stored only while `predicate` holds (loads still answer): an API process keeps nothing computed
   * from a store whose first sync is not derived yet (src/analytics/readiness.ts).
   */
  admitWhen(predicate: () => boolean): void {
    this.admitted = predicate;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    if (this.admitted()) await this.store(key, value, ttlMs);
  }

  private async store<T>(key: string, value: T, ttlMs: number): Promise<void> {
    await this.backend.set(key, { value, freshUntil: this.clock.nowMs() + ttlMs }, ttlMs + this.staleMs);
  }

  async delete(key: string): Promise<void> {
    await this.backend.delete(key);
  }

  /** Returns the fresh cached value, or loads and stores it; on a load failure returns the stale value if any. */
  async getOrLoad<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<CacheResult<T>> {
    const entry = await this.backend.get(key);
    const now = this.clock.nowMs();
    if (entry && entry.freshUntil > now) {
      return { value: entry.value as T, stale: false, storedAt: entry.freshUntil - ttlMs };
    }
    const running = this.inflight.get(key);
    if (running) return running as Promise<CacheResult<T>>;
    // Admission is decided before the load: a value computed before readiness turned on is not kept after it.
    const admitted = this.admitted();
    const attempt = (async (): Promise<CacheResult<T>> => {
      try {
        const value = await load();
        if (admitted) await this.store(key, value, ttlMs);
        return { value, stale: false, storedAt: this.clock.nowMs() };
      } catch (error) {
        if (entry) return { value: entry.value as T, stale: true, storedAt: entry.freshUntil - ttlMs };
        throw error;
      }
    })();
    this.inflight.set(key, attempt);
    try {
      return await attempt;
    } finally {
      this.inflight.delete(key);
    }
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}

/** Bounded in-process backend: drops the least recently used entry past maxEntries. */
export class MemoryCacheBackend implements CacheBackend {
  private readonly entries = new Map<string, { entry: CacheEntry<unknown>; keepUntil: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries: number,
  ) {}

  async get(key: string): Promise<CacheEntry<unknown> | undefined> {
    const item = this.entries.get(key);
    if (!item) return undefined;
    if (item.keepUntil <= this.clock.nowMs()) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, item);
    return item.entry;
  }

  async set(key: string, entry: CacheEntry<unknown>, keepMs: number): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, { entry, keepUntil: this.clock.nowMs() + keepMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

/** Redis backend: values are JSON; Redis expires an entry once it is no longer useful as last-known-good. */
export class RedisCacheBackend implements CacheBackend {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async get(key: string): Promise<CacheEntry<unknown> | undefined> {
    const raw = await this.redis.get(this.prefix + "cache:" + key);
    return raw === null ? undefined : (JSON.parse(raw) as CacheEntry<unknown>);
  }

  async set(key: string, entry: CacheEntry<unknown>, keepMs: number): Promise<void> {
    await this.redis.set(this.prefix + "cache:" + key, JSON.stringify(entry), "PX", Math.max(1, Math.ceil(keepMs)));
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + "cache:" + key);
  }

  async close(): Promise<void> {}
}
