/**
 * Threat levels and the events their changes emit (docs/decisions.md, "Territory monitor (issue 27)").
 *
 * CRITICAL is the subscription's trigger: a `single` point within its buffer of the shading, an `enter` polygon
 * with any area shaded, an `entirety` polygon shaded to ISW_ENTIRETY_COVERAGE. Below it, `single` and `enter`
 * places rank by distance (HIGH, MEDIUM, LOW within ISW_HIGH/MEDIUM/LOW_DISTANCE_M); `entirety` places by coverage
 * (HIGH, MEDIUM at ISW_HIGH/MEDIUM_COVERAGE; LOW with any coverage or within ISW_LOW_DISTANCE_M): an "all of"
 * market needs the polygon covered, and the distance tiers would put every touched town at HIGH.
 */
import type { Config } from "../config/index.js";
import type { CheckType, Measurement } from "./geo/measure.js";

export const THREAT_LEVELS = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"] as const;
export type ThreatLevel = (typeof THREAT_LEVELS)[number];

export function threatRank(level: ThreatLevel): number {
  return THREAT_LEVELS.indexOf(level);
}

/** Every event type, in the order the docs list them. */
export const EVENT_TYPES = [
  "CAPTURED",
  "THREAT_CRITICAL",
  "THREAT_HIGH",
  "THREAT_MEDIUM",
  "THREAT_LOW",
  "THREAT_REDUCED",
  "MAP_ROLLBACK",
  "CAPTURE_CONFIRMED",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface ThreatThresholds {
  readonly entiretyCoverage: number;
  readonly highDistanceM: number;
  readonly highCoverage: number;
  readonly mediumDistanceM: number;
  readonly mediumCoverage: number;
  readonly lowDistanceM: number;
}

export function thresholdsOf(isw: Config["isw"]): ThreatThresholds {
  return {
    entiretyCoverage: isw.criticalCoverage,
    highDistanceM: isw.highDistanceM,
    highCoverage: isw.highCoverage,
    mediumDistanceM: isw.mediumDistanceM,
    mediumCoverage: isw.mediumCoverage,
    lowDistanceM: isw.lowDistanceM,
  };
}

export interface Place {
  readonly checkType: CheckType;
  /** `single` only: the point counts as shaded when the shading comes this close. */
  readonly bufferAdvanceM: number;
}

/** Whether the subscription's condition holds: the point shaded, the polygon entered, or all of it shaded. */
export function triggerMet(place: Place, m: Measurement, t: ThreatThresholds): boolean {
  switch (place.checkType) {
    case "single":
      return m.signedDistanceM !== null && m.signedDistanceM <= place.bufferAdvanceM;
    case "enter":
      return (m.coverage ?? 0) > 0;
    case "entirety":
      return (m.coverage ?? 0) >= t.entiretyCoverage;
  }
}

export function threatOf(place: Place, m: Measurement, t: ThreatThresholds): ThreatLevel {
  if (triggerMet(place, m, t)) return "CRITICAL";
  const distance = m.closestDistanceM ?? Infinity;
  if (place.checkType === "entirety") {
    const coverage = m.coverage ?? 0;
    if (coverage >= t.highCoverage) return "HIGH";
    if (coverage >= t.mediumCoverage) return "MEDIUM";
    return coverage > 0 || distance <= t.lowDistanceM ? "LOW" : "SAFE";
  }
  if (distance <= t.highDistanceM) return "HIGH";
  if (distance <= t.mediumDistanceM) return "MEDIUM";
  return distance <= t.lowDistanceM ? "LOW" : "SAFE";
}

export interface Crossing {
  readonly eventType: EventType;
  /** The level after the change: what `min_severity` compares. */
  readonly severity: ThreatLevel;
  readonly previous: ThreatLevel;
}

/**
 * The events of one change of level: a rise emits THREAT_<new level>, a fall THREAT_REDUCED; reaching CRITICAL
 * also emits CAPTURED, and leaving it MAP_ROLLBACK (the shading that met the trigger is gone). No previous
 * level (a subscription's first measurement) is the baseline: nothing crossed, nothing is emitted.
 */
export function crossings(previous: ThreatLevel | null, next: ThreatLevel): Crossing[] {
  if (previous === null || previous === next) return [];
  if (threatRank(next) > threatRank(previous)) {
    const rise: Crossing = { eventType: `THREAT_${next as Exclude<ThreatLevel, "SAFE">}`, severity: next, previous };
    return next === "CRITICAL" ? [rise, { eventType: "CAPTURED", severity: next, previous }] : [rise];
  }
  const fall: Crossing = { eventType: "THREAT_REDUCED", severity: next, previous };
  return previous === "CRITICAL" ? [fall, { eventType: "MAP_ROLLBACK", severity: next, previous }] : [fall];
}
