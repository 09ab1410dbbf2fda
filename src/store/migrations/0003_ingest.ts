/**
 * Issue 5, ingest: the venue's per-wallet cache (positions, closed positions, P&L curve, sync state), chain
 * resolutions, and the fields a NegRisk conversion or a redemption needs on `wallet_activity`.
 */
import type { Kysely } from "kysely";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const ingest: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    const s = db.schema;

    // CONVERSION: the NegRisk market id, the index set (decimal) and the adapter's fee in micro-shares per NO given up.
    // REDEEM: the index sets redeemed, OR-ed into one decimal bitmask.
    await s.alterTable("wallet_activity").addColumn("neg_risk_market_id", t.text).execute();
    await s.alterTable("wallet_activity").addColumn("index_set", t.text).execute();
    await s.alterTable("wallet_activity").addColumn("fee", t.int).execute();

    await s
      .createTable("market_resolutions")
      .addColumn("condition_id", t.text, (c) => c.primaryKey())
      .addColumn("resolution", t.text, (c) => c.notNull())
      .addColumn("payout_numerators", t.text, (c) => c.notNull())
      .addColumn("resolved_at", t.int, (c) => c.notNull())
      .addColumn("block_number", t.int, (c) => c.notNull())
      .addColumn("tx_hash", t.text, (c) => c.notNull())
      .addColumn("log_index", t.int, (c) => c.notNull())
      .execute();

    await s
      .createTable("venue_positions")
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("token_id", t.text, (c) => c.notNull())
      .addColumn("condition_id", t.text, (c) => c.notNull())
      .addColumn("outcome_index", t.int, (c) => c.notNull())
      .addColumn("size", t.int, (c) => c.notNull())
      .addColumn("avg_price", t.real, (c) => c.notNull())
      .addColumn("cur_price", t.real, (c) => c.notNull())
      .addColumn("initial_value", t.int, (c) => c.notNull())
      .addColumn("current_value", t.int, (c) => c.notNull())
      .addColumn("cash_pnl", t.int, (c) => c.notNull())
      .addColumn("realized_pnl", t.int, (c) => c.notNull())
      .addColumn("total_bought", t.int, (c) => c.notNull())
      .addColumn("redeemable", t.int, (c) => c.notNull())
      .addColumn("mergeable", t.int, (c) => c.notNull())
      .addColumn("title", t.text)
      .addColumn("slug", t.text)
      .addColumn("event_slug", t.text)
      .addColumn("synced_at", t.int, (c) => c.notNull())
      .addPrimaryKeyConstraint("venue_positions_pk", ["wallet", "token_id"])
      .execute();

    await s
      .createTable("venue_closed_positions")
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("token_id", t.text, (c) => c.notNull())
      .addColumn("condition_id", t.text, (c) => c.notNull())
      .addColumn("outcome_index", t.int, (c) => c.notNull())
      .addColumn("avg_price", t.real, (c) => c.notNull())
      .addColumn("cur_price", t.real, (c) => c.notNull())
      .addColumn("total_bought", t.int, (c) => c.notNull())
      .addColumn("realized_pnl", t.int, (c) => c.notNull())
      .addColumn("ts", t.int, (c) => c.notNull())
      .addColumn("title", t.text)
      .addColumn("slug", t.text)
      .addColumn("event_slug", t.text)
      .addColumn("synced_at", t.int, (c) => c.notNull())
      .addPrimaryKeyConstraint("venue_closed_positions_pk", ["wallet", "token_id"])
      .execute();

    await s
      .createTable("venue_pnl_points")
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("t", t.int, (c) => c.notNull())
      .addColumn("pnl", t.int, (c) => c.notNull())
      .addPrimaryKeyConstraint("venue_pnl_points_pk", ["wallet", "t"])
      .execute();

    await s
      .createTable("wallet_sync")
      .addColumn("wallet", t.text, (c) => c.primaryKey())
      .addColumn("synced_at", t.int)
      .addColumn("status", t.text, (c) => c.notNull())
      .addColumn("positions_count", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("positions_truncated", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("closed_positions_count", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("closed_positions_truncated", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("activity_count", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("activity_truncated", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("activity_cursor", t.int)
      .addColumn("lifetime_pnl", t.int)
      .addColumn("last_error", t.text)
      .addColumn("updated_at", t.int, (c) => c.notNull())
      .execute();
  },
};
