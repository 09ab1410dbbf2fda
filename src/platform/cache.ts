/**
 * TTL cache with last-known-good fallback. An entry is fresh until its TTL, then stale: a stale entry is
 * served only when reloading it fails, so an upstream outage degrades to old data instead of errors.
 * Loads of one key are single-flight within a process.
 */
import type { Redis } from "ioredis";
import { BoundedMap, type MapBounds } from "./bounded-map.js";
import type { Clock } from "./clock.js";
import { metrics } from "./metrics.js";

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
    /** How long a "not found" (getOrLoadFound's null) is believed; 0: never kept. */
    private readonly notFoundMs = 0,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    const entry = await this.backend.get(key);
    const fresh = entry !== undefined && entry.freshUntil > this.clock.nowMs();
    metrics.cacheLookups.inc({ cache: "shared", result: fresh ? "hit" : "miss" });
    return fresh ? (entry.value as T) : undefined;
  }

  /**
   * Values are stored only while `predicate` holds (loads still answer): an API process keeps nothing computed
   * from a store whose first sync is not derived yet (src/analytics/reads/readiness.ts).
   */
  admitWhen(predicate: () => boolean): void {
    this.admitted = predicate;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    if (this.admitted()) await this.store(key, value, ttlMs, this.staleMs);
  }

  private async store<T>(key: string, value: T, ttlMs: number, staleMs: number): Promise<void> {
    await this.backend.set(key, { value, freshUntil: this.clock.nowMs() + ttlMs }, ttlMs + staleMs);
  }

  async delete(key: string): Promise<void> {
    await this.backend.delete(key);
  }

  /** Returns the fresh cached value, or loads and stores it; on a load failure returns the stale value if any. */
  getOrLoad<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<CacheResult<T>> {
    return this.loadThrough(key, ttlMs, load, () => ({ ttlMs, staleMs: this.staleMs }));
  }

  /**
   * As getOrLoad, for a lookup whose null answer means "not found" (an unknown wallet): a null is kept for
   * CACHE_NOT_FOUND_SECONDS only and never as last-known-good, so lookups of random keys leave no lasting state
   * and a key that appears is found soon.
   */
  getOrLoadFound<T>(key: string, ttlMs: number, load: () => Promise<T | null>): Promise<CacheResult<T | null>> {
    return this.loadThrough(key, ttlMs, load, (value) =>
      value === null ? { ttlMs: Math.min(ttlMs, this.notFoundMs), staleMs: 0 } : { ttlMs, staleMs: this.staleMs },
    );
  }

  private async loadThrough<T>(
    key: string,
    ttlMs: number,
    load: () => Promise<T>,
    keep: (value: T) => { ttlMs: number; staleMs: number },
  ): Promise<CacheResult<T>> {
    const entry = await this.backend.get(key);
    const now = this.clock.nowMs();
    if (entry && entry.freshUntil > now) {
      metrics.cacheLookups.inc({ cache: "shared", result: "hit" });
      return { value: entry.value as T, stale: false, storedAt: entry.freshUntil - ttlMs };
    }
    metrics.cacheLookups.inc({ cache: "shared", result: "miss" });
    const running = this.inflight.get(key);
    if (running) return running as Promise<CacheResult<T>>;
    // Admission is decided before the load: a value computed before readiness turned on is not kept after it.
    const admitted = this.admitted();
    const attempt = (async (): Promise<CacheResult<T>> => {
      try {
        const value = await load();
        const kept = keep(value);
        if (admitted && kept.ttlMs > 0) await this.store(key, value, kept.ttlMs, kept.staleMs);
        return { value, stale: false, storedAt: this.clock.nowMs() };
      } catch (error) {
        // A value kept without a stale period (a "not found") never stands in for a failed load.
        if (entry && keep(entry.value as T).staleMs > 0) {
          metrics.cacheLookups.inc({ cache: "shared", result: "stale" });
          return { value: entry.value as T, stale: true, storedAt: entry.freshUntil - ttlMs };
        }
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

/**
 * In-process backend, bounded by entries and by bytes: an entry is charged its key and its value's JSON length
 * (what Redis would hold); past either bound the least recently used entry goes, and expired entries are dropped
 * as later writes pass them (src/platform/bounded-map.ts).
 */
export class MemoryCacheBackend implements CacheBackend {
  private readonly entries: BoundedMap<CacheEntry<unknown>>;

  constructor(
    private readonly clock: Clock,
    bounds: MapBounds,
  ) {
    this.entries = new BoundedMap(bounds);
  }

  /** Entries held and the bytes charged for them. */
  get footprint(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.bytes };
  }

  async get(key: string): Promise<CacheEntry<unknown> | undefined> {
    return this.entries.get(key, this.clock.nowMs(), true);
  }

  async set(key: string, entry: CacheEntry<unknown>, keepMs: number): Promise<void> {
    const now = this.clock.nowMs();
    this.entries.set(key, entry, JSON.stringify(entry.value)?.length ?? 0, now + keepMs, now);
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
