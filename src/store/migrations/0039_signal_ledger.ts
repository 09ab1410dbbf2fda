/**
 * Issue 52, the public scorecard: every signal Pelagic emits, recorded when emitted, in a hash chain
 * (src/store/signal-ledger.ts): each record carries the previous record's hash and its own, over its every field.
 */
import type { Kysely } from "kysely";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const signalLedger: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    await db.schema
      .createTable("signal_ledger")
      .addColumn("seq", t.int, (c) => c.primaryKey())
      .addColumn("kind", t.text, (c) => c.notNull())
      .addColumn("emitted_at", t.int, (c) => c.notNull())
      .addColumn("condition_id", t.text, (c) => c.notNull())
      .addColumn("outcome_index", t.int, (c) => c.notNull())
      .addColumn("wallet", t.text)
      .addColumn("ref", t.text, (c) => c.notNull().unique())
      .addColumn("detail", t.text, (c) => c.notNull())
      .addColumn("prev_hash", t.text, (c) => c.notNull())
      .addColumn("hash", t.text, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("signal_ledger_market")
      .on("signal_ledger")
      .columns(["condition_id", "kind", "seq"])
      .execute();
  },
};
