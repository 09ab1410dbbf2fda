/**
 * Cache of an aggregate computed "as of now" (leaderboards, home and analytics figures). The key carries the
 * cache window the clock is in, so a figure is recomputed once per window and a clock that is set back (tests,
 * replays) never meets a figure computed for another time.
 */
import type { Platform } from "../platform/index.js";

export async function cachedAsOf<T>(platform: Platform, name: string, ttlSeconds: number, load: (now: number) => Promise<T>): Promise<T> {
  const now = platform.clock.now();
  if (ttlSeconds <= 0) return load(now);
  const window = Math.floor(now / ttlSeconds);
  const result = await platform.cache.getOrLoad(`${name}@${window}`, ttlSeconds * 1000, () => load(now));
  return result.value;
}

/**
 * The same window rule for a large value kept in this process only (a shared cache would ship it across the
 * network on every read): one value per window, computed once; a failed load is retried by the next caller.
 */
export class LocalWindowCache<T> {
  private entry: { window: number; value: Promise<T> } | null = null;

  constructor(
    private readonly platform: Platform,
    private readonly ttlSeconds: number,
    private readonly load: (now: number) => Promise<T>,
  ) {}

  get(): Promise<T> {
    const now = this.platform.clock.now();
    if (this.ttlSeconds <= 0) return this.load(now);
    const window = Math.floor(now / this.ttlSeconds);
    if (this.entry?.window !== window) {
      const value = this.load(now);
      this.entry = { window, value };
      value.catch(() => {
        if (this.entry?.value === value) this.entry = null;
      });
    }
    return this.entry.value;
  }
}
