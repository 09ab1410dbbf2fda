/**
 * Issue 24: how many traders are ranked, counted from an index. `rankedTraders` (src/analytics/wallet/wallet-overview.ts)
 * counts the wallet_stats rows with a rank; without this index SQLite read every row of the table for it (10,602 of
 * 49,793 in the 10,000,000-fill world: 10-13 ms, blocking every request behind it whenever the count was read
 * again). The partial index holds only the ranked rows, so the count reads those entries alone.
 */
import type { Kysely } from "kysely";
import type { StoreMigration } from "./column-types.js";

export const rankedTradersIndex: StoreMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex("wallet_stats_ranked")
      .ifNotExists()
      .on("wallet_stats")
      .column("rank_pnl")
      .where("rank_pnl", "is not", null)
      .execute();
  },
};
