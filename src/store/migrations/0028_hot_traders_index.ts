/**
 * Issue 24: the biggest 24 h winners and losers (`hotTraders`, src/analytics/windows/site.ts) read from an index. Without it
 * SQLite read and sorted every wallet_stats row twice, once a minute (13 ms each on the 10,000,000-fill world, in one
 * block of the event loop); the index on the 24 h P&L reads the first rows of either end.
 */
import type { Kysely } from "kysely";
import type { StoreMigration } from "./column-types.js";

export const HOT_TRADERS_INDEX = { name: "wallet_stats_pnl_24h", columns: ["pnl_24h", "wallet"] };

export const hotTradersIndex: StoreMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex(HOT_TRADERS_INDEX.name)
      .ifNotExists()
      .on("wallet_stats")
      .columns(HOT_TRADERS_INDEX.columns)
      .execute();
  },
};
