/**
 * Places around Bakhmut whose threat levels cross thresholds in the twelve snapshots (a point taken in May 2023
 * from the east of the town, where the shading reached it, to the southern flank, where it drew back), as
 * `single` subscriptions with no buffer: the tests' expectations for them come from turf, not from the monitor.
 */
import type { SubscriptionInput } from "../cities.js";

export const BAKHMUT_POINTS: ReadonlyArray<readonly [label: string, point: [number, number]]> = [
  ["east of the centre", [37.97, 48.58]],
  ["north-west edge", [37.95, 48.59]],
  ["west road", [37.92, 48.59]],
  ["far west road", [37.91, 48.59]],
  ["southern flank", [37.93, 48.56]],
];

export function pointSubscriptions(): SubscriptionInput[] {
  return BAKHMUT_POINTS.map(([label, point]) => ({
    label,
    check_type: "single",
    point,
    buffer_advance_m: 0,
    market_slug_pattern: `${label.replace(/ /g, "-")}-*`,
  }));
}
