/**
 * Issue 51, alerts at ingest speed: the matcher stores one compact row per batch that alerted (`alert_matches`: the
 * matched fills' facts and the ids of the rules each matched) in the ingest's transaction, and the delivery workers
 * fan each row out into its deliveries (one per rule, destination and fill, under `alert_deliveries_once`) and
 * delete it, in one transaction. `alert_marks`: what the matcher must remember across a restart (a price move's
 * quiet window per rule and market, a market Smart Money opened before the Deriver wrote its positions).
 */
import type { Kysely } from "kysely";
import { columnTypes, serialKey, type StoreKind, type StoreMigration } from "./column-types.js";

export const alertMatches: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    await db.schema
      .createTable("alert_matches")
      .addColumn("id", t.serial, serialKey(kind))
      .addColumn("created_at_ms", t.int, (c) => c.notNull())
      .addColumn("fills", t.text, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("alert_marks")
      .addColumn("kind", t.text, (c) => c.notNull())
      .addColumn("rule_id", t.int, (c) => c.notNull())
      .addColumn("subject", t.text, (c) => c.notNull())
      .addColumn("at", t.int, (c) => c.notNull())
      .addPrimaryKeyConstraint("alert_marks_pk", ["kind", "rule_id", "subject"])
      .execute();
  },
};
