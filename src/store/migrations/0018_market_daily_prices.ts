/**
 * Issue 24: `market_daily_prices`, a market's market-side fills summed per UTC day with the day's closing YES price
 * (a market's daily price history reads its rows in one indexed read instead of every fill of the market). The
 * Deriver and `rebuild` write it (src/derive/market-daily-prices.ts); this migration fills it from the fills already
 * stored, so that a store derived before it answers at once (an API process without an ingest, a bench world).
 */
import type { Kysely } from "kysely";
import { fillMarketDailyPricesFromFills } from "../market-daily-prices.js";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const marketDailyPrices: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    await db.schema
      .createTable("market_daily_prices")
      .addColumn("condition_id", t.text, (c) => c.notNull())
      .addColumn("day", t.int, (c) => c.notNull())
      .addColumn("weighted", t.real, (c) => c.notNull())
      .addColumn("shares", t.int, (c) => c.notNull())
      .addColumn("trades", t.int, (c) => c.notNull())
      .addColumn("usd", t.int, (c) => c.notNull())
      .addColumn("close_ts", t.int, (c) => c.notNull())
      .addColumn("close_id", t.int, (c) => c.notNull())
      .addColumn("close_yes", t.real, (c) => c.notNull())
      .addPrimaryKeyConstraint("market_daily_prices_pk", ["condition_id", "day"])
      .execute();
    await fillMarketDailyPricesFromFills(db, undefined, "table");
  },
};
