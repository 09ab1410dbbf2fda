/**
 * What the territory endpoints answer, read from what the probe stored: the status of every city and subscription
 * (with the venue market a subscription's slug pattern links to), the counts by threat level, and the events.
 */
import { sql } from "kysely";
import type { Store } from "../store/database.js";
import { eventView, isoTime, roundCoverage, roundMetres, type EventView } from "./event-view.js";
import { TERRITORY_SOURCE } from "./probe.js";
import { iswDb, type IswDb } from "./tables.js";
import type { CheckType } from "./geo/measure.js";
import { THREAT_LEVELS, threatRank, type ThreatLevel } from "./threat.js";

const EXCERPT_CHARS = 200;

export interface LinkedMarket {
  id: string;
  question: string;
  price_yes: number | null;
  volume: number;
}

export interface SubscriptionView {
  id: number;
  label: string;
  check_type: CheckType;
  geometry: number[][];
  threat: ThreatLevel | null;
  market_slug_pattern: string;
  description_excerpt: string;
  market?: LinkedMarket;
  coverage?: number | null;
  buffer_advance_m?: number;
  point_shaded?: boolean | null;
  closest_distance_m: number | null;
  evaluated_at: string | null;
  map_version_id: number | null;
}

export interface CityView {
  coordinates: { lon: number; lat: number };
  worst_threat: ThreatLevel | null;
  last_check: string | null;
  subscriptions: SubscriptionView[];
}

export interface StatusSummary {
  total_cities: number;
  total_subscriptions: number;
  captured_subscriptions: number;
  threats_by_subscription: Record<ThreatLevel, number>;
}

export interface TerritoryStatus {
  summary: StatusSummary;
  cities: Record<string, CityView>;
  map: {
    version_id: number;
    created_at: string;
    layers: Record<string, { version_id: number; fetched_at: string; edit_date: string | null }>;
  } | null;
  as_of: string;
}

/** A slug pattern (`*` for anything) as a LIKE pattern, its other characters taken literally. */
export function likePattern(pattern: string): string {
  return pattern.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, "%");
}

/** The market a pattern names: the open one ending first, else the last to have ended. */
async function linkedMarkets(store: Store, patterns: readonly string[]): Promise<Map<string, LinkedMarket>> {
  const linked = new Map<string, LinkedMarket>();
  for (const pattern of new Set(patterns)) {
    const rows = await store.db
      .selectFrom("markets")
      .select(["id", "question", "price_yes", "volume", "closed", "end_date"])
      .where(sql<boolean>`slug like ${likePattern(pattern)} escape '\\'`)
      .orderBy("closed")
      .orderBy("end_date")
      .orderBy("id")
      .limit(50)
      .execute();
    const open = rows.find((r) => r.closed === 0);
    const chosen = open ?? rows.sort((a, b) => (b.end_date ?? 0) - (a.end_date ?? 0))[0];
    if (chosen)
      linked.set(pattern, {
        id: chosen.id,
        question: chosen.question,
        price_yes: chosen.price_yes,
        volume: chosen.volume,
      });
  }
  return linked;
}

async function lastCheck(store: Store): Promise<string | null> {
  const row = await store.db
    .selectFrom("ingest_checkpoints")
    .select("updated_at")
    .where("source", "=", TERRITORY_SOURCE)
    .where("cursor", "!=", "")
    .executeTakeFirst();
  return row ? isoTime(row.updated_at) : null;
}

async function currentMap(db: IswDb): Promise<TerritoryStatus["map"]> {
  const map = await db.selectFrom("isw_map_versions").selectAll().orderBy("id", "desc").limit(1).executeTakeFirst();
  if (!map) return null;
  const ids = JSON.parse(map.layers) as Record<string, number>;
  const versions = await db
    .selectFrom("isw_layer_versions")
    .select(["id", "layer", "fetched_at", "edit_date_ms"])
    .where("id", "in", Object.values(ids))
    .execute();
  const layers = Object.fromEntries(
    versions.map((v) => [
      v.layer,
      {
        version_id: v.id,
        fetched_at: isoTime(v.fetched_at),
        edit_date: v.edit_date_ms === null ? null : new Date(v.edit_date_ms).toISOString(),
      },
    ]),
  );
  return { version_id: map.id, created_at: isoTime(map.created_at), layers };
}

function emptyCounts(): Record<ThreatLevel, number> {
  return Object.fromEntries(THREAT_LEVELS.map((level) => [level, 0])) as Record<ThreatLevel, number>;
}

function worst(levels: readonly (ThreatLevel | null)[]): ThreatLevel | null {
  const known = levels.filter((l): l is ThreatLevel => l !== null);
  return known.length === 0 ? null : known.reduce((a, b) => (threatRank(b) > threatRank(a) ? b : a));
}

export async function territoryStatus(store: Store, now: number): Promise<TerritoryStatus> {
  const db = iswDb(store.db);
  const [cities, subscriptions, states, checked, map] = await Promise.all([
    db.selectFrom("isw_cities").selectAll().where("active", "=", 1).orderBy("name").execute(),
    db.selectFrom("isw_subscriptions").selectAll().where("active", "=", 1).orderBy("id").execute(),
    db.selectFrom("isw_subscription_state").selectAll().execute(),
    lastCheck(store),
    currentMap(db),
  ]);
  const stateOf = new Map(states.map((s) => [s.subscription_id, s]));
  const markets = await linkedMarkets(
    store,
    subscriptions.map((s) => s.market_slug_pattern),
  );
  const counts = emptyCounts();
  const view: Record<string, CityView> = {};
  for (const city of cities)
    view[city.name] = {
      coordinates: { lon: city.lon, lat: city.lat },
      worst_threat: null,
      last_check: checked,
      subscriptions: [],
    };
  for (const s of subscriptions) {
    const city = view[s.city];
    if (!city) continue;
    const state = stateOf.get(s.id);
    const current = state && state.definition_hash === s.definition_hash ? state : undefined;
    const threat = (current?.threat as ThreatLevel | undefined) ?? null;
    if (threat) counts[threat] += 1;
    const market = markets.get(s.market_slug_pattern);
    const buffer = s.buffer_advance_m ?? 0;
    city.subscriptions.push({
      id: s.id,
      label: s.label,
      check_type: s.check_type,
      geometry: JSON.parse(s.geometry) as number[][],
      threat,
      market_slug_pattern: s.market_slug_pattern,
      description_excerpt: s.description.slice(0, EXCERPT_CHARS),
      ...(market ? { market } : {}),
      ...(s.check_type === "single"
        ? {
            buffer_advance_m: buffer,
            point_shaded: current ? current.signed_distance_m !== null && current.signed_distance_m <= buffer : null,
          }
        : { coverage: current ? roundCoverage(current.coverage) : null }),
      closest_distance_m: current ? roundMetres(current.closest_distance_m) : null,
      evaluated_at: current ? isoTime(current.evaluated_at) : null,
      map_version_id: current?.map_version_id ?? null,
    });
  }
  for (const city of Object.values(view)) city.worst_threat = worst(city.subscriptions.map((s) => s.threat));
  return {
    summary: {
      total_cities: Object.keys(view).length,
      total_subscriptions: subscriptions.length,
      captured_subscriptions: counts.CRITICAL,
      threats_by_subscription: counts,
    },
    cities: view,
    map,
    as_of: isoTime(now),
  };
}

/** The status's counts, and each city counted once at its worst level. */
export function summaryOf(status: TerritoryStatus) {
  const byCity = emptyCounts();
  for (const city of Object.values(status.cities)) if (city.worst_threat) byCity[city.worst_threat] += 1;
  const anyCity = Object.values(status.cities)[0];
  return {
    ...status.summary,
    threats_by_city: byCity,
    last_check: anyCity?.last_check ?? null,
    map_version_id: status.map?.version_id ?? null,
    as_of: status.as_of,
  };
}

export interface EventFilter {
  readonly hours: number;
  readonly city: string;
  readonly limit: number;
  readonly subscriptionId: number;
  readonly checkType?: string;
  readonly minSeverity?: ThreatLevel;
}

/** Events of the last `hours`, newest first; `city` matches without regard to case, 0 means any subscription. */
export async function listEvents(
  store: Store,
  filter: EventFilter,
  now: number,
): Promise<{ events: EventView[]; count: number }> {
  const db = iswDb(store.db);
  let city: string | null = null;
  if (filter.city.trim() !== "") {
    const wanted = filter.city.trim().toLowerCase();
    const known = await db.selectFrom("isw_cities").select("name").execute();
    city = known.find((c) => c.name.toLowerCase() === wanted)?.name ?? null;
    if (city === null) return { events: [], count: 0 };
  }
  let query = db
    .selectFrom("isw_events")
    .selectAll()
    .where("created_at", ">=", now - filter.hours * 3_600);
  if (city !== null) query = query.where("city", "=", city);
  if (filter.subscriptionId > 0) query = query.where("subscription_id", "=", filter.subscriptionId);
  if (filter.checkType) query = query.where("check_type", "=", filter.checkType);
  if (filter.minSeverity) query = query.where("severity_rank", ">=", threatRank(filter.minSeverity));
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(filter.limit).execute();
  const events = rows.map(eventView);
  return { events, count: events.length };
}
