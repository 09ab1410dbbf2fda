/**
 * Issue 23, venue figures: what the ledger needs to serve the venue's own counters (`win_source` ledger: where the
 * chain history starts, and where the venue's history of a wallet starts), which P&L `total_pnl` is, the requests
 * of wallet syncs that API processes leave for the ingest process, and the chain records of markets Gamma does not
 * list yet, kept until it does.
 */
import type { Kysely } from "kysely";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const venueFigures: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    const s = db.schema;
    // The time from which the source holds the venue's history (chain-logs: its first block's time).
    await s.alterTable("ingest_checkpoints").addColumn("history_from", t.int).execute();
    // The time from which the venue lists the wallet's activity (its first activity, or the sync's time when it has none).
    await s.alterTable("wallet_sync").addColumn("venue_history_from", t.int).execute();
    await s
      .alterTable("wallet_stats")
      .addColumn("total_pnl_source", t.text, (c) => c.notNull().defaultTo("ledger"))
      .execute();

    await s
      .createTable("wallet_sync_requests")
      .addColumn("wallet", t.text, (c) => c.primaryKey())
      .addColumn("requested_at", t.int, (c) => c.notNull())
      .execute();
    await s.createIndex("wallet_sync_requests_requested").on("wallet_sync_requests").column("requested_at").execute();

    await s
      .createTable("unlisted_market_records")
      .addColumn("record_key", t.text, (c) => c.primaryKey())
      .addColumn("kind", t.text, (c) => c.notNull())
      .addColumn("market_key", t.text, (c) => c.notNull())
      .addColumn("ts", t.int, (c) => c.notNull())
      .addColumn("row", t.text, (c) => c.notNull())
      .addColumn("created_at", t.int, (c) => c.notNull())
      .execute();
    await s.createIndex("unlisted_market_records_market").on("unlisted_market_records").column("market_key").execute();
  },
};
