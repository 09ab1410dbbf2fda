/**
 * Cache of an aggregate computed "as of now" (home and analytics figures, period leaderboards). The key carries the
 * cache window the clock is in, so a figure is recomputed once per window and a clock that is set back (tests,
 * replays) never meets a figure computed for another time.
 */
import { gzipSync } from "node:zlib";
import type { Clock } from "../platform/clock.js";
import type { Platform } from "../platform/index.js";

export async function cachedAsOf<T>(platform: Platform, name: string, ttlSeconds: number, load: (now: number) => Promise<T>): Promise<T> {
  const now = platform.clock.now();
  if (ttlSeconds <= 0) return load(now);
  const window = Math.floor(now / ttlSeconds);
  const result = await platform.cache.getOrLoad(`${name}@${window}`, ttlSeconds * 1000, () => load(now));
  return result.value;
}

/**
 * A JSON answer serialized once and kept: sent as it is, or gzip-compressed for clients that accept it. The
 * compressed form is made on first need and kept with it, so a kept answer is compressed once, not per request.
 */
export class SerializedBody {
  private gzipped: Buffer | undefined;

  constructor(
    readonly json: Buffer,
    /** Smaller answers are never compressed (GZIP_MIN_BYTES; 0: none is). */
    private readonly gzipMinBytes: number,
  ) {}

  static of(text: string, gzipMinBytes: number): SerializedBody {
    return new SerializedBody(Buffer.from(text), gzipMinBytes);
  }

  get compressible(): boolean {
    return this.gzipMinBytes > 0 && this.json.length >= this.gzipMinBytes;
  }

  gzip(): Buffer {
    return (this.gzipped ??= gzipSync(this.json));
  }
}

/**
 * Serialized answers kept in this process (a route sends them as they are, without serializing again). An entry
 * serves from the clock second it was computed for at most `ttlSeconds`, shortened at random by up to a quarter,
 * so that entries computed together (a cold start, a burst) do not all expire, and load the store, together. A
 * clock set back never meets an entry computed later. Loads of one key are single-flight; the oldest entry goes
 * past `maxEntries`. An answer is kept only if `admitted` held when its computation began (readiness).
 */
export class LocalBodyCache {
  private readonly entries = new Map<string, { from: number; until: number; body: SerializedBody }>();
  private readonly inflight = new Map<string, Promise<SerializedBody>>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
    private readonly maxEntries: number,
    /** GZIP_MIN_BYTES (0: kept answers are never compressed). */
    private readonly gzipMinBytes = 0,
    private readonly admitted: () => boolean = () => true,
  ) {}

  async get(key: string, compute: (now: number) => Promise<string>): Promise<SerializedBody> {
    const now = this.clock.now();
    const entry = this.entries.get(key);
    if (entry && entry.from <= now && now < entry.until) return entry.body;
    const running = this.inflight.get(key);
    if (running) return running;
    const keep = this.admitted() && this.ttlSeconds > 0 && this.maxEntries > 0;
    const loading = compute(now)
      .then((text) => {
        const body = SerializedBody.of(text, this.gzipMinBytes);
        if (keep) {
          this.entries.delete(key);
          if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
          this.entries.set(key, { from: now, until: now + this.ttlSeconds * (1 - 0.25 * Math.random()), body });
        }
        return body;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, loading);
    return loading;
  }
}
