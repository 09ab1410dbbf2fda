/** The core tables of issue 2: markets and events, wallets, fills, activity, ledger outputs, checkpoints. */
import type { Kysely } from "kysely";
import { columnTypes, serialKey, type StoreKind, type StoreMigration } from "./column-types.js";

export const core: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    const s = db.schema;

    await s
      .createTable("events")
      .addColumn("id", t.text, (c) => c.primaryKey())
      .addColumn("slug", t.text, (c) => c.notNull())
      .addColumn("title", t.text, (c) => c.notNull())
      .addColumn("category", t.text)
      .addColumn("neg_risk", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("neg_risk_market_id", t.text)
      .addColumn("end_date", t.int)
      .addColumn("closed", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("tags", t.text, (c) => c.notNull().defaultTo("[]"))
      .addColumn("updated_at", t.int, (c) => c.notNull())
      .execute();
    await s.createIndex("events_slug").on("events").column("slug").execute();

    await s
      .createTable("markets")
      .addColumn("id", t.text, (c) => c.primaryKey())
      .addColumn("condition_id", t.text, (c) => c.notNull().unique())
      .addColumn("question", t.text, (c) => c.notNull())
      .addColumn("slug", t.text, (c) => c.notNull())
      .addColumn("event_id", t.text)
      .addColumn("category", t.text)
      .addColumn("yes_token_id", t.text, (c) => c.notNull())
      .addColumn("no_token_id", t.text, (c) => c.notNull())
      .addColumn("price_yes", t.real)
      .addColumn("price_no", t.real)
      .addColumn("volume", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("volume_24h", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("liquidity", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("start_date", t.int)
      .addColumn("end_date", t.int)
      .addColumn("created_at", t.int)
      .addColumn("closed", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("closed_time", t.int)
      .addColumn("resolution", t.text)
      .addColumn("neg_risk", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("neg_risk_market_id", t.text)
      .addColumn("neg_risk_question_id", t.text)
      .addColumn("group_item_title", t.text)
      .addColumn("fee_rate", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("image", t.text)
      .addColumn("exchange_version", t.int)
      .addColumn("updated_at", t.int, (c) => c.notNull())
      .execute();
    await s.createIndex("markets_slug").on("markets").column("slug").execute();
    await s.createIndex("markets_event").on("markets").column("event_id").execute();
    await s.createIndex("markets_neg_risk").on("markets").column("neg_risk_market_id").execute();
    await s.createIndex("markets_end_date").on("markets").columns(["closed", "end_date"]).execute();

    await s
      .createTable("market_tokens")
      .addColumn("token_id", t.text, (c) => c.primaryKey())
      .addColumn("condition_id", t.text, (c) => c.notNull())
      .addColumn("outcome_index", t.int, (c) => c.notNull())
      .addColumn("outcome", t.text, (c) => c.notNull())
      .execute();
    await s.createIndex("market_tokens_condition").on("market_tokens").column("condition_id").execute();

    await s
      .createTable("wallets")
      .addColumn("address", t.text, (c) => c.primaryKey())
      .addColumn("proxy_wallet", t.text)
      .addColumn("signer", t.text)
      .addColumn("name", t.text)
      .addColumn("pseudonym", t.text)
      .addColumn("bio", t.text)
      .addColumn("profile_image", t.text)
      .addColumn("first_seen", t.int)
      .addColumn("last_seen", t.int)
      .addColumn("updated_at", t.int, (c) => c.notNull())
      .execute();
    await s.createIndex("wallets_signer").on("wallets").column("signer").execute();

    await s
      .createTable("fills")
      .addColumn("id", t.serial, serialKey(kind))
      .addColumn("fill_key", t.text, (c) => c.notNull().unique())
      .addColumn("source", t.text, (c) => c.notNull())
      .addColumn("tx_hash", t.text, (c) => c.notNull())
      .addColumn("log_index", t.int)
      .addColumn("block_number", t.int)
      .addColumn("order_hash", t.text)
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("counterparty", t.text)
      .addColumn("role", t.text)
      .addColumn("condition_id", t.text, (c) => c.notNull())
      .addColumn("token_id", t.text, (c) => c.notNull())
      .addColumn("outcome_index", t.int, (c) => c.notNull())
      .addColumn("side", t.text, (c) => c.notNull())
      .addColumn("size", t.int, (c) => c.notNull())
      .addColumn("usd", t.int, (c) => c.notNull())
      .addColumn("price", t.real, (c) => c.notNull())
      .addColumn("fee", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("ts", t.int, (c) => c.notNull())
      .addColumn("entry_type", t.text)
      .addColumn("exchange_version", t.int)
      .execute();
    await s.createIndex("fills_wallet_ts").on("fills").columns(["wallet", "ts"]).execute();
    await s.createIndex("fills_condition_ts").on("fills").columns(["condition_id", "ts"]).execute();
    await s.createIndex("fills_ts").on("fills").column("ts").execute();

    await s
      .createTable("wallet_activity")
      .addColumn("id", t.serial, serialKey(kind))
      .addColumn("activity_key", t.text, (c) => c.notNull().unique())
      .addColumn("source", t.text, (c) => c.notNull())
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("type", t.text, (c) => c.notNull())
      .addColumn("condition_id", t.text)
      .addColumn("token_id", t.text)
      .addColumn("outcome_index", t.int)
      .addColumn("size", t.int, (c) => c.notNull())
      .addColumn("usd", t.int, (c) => c.notNull())
      .addColumn("price", t.real, (c) => c.notNull())
      .addColumn("ts", t.int, (c) => c.notNull())
      .addColumn("tx_hash", t.text, (c) => c.notNull())
      .addColumn("log_index", t.int)
      .execute();
    await s.createIndex("wallet_activity_wallet_ts").on("wallet_activity").columns(["wallet", "ts"]).execute();

    await s
      .createTable("positions")
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("token_id", t.text, (c) => c.notNull())
      .addColumn("condition_id", t.text, (c) => c.notNull())
      .addColumn("outcome_index", t.int, (c) => c.notNull())
      .addColumn("shares", t.int, (c) => c.notNull())
      .addColumn("avg_price", t.real, (c) => c.notNull())
      .addColumn("total_bought", t.int, (c) => c.notNull())
      .addColumn("realized_pnl", t.int, (c) => c.notNull())
      .addColumn("fees", t.int, (c) => c.notNull())
      .addColumn("first_ts", t.int, (c) => c.notNull())
      .addColumn("last_ts", t.int, (c) => c.notNull())
      .addColumn("closed_ts", t.int)
      .addColumn("status", t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint("positions_pk", ["wallet", "token_id"])
      .execute();
    await s.createIndex("positions_condition").on("positions").columns(["condition_id", "status"]).execute();
    await s.createIndex("positions_wallet_status").on("positions").columns(["wallet", "status"]).execute();

    await s
      .createTable("wallet_stats")
      .addColumn("wallet", t.text, (c) => c.primaryKey())
      .addColumn("computed_at", t.int, (c) => c.notNull())
      .addColumn("total_trades", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("total_markets", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("total_volume", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("last_trade", t.int)
      .addColumn("active_count", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("resolved", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("wins", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("losses", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("win_rate", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("win_source", t.text, (c) => c.notNull().defaultTo("market"))
      .addColumn("market_wins", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("market_losses", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("market_win_rate", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("total_pnl", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("realized_pnl", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("unrealized_pnl", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("gross_profit", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("gross_loss", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("profit_factor", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("pnl_24h", t.real)
      .addColumn("is_smart", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("is_farmer", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("farmer_reason", t.text)
      .addColumn("has_skill", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("skill_z", t.real)
      .addColumn("edge_bps", t.real)
      .addColumn("skill_sample", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("profitable_streak", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("median_hold_days", t.real)
      .addColumn("hold_positions_count", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("categories", t.text, (c) => c.notNull().defaultTo("{}"))
      .addColumn("rank_pnl", t.int)
      .addColumn("rank_winrate", t.int)
      .addColumn("rank_volume", t.int)
      .addColumn("rank_profit_factor", t.int)
      .execute();
    await s.createIndex("wallet_stats_smart_pnl").on("wallet_stats").columns(["is_smart", "total_pnl"]).execute();

    await s
      .createTable("market_stats")
      .addColumn("condition_id", t.text, (c) => c.primaryKey())
      .addColumn("computed_at", t.int, (c) => c.notNull())
      .addColumn("trades", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("volume", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("volume_24h", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("whales_yes", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("whales_no", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("mint_usd", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("merge_usd", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("complementary_usd", t.real, (c) => c.notNull().defaultTo(0))
      .addColumn("unclassified_usd", t.real, (c) => c.notNull().defaultTo(0))
      .execute();

    await s
      .createTable("position_snapshots")
      .addColumn("day", t.int, (c) => c.notNull())
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("condition_id", t.text, (c) => c.notNull())
      .addColumn("yes_shares", t.int, (c) => c.notNull())
      .addColumn("yes_cost", t.real, (c) => c.notNull())
      .addColumn("no_shares", t.int, (c) => c.notNull())
      .addColumn("no_cost", t.real, (c) => c.notNull())
      .addPrimaryKeyConstraint("position_snapshots_pk", ["day", "wallet", "condition_id"])
      .execute();

    await s
      .createTable("pnl_points")
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("resolution", t.text, (c) => c.notNull())
      .addColumn("t", t.int, (c) => c.notNull())
      .addColumn("pnl", t.real, (c) => c.notNull())
      .addPrimaryKeyConstraint("pnl_points_pk", ["wallet", "resolution", "t"])
      .execute();

    await s
      .createTable("ingest_checkpoints")
      .addColumn("source", t.text, (c) => c.primaryKey())
      .addColumn("cursor", t.text, (c) => c.notNull())
      .addColumn("first_sync_done", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("errors", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("last_error", t.text)
      .addColumn("updated_at", t.int, (c) => c.notNull())
      .execute();
  },
};
