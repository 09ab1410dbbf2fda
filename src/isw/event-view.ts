/** An ISW event as the events endpoints list it and as webhook deliveries carry it (`data`). */
import type { Selectable } from "kysely";
import type { CheckType } from "./geo/measure.js";
import type { IswEventsTable } from "./tables.js";
import type { EventType, ThreatLevel } from "./threat.js";

export type EventRow = Selectable<IswEventsTable>;

export interface EventView {
  id: number;
  city: string;
  event_type: EventType;
  severity: ThreatLevel;
  previous_severity: ThreatLevel | null;
  details: string;
  /** ISO 8601, UTC. */
  timestamp: string;
  subscription_id: number;
  subscription_label: string;
  check_type: CheckType;
  market_slug_pattern: string;
  coverage: number | null;
  closest_distance_m: number | null;
  map_version_id: number;
}

export function isoTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}

export function roundCoverage(coverage: number | null): number | null {
  return coverage === null ? null : Math.round(coverage * 10_000) / 10_000;
}

export function roundMetres(metres: number | null): number | null {
  return metres === null ? null : Math.round(metres);
}

export function eventView(row: EventRow): EventView {
  return {
    id: row.id,
    city: row.city,
    event_type: row.event_type as EventType,
    severity: row.severity as ThreatLevel,
    previous_severity: row.previous_severity as ThreatLevel | null,
    details: row.details,
    timestamp: isoTime(row.created_at),
    subscription_id: row.subscription_id,
    subscription_label: row.subscription_label,
    check_type: row.check_type as CheckType,
    market_slug_pattern: row.market_slug_pattern,
    coverage: roundCoverage(row.coverage),
    closest_distance_m: roundMetres(row.closest_distance_m),
    map_version_id: row.map_version_id,
  };
}

/** A webhook delivery's body (Standard Webhooks: `type`, `timestamp`, `data`). */
export function webhookPayload(row: EventRow): string {
  return JSON.stringify({
    type: `isw.${row.event_type.toLowerCase()}`,
    timestamp: isoTime(row.created_at),
    data: eventView(row),
  });
}
