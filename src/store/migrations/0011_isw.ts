/**
 * Issue 27, the territory monitor: every fetched layer version (content hash, edit date, fetch time, and its
 * polygons, each stored once by digest since consecutive versions share most of them), the maps built from them, the monitored cities and subscriptions with their current measurement, the
 * events their changes emitted, and webhook endpoints with their stored deliveries. Times are unix seconds but
 * `edit_date_ms`, the layer's own ArcGIS edit date.
 */
import { sql, type Kysely } from "kysely";
import { columnTypes, serialKey, type StoreKind, type StoreMigration } from "./column-types.js";

export const isw: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    const serial = serialKey(kind);
    const bytes = kind === "postgres" ? sql`bytea` : sql`blob`;
    const s = db.schema;

    await s
      .createTable("isw_layer_versions")
      .addColumn("id", t.serial, serial)
      .addColumn("layer", t.text, (c) => c.notNull())
      .addColumn("content_hash", t.text, (c) => c.notNull())
      .addColumn("edit_date_ms", t.int)
      .addColumn("fetched_at", t.int, (c) => c.notNull())
      .addColumn("feature_count", t.int, (c) => c.notNull())
      .addColumn("vertex_count", t.int, (c) => c.notNull())
      .addColumn("reverts_to", t.int)
      .addColumn("polygons", t.text, (c) => c.notNull())
      .execute();
    await s.createIndex("isw_layer_versions_layer").on("isw_layer_versions").columns(["layer", "id"]).execute();
    await s
      .createIndex("isw_layer_versions_hash")
      .on("isw_layer_versions")
      .columns(["layer", "content_hash"])
      .execute();

    await s
      .createTable("isw_polygons")
      .addColumn("digest", t.text, (c) => c.primaryKey())
      .addColumn("vertex_count", t.int, (c) => c.notNull())
      .addColumn("geometry", bytes, (c) => c.notNull())
      .execute();

    await s
      .createTable("isw_map_versions")
      .addColumn("id", t.serial, serial)
      .addColumn("created_at", t.int, (c) => c.notNull())
      .addColumn("layers", t.text, (c) => c.notNull())
      .addColumn("changed", t.text, (c) => c.notNull())
      .execute();

    await s
      .createTable("isw_cities")
      .addColumn("name", t.text, (c) => c.primaryKey())
      .addColumn("lon", t.real, (c) => c.notNull())
      .addColumn("lat", t.real, (c) => c.notNull())
      .addColumn("active", t.int, (c) => c.notNull())
      .addColumn("updated_at", t.int, (c) => c.notNull())
      .execute();

    await s
      .createTable("isw_subscriptions")
      .addColumn("id", t.serial, serial)
      .addColumn("city", t.text, (c) => c.notNull())
      .addColumn("label", t.text, (c) => c.notNull())
      .addColumn("check_type", t.text, (c) => c.notNull())
      .addColumn("geometry", t.text, (c) => c.notNull())
      .addColumn("buffer_advance_m", t.real)
      .addColumn("market_slug_pattern", t.text, (c) => c.notNull())
      .addColumn("description", t.text, (c) => c.notNull())
      .addColumn("definition_hash", t.text, (c) => c.notNull())
      .addColumn("active", t.int, (c) => c.notNull())
      .addColumn("updated_at", t.int, (c) => c.notNull())
      .addUniqueConstraint("isw_subscriptions_city_label", ["city", "label"])
      .execute();

    await s
      .createTable("isw_subscription_state")
      .addColumn("subscription_id", t.int, (c) => c.primaryKey())
      .addColumn("definition_hash", t.text, (c) => c.notNull())
      .addColumn("threat", t.text, (c) => c.notNull())
      .addColumn("coverage", t.real)
      .addColumn("closest_distance_m", t.real)
      .addColumn("signed_distance_m", t.real)
      .addColumn("fingerprint", t.text, (c) => c.notNull())
      .addColumn("map_version_id", t.int, (c) => c.notNull())
      .addColumn("evaluated_at", t.int, (c) => c.notNull())
      .addColumn("capture_event_id", t.int)
      .addColumn("capture_edit_dates", t.text)
      .addColumn("capture_confirmed", t.int, (c) => c.notNull())
      .execute();

    await s
      .createTable("isw_events")
      .addColumn("id", t.serial, serial)
      .addColumn("subscription_id", t.int, (c) => c.notNull())
      .addColumn("city", t.text, (c) => c.notNull())
      .addColumn("event_type", t.text, (c) => c.notNull())
      .addColumn("severity", t.text, (c) => c.notNull())
      .addColumn("severity_rank", t.int, (c) => c.notNull())
      .addColumn("previous_severity", t.text)
      .addColumn("details", t.text, (c) => c.notNull())
      .addColumn("created_at", t.int, (c) => c.notNull())
      .addColumn("map_version_id", t.int, (c) => c.notNull())
      .addColumn("check_type", t.text, (c) => c.notNull())
      .addColumn("subscription_label", t.text, (c) => c.notNull())
      .addColumn("market_slug_pattern", t.text, (c) => c.notNull())
      .addColumn("coverage", t.real)
      .addColumn("closest_distance_m", t.real)
      .execute();
    await s.createIndex("isw_events_created").on("isw_events").column("created_at").execute();
    await s.createIndex("isw_events_city").on("isw_events").columns(["city", "created_at"]).execute();
    await s
      .createIndex("isw_events_subscription")
      .on("isw_events")
      .columns(["subscription_id", "created_at"])
      .execute();

    await s
      .createTable("isw_webhook_endpoints")
      .addColumn("id", t.serial, serial)
      .addColumn("account", t.text, (c) => c.notNull())
      .addColumn("url", t.text, (c) => c.notNull())
      .addColumn("cities", t.text, (c) => c.notNull())
      .addColumn("secret_box", t.text, (c) => c.notNull())
      .addColumn("status", t.text, (c) => c.notNull())
      .addColumn("created_at", t.int, (c) => c.notNull())
      .addColumn("disabled_at", t.int)
      .addColumn("disabled_reason", t.text)
      .addUniqueConstraint("isw_webhook_endpoints_account_url", ["account", "url"])
      .execute();

    await s
      .createTable("isw_webhook_deliveries")
      .addColumn("id", t.serial, serial)
      .addColumn("endpoint_id", t.int, (c) => c.notNull())
      .addColumn("event_id", t.int, (c) => c.notNull())
      .addColumn("message_id", t.text, (c) => c.notNull())
      .addColumn("payload", t.text, (c) => c.notNull())
      .addColumn("status", t.text, (c) => c.notNull())
      .addColumn("attempts", t.int, (c) => c.notNull())
      .addColumn("next_attempt_at", t.int, (c) => c.notNull())
      .addColumn("last_status", t.int)
      .addColumn("last_error", t.text)
      .addColumn("created_at", t.int, (c) => c.notNull())
      .addColumn("finished_at", t.int)
      .addUniqueConstraint("isw_webhook_deliveries_endpoint_event", ["endpoint_id", "event_id"])
      .execute();
    await s
      .createIndex("isw_webhook_deliveries_due")
      .on("isw_webhook_deliveries")
      .columns(["status", "next_attempt_at"])
      .execute();
  },
};
