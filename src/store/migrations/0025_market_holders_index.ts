/**
 * Issue 24: a market's open positions read from an index alone. The market pages' consensus and holder rankings
 * (`marketHolders`, src/analytics/markets/market-consensus.ts) read every open position of the market through
 * `positions_condition` (condition_id, status), then each one's table row for its wallet, side, shares and average
 * price: for the busiest market of the 10,000,000-fill world, 3,259 rows scattered over the table, 44-84 ms of read
 * per page computed. This index has the same key followed by those columns and replaces it (every read by condition
 * and status keeps its key): 17-32 ms. (Covering indexes for the holders' statistics and names were tried too:
 * SQLite's planner keeps the primary keys for those joins.)
 */
import type { Kysely } from "kysely";
import type { StoreMigration } from "./column-types.js";

export const MARKET_HOLDERS_INDEX = {
  name: "positions_condition_holders",
  columns: ["condition_id", "status", "wallet", "outcome_index", "shares", "avg_price"],
};

export const marketHoldersIndex: StoreMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex(MARKET_HOLDERS_INDEX.name)
      .ifNotExists()
      .on("positions")
      .columns(MARKET_HOLDERS_INDEX.columns)
      .execute();
    await db.schema.dropIndex("positions_condition").ifExists().execute();
  },
};
