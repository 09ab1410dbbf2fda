const HOUR = 3_600;

/**
 * Where a test's simulated history ends when a service reads it on the real clock: the start of the current hour,
 * not of the day, so that "the last 24 hours" (site figures, home page, alerts, flips) holds a day of history at any
 * time of day, not only in the morning.
 */
export function historyEnd(nowSeconds: number = Date.now() / 1000): number {
  return Math.floor(nowSeconds / HOUR) * HOUR;
}
