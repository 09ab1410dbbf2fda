/** The one-line `details` of each event: what crossed, with the figures that made it cross. */
import type { Measurement } from "./geo/measure.js";
import type { Crossing, Place, ThreatThresholds } from "./threat.js";

export interface DetailContext {
  readonly label: string;
  readonly place: Place;
  readonly measurement: Measurement;
  readonly thresholds: ThreatThresholds;
  /** Whether the capture a MAP_ROLLBACK undoes had been confirmed. */
  readonly captureConfirmed?: boolean;
  /** Layers that returned to an earlier version's content in this update, e.g. "advance layer back to version 12 (2023-05-21T18:00:00.000Z)". */
  readonly reverted?: readonly string[];
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function where(place: Place, m: Measurement): string {
  if (m.closestDistanceM === null) return "no shading on the map";
  if (place.checkType === "single")
    return m.signedDistanceM !== null && m.signedDistanceM <= 0
      ? "the point is inside the shading"
      : `shading ${Math.round(m.closestDistanceM)} m away`;
  const coverage = m.coverage ?? 0;
  return coverage > 0 ? `${percent(coverage)} of the area shaded` : `shading ${Math.round(m.closestDistanceM)} m away`;
}

function trigger(ctx: DetailContext): string {
  const { place, measurement: m, thresholds } = ctx;
  switch (place.checkType) {
    case "single":
      return `shading within ${place.bufferAdvanceM} m of the point (${where(place, m)})`;
    case "enter":
      return `shading entered the area (${where(place, m)})`;
    case "entirety":
      return `${percent(m.coverage ?? 0)} of the area shaded, at least ${percent(thresholds.entiretyCoverage)}`;
  }
}

function revertNote(ctx: DetailContext): string {
  return ctx.reverted && ctx.reverted.length > 0 ? `; the map was edited back: ${ctx.reverted.join(", ")}` : "";
}

export function detailsOf(crossing: Crossing, ctx: DetailContext): string {
  const change = `threat ${crossing.previous} → ${crossing.severity}`;
  switch (crossing.eventType) {
    case "CAPTURED":
      return `${ctx.label}: ${trigger(ctx)}`;
    case "MAP_ROLLBACK":
      return `${ctx.label}: the shading that met the trigger is gone (${change}, ${where(ctx.place, ctx.measurement)}); the capture ${ctx.captureConfirmed ? "had been confirmed" : "had not been confirmed yet"}${revertNote(ctx)}`;
    case "CAPTURE_CONFIRMED":
      return `${ctx.label}: the capture persisted through the next full update (control and advance layers edited again; ${where(ctx.place, ctx.measurement)})`;
    case "THREAT_REDUCED":
      return `${ctx.label}: ${change} (${where(ctx.place, ctx.measurement)})${revertNote(ctx)}`;
    default:
      return `${ctx.label}: ${change} (${where(ctx.place, ctx.measurement)})`;
  }
}
