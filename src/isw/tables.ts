/**
 * The territory monitor's tables (migration 0011_isw) as Kysely types, and the typed handle over them: the
 * monitor's code reads them through `iswDb(store.db)` so the store's shared schema stays untouched.
 */
import type { Generated, Kysely } from "kysely";
import type { Store } from "../store/database.js";
import type { Database } from "../store/schema.js";

export interface IswLayerVersionsTable {
  id: Generated<number>;
  layer: string;
  content_hash: string;
  /** The layer's `editingInfo.lastEditDate` (ms) last seen while this content was current; null when it has none. */
  edit_date_ms: number | null;
  fetched_at: number;
  feature_count: number;
  vertex_count: number;
  /** An earlier version of the layer with the same content: the map was edited back to it. */
  reverts_to: number | null;
  /** JSON: the digests of its polygons (isw_polygons), in the layer's order. */
  polygons: string;
}

/** A polygon of any layer version, stored once (src/isw/geo/polygons.ts, encodePolygon). */
export interface IswPolygonsTable {
  digest: string;
  vertex_count: number;
  geometry: Uint8Array;
}

export interface IswMapVersionsTable {
  id: Generated<number>;
  created_at: number;
  /** JSON: layer → layer version id, for every layer the map combines. */
  layers: string;
  /** JSON: the layers whose new version made this map. */
  changed: string;
}

export interface IswCitiesTable {
  name: string;
  lon: number;
  lat: number;
  active: number;
  updated_at: number;
}

export interface IswSubscriptionsTable {
  id: Generated<number>;
  city: string;
  label: string;
  check_type: "single" | "enter" | "entirety";
  /** JSON: [[lon, lat], ...], one point for `single`. */
  geometry: string;
  buffer_advance_m: number | null;
  market_slug_pattern: string;
  description: string;
  /** Hash of what the measurement depends on: a changed definition starts a new baseline. */
  definition_hash: string;
  active: number;
  updated_at: number;
}

export interface IswSubscriptionStateTable {
  subscription_id: number;
  definition_hash: string;
  threat: string;
  coverage: number | null;
  closest_distance_m: number | null;
  signed_distance_m: number | null;
  fingerprint: string;
  map_version_id: number;
  evaluated_at: number;
  /** The CAPTURED event still waiting for its confirmation, if any. */
  capture_event_id: number | null;
  /** JSON: layer → edit date (ms) when that capture happened. */
  capture_edit_dates: string | null;
  capture_confirmed: number;
}

export interface IswEventsTable {
  id: Generated<number>;
  subscription_id: number;
  city: string;
  event_type: string;
  severity: string;
  severity_rank: number;
  previous_severity: string | null;
  details: string;
  created_at: number;
  map_version_id: number;
  check_type: string;
  subscription_label: string;
  market_slug_pattern: string;
  coverage: number | null;
  closest_distance_m: number | null;
}

// A type alias, not an interface: withTables needs an index-compatible record type.
export type IswTables = {
  isw_layer_versions: IswLayerVersionsTable;
  isw_polygons: IswPolygonsTable;
  isw_map_versions: IswMapVersionsTable;
  isw_cities: IswCitiesTable;
  isw_subscriptions: IswSubscriptionsTable;
  isw_subscription_state: IswSubscriptionStateTable;
  isw_events: IswEventsTable;
};

export type IswDb = Kysely<Database & IswTables>;

export function iswDb(db: Kysely<Database>): IswDb {
  return db.withTables<IswTables>();
}

/** The monitor's tables of a store, for the routes that hand them to the monitor's functions. */
export function iswTablesOf(store: Store): IswDb {
  return iswDb(store.db);
}
