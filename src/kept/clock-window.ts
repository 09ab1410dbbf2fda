/**
 * Cache of an aggregate computed "as of now" (home and analytics figures, period leaderboards). The key carries the
 * cache window the clock is in, so a figure is recomputed once per window and a clock that is set back (tests,
 * replays) never meets a figure computed for another time.
 */
import type { Platform } from "../platform/index.js";

export async function computedPerClockWindow<T>(
  platform: Platform,
  name: string,
  ttlSeconds: number,
  load: (now: number) => Promise<T>,
): Promise<T> {
  const now = platform.clock.now();
  if (ttlSeconds <= 0) return load(now);
  const window = Math.floor(now / ttlSeconds);
  const result = await platform.cache.getOrLoad(`${name}@${window}`, ttlSeconds * 1000, () => load(now));
  return result.value;
}

/**
 * The first second of the next cache window: when `computedPerClockWindow` computes its figure again, so an answer made from
 * it may be kept until then (at once with no cache).
 */
export function clockWindowEnd(now: number, ttlSeconds: number): number {
  return ttlSeconds <= 0 ? now : (Math.floor(now / ttlSeconds) + 1) * ttlSeconds;
}
