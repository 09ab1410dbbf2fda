/**
 * The probe's reads and writes: the configured cities and subscriptions, layer versions with their geometry, map
 * versions, each subscription's current state, and the events. Writes take the handle of the probe's
 * transaction, so a crash leaves either a whole probe's results or none of them.
 */
import { createHash } from "node:crypto";
import type { Insertable, Selectable } from "kysely";
import type { CityDefinition, SubscriptionDefinition } from "./cities.js";
import type { EventRow } from "./event-view.js";
import type { CheckType, LonLat } from "./geo/measure.js";
import { decodePolygon, encodePolygon, polygonDigest, vertexCount, type TerritoryPolygon } from "./geo/polygons.js";
import type { IswDb, IswEventsTable, IswSubscriptionStateTable } from "./tables.js";

/** A stored subscription: its definition (but the description, which the probe never reads), id and definition hash. */
export interface SubscriptionRecord extends Omit<SubscriptionDefinition, "description"> {
  readonly id: number;
  readonly definitionHash: string;
}

export type StateRow = Selectable<IswSubscriptionStateTable>;

export interface LayerVersion {
  readonly id: number;
  readonly layer: string;
  readonly contentHash: string;
  readonly editDateMs: number | null;
  readonly fetchedAt: number;
  readonly polygons: readonly TerritoryPolygon[];
}

function definitionHash(checkType: CheckType, geometry: readonly LonLat[], bufferAdvanceM: number | null): string {
  return createHash("sha256")
    .update(JSON.stringify({ checkType, geometry, bufferAdvanceM }))
    .digest("hex")
    .slice(0, 32);
}

/** Makes the stored cities and subscriptions those of the configuration (others stay, inactive, for their events). */
export async function syncCities(db: IswDb, cities: readonly CityDefinition[], now: number): Promise<void> {
  await db.updateTable("isw_cities").set({ active: 0 }).execute();
  await db.updateTable("isw_subscriptions").set({ active: 0 }).execute();
  for (const city of cities) {
    await db
      .insertInto("isw_cities")
      .values({ name: city.name, lon: city.lon, lat: city.lat, active: 1, updated_at: now })
      .onConflict((oc) => oc.column("name").doUpdateSet({ lon: city.lon, lat: city.lat, active: 1, updated_at: now }))
      .execute();
    for (const s of city.subscriptions) {
      const values = {
        check_type: s.checkType,
        geometry: JSON.stringify(s.geometry),
        buffer_advance_m: s.bufferAdvanceM,
        market_slug_pattern: s.marketSlugPattern,
        description: s.description,
        definition_hash: definitionHash(s.checkType, s.geometry, s.bufferAdvanceM),
        active: 1,
        updated_at: now,
      };
      await db
        .insertInto("isw_subscriptions")
        .values({ city: s.city, label: s.label, ...values })
        .onConflict((oc) => oc.columns(["city", "label"]).doUpdateSet(values))
        .execute();
    }
  }
}

export async function activeSubscriptions(db: IswDb): Promise<SubscriptionRecord[]> {
  const rows = await db.selectFrom("isw_subscriptions").selectAll().where("active", "=", 1).orderBy("id").execute();
  return rows.map((r) => ({
    id: r.id,
    city: r.city,
    label: r.label,
    checkType: r.check_type,
    geometry: JSON.parse(r.geometry) as LonLat[],
    bufferAdvanceM: r.buffer_advance_m,
    marketSlugPattern: r.market_slug_pattern,
    definitionHash: r.definition_hash,
  }));
}

/** The newest version of each layer, with its geometry. */
export async function latestLayerVersions(db: IswDb): Promise<LayerVersion[]> {
  const latest = db
    .selectFrom("isw_layer_versions")
    .select((eb) => eb.fn.max("id").as("id"))
    .groupBy("layer");
  const rows = await db.selectFrom("isw_layer_versions").selectAll().where("id", "in", latest).execute();
  const digests = rows.map((r) => JSON.parse(r.polygons) as string[]);
  const wanted = [...new Set(digests.flat())];
  const stored =
    wanted.length === 0
      ? []
      : await db.selectFrom("isw_polygons").select(["digest", "geometry"]).where("digest", "in", wanted).execute();
  const byDigest = new Map(stored.map((p) => [p.digest, decodePolygon(p.geometry)]));
  return rows.map((r, i) => ({
    id: r.id,
    layer: r.layer,
    contentHash: r.content_hash,
    editDateMs: r.edit_date_ms,
    fetchedAt: r.fetched_at,
    polygons: digests[i]!.map((digest) => {
      const polygon = byDigest.get(digest);
      if (!polygon) throw new Error(`layer version ${r.id} names polygon ${digest}, which is not stored`);
      return polygon;
    }),
  }));
}

/** Stores the polygons the store does not hold yet. */
async function storePolygons(db: IswDb, polygons: readonly TerritoryPolygon[]): Promise<void> {
  const byDigest = new Map(polygons.map((p) => [polygonDigest(p), p]));
  const known = new Set<string>();
  const digests = [...byDigest.keys()];
  for (let i = 0; i < digests.length; i += 500) {
    const rows = await db
      .selectFrom("isw_polygons")
      .select("digest")
      .where("digest", "in", digests.slice(i, i + 500))
      .execute();
    for (const row of rows) known.add(row.digest);
  }
  for (const [digest, polygon] of byDigest) {
    if (known.has(digest)) continue;
    await db
      .insertInto("isw_polygons")
      .values({ digest, vertex_count: vertexCount([polygon]), geometry: encodePolygon(polygon) })
      .execute();
  }
}

export interface NewLayerVersion {
  readonly layer: string;
  readonly contentHash: string;
  readonly editDateMs: number | null;
  readonly featureCount: number;
  readonly polygons: readonly TerritoryPolygon[];
}

/** Stores a new layer version; when an earlier version had the same content, says which (an edit-back). */
export async function insertLayerVersion(
  db: IswDb,
  v: NewLayerVersion,
  now: number,
): Promise<{ id: number; revertsTo: { id: number; fetchedAt: number } | null }> {
  const earlier = await db
    .selectFrom("isw_layer_versions")
    .select(["id", "fetched_at"])
    .where("layer", "=", v.layer)
    .where("content_hash", "=", v.contentHash)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  await storePolygons(db, v.polygons);
  const inserted = await db
    .insertInto("isw_layer_versions")
    .values({
      layer: v.layer,
      content_hash: v.contentHash,
      edit_date_ms: v.editDateMs,
      fetched_at: now,
      feature_count: v.featureCount,
      vertex_count: vertexCount(v.polygons),
      reverts_to: earlier?.id ?? null,
      polygons: JSON.stringify(v.polygons.map(polygonDigest)),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: inserted.id, revertsTo: earlier ? { id: earlier.id, fetchedAt: earlier.fetched_at } : null };
}

/** The layer was edited again without a change of content: its current version keeps the newer edit date. */
export async function setLayerEditDate(db: IswDb, versionId: number, editDateMs: number): Promise<void> {
  await db.updateTable("isw_layer_versions").set({ edit_date_ms: editDateMs }).where("id", "=", versionId).execute();
}

export async function insertMapVersion(
  db: IswDb,
  now: number,
  layers: Readonly<Record<string, number>>,
  changed: readonly string[],
): Promise<number> {
  const row = await db
    .insertInto("isw_map_versions")
    .values({ created_at: now, layers: JSON.stringify(layers), changed: JSON.stringify(changed) })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function latestMapVersionId(db: IswDb): Promise<number | null> {
  const row = await db
    .selectFrom("isw_map_versions")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function loadStates(db: IswDb): Promise<Map<number, StateRow>> {
  const rows = await db.selectFrom("isw_subscription_state").selectAll().execute();
  return new Map(rows.map((r) => [r.subscription_id, r]));
}

export async function saveState(db: IswDb, row: StateRow): Promise<void> {
  const { subscription_id: _id, ...rest } = row;
  await db
    .insertInto("isw_subscription_state")
    .values(row)
    .onConflict((oc) => oc.column("subscription_id").doUpdateSet(rest))
    .execute();
}

export async function insertEvent(db: IswDb, event: Insertable<IswEventsTable>): Promise<EventRow> {
  return db.insertInto("isw_events").values(event).returningAll().executeTakeFirstOrThrow();
}
