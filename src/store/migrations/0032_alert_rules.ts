/**
 * Issue 51, alerts that come to you: each Premium account's destinations (a signed webhook, a Telegram chat, a
 * Discord or Slack webhook; what is secret sealed with the webhook key), its rules (a kind, its filters as JSON, the
 * destinations it names, active or paused), and the deliveries the matcher queues in the ingest's own batch
 * transaction: one per (rule, destination, event), which the unique key keeps so across processes and restarts. The
 * matcher reloads its rules when the `alert_rules` counter of `table_changes` moves (every change moves it, in
 * its own transaction). `alert_cursors`: how far the territory events were read for alerts.
 */
import { sql, type Kysely } from "kysely";
import { columnTypes, serialKey, type StoreKind, type StoreMigration } from "./column-types.js";

export const alertRules: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    const serial = serialKey(kind);
    const s = db.schema;

    await s
      .createTable("alert_destinations")
      .addColumn("id", t.serial, serial)
      .addColumn("account", t.text, (c) => c.notNull())
      .addColumn("name", t.text, (c) => c.notNull())
      .addColumn("kind", t.text, (c) => c.notNull())
      .addColumn("label", t.text, (c) => c.notNull())
      .addColumn("sealed", t.text, (c) => c.notNull())
      .addColumn("status", t.text, (c) => c.notNull())
      .addColumn("created_at", t.int, (c) => c.notNull())
      .addColumn("updated_at", t.int, (c) => c.notNull())
      .addColumn("disabled_at", t.int)
      .addColumn("disabled_reason", t.text)
      .execute();
    await s.createIndex("alert_destinations_account").on("alert_destinations").columns(["account", "id"]).execute();

    await s
      .createTable("alert_rules")
      .addColumn("id", t.serial, serial)
      .addColumn("account", t.text, (c) => c.notNull())
      .addColumn("name", t.text, (c) => c.notNull())
      .addColumn("kind", t.text, (c) => c.notNull())
      .addColumn("filters", t.text, (c) => c.notNull())
      .addColumn("destination_ids", t.text, (c) => c.notNull())
      .addColumn("status", t.text, (c) => c.notNull())
      .addColumn("created_at", t.int, (c) => c.notNull())
      .addColumn("updated_at", t.int, (c) => c.notNull())
      .execute();
    await s.createIndex("alert_rules_account").on("alert_rules").columns(["account", "id"]).execute();

    await s
      .createTable("alert_deliveries")
      .addColumn("id", t.serial, serial)
      .addColumn("account", t.text, (c) => c.notNull())
      .addColumn("rule_id", t.int, (c) => c.notNull())
      .addColumn("destination_id", t.int, (c) => c.notNull())
      .addColumn("event_key", t.text, (c) => c.notNull())
      .addColumn("message_id", t.text, (c) => c.notNull())
      .addColumn("payload", t.text, (c) => c.notNull())
      .addColumn("status", t.text, (c) => c.notNull())
      .addColumn("attempts", t.int, (c) => c.notNull())
      .addColumn("next_attempt_at", t.int, (c) => c.notNull())
      .addColumn("last_status", t.int)
      .addColumn("last_error", t.text)
      .addColumn("created_at_ms", t.int, (c) => c.notNull())
      .addColumn("finished_at_ms", t.int)
      .addUniqueConstraint("alert_deliveries_once", ["rule_id", "destination_id", "event_key"])
      .execute();
    await s.createIndex("alert_deliveries_due").on("alert_deliveries").columns(["status", "next_attempt_at"]).execute();
    await s.createIndex("alert_deliveries_account").on("alert_deliveries").columns(["account", "id"]).execute();
    await s.createIndex("alert_deliveries_finished").on("alert_deliveries").column("finished_at_ms").execute();

    // Where a producer of alerts that reads a table of events (the territory monitor's) has come to, moved in the
    // transaction that stores the deliveries of what it read.
    await s
      .createTable("alert_cursors")
      .addColumn("name", t.text, (c) => c.primaryKey())
      .addColumn("position", t.int, (c) => c.notNull())
      .execute();

    await sql`insert into table_changes (name, n) values ('alert_rules', 0) on conflict (name) do nothing`.execute(db);
  },
};
