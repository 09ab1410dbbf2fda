/**
 * Issue 24: a market's trades counted by settlement in `market_stats` (`mint_trades`, `merge_trades`,
 * `complementary_trades`, `unclassified_trades`, beside the USD it already held per settlement), so that
 * `/api/v2/market/{id}/breakdown` reads one row instead of grouping every fill of the market. The Deriver and
 * `rebuild` count them (src/ledger/market-totals.ts); this migration counts the fills already stored, by the same rule
 * (market-side fills, `marketSideFills`), so that a store derived before it answers at once.
 */
import { sql, type Kysely } from "kysely";
import { marketSideFills } from "../schema.js";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

const SETTLEMENTS = [
  ["mint_trades", "'MINT'"],
  ["merge_trades", "'MERGE'"],
  ["complementary_trades", "'COMPLEMENTARY'"],
] as const;

export const marketSettlementCounts: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    for (const column of [...SETTLEMENTS.map(([c]) => c), "unclassified_trades"])
      await db.schema
        .alterTable("market_stats")
        .addColumn(column, t.int, (c) => c.notNull().defaultTo(0))
        .execute();
    await countSettlementsFromFills(db);
  },
};

/** Sets every market_stats row's trade counts by settlement from the stored fills (the migration; tests compare it with the Deriver's). */
// biome-ignore lint/suspicious/noExplicitAny: a migration's Kysely<unknown> and a store's Kysely<Database> alike
export async function countSettlementsFromFills(db: Kysely<any>): Promise<void> {
  const counted = SETTLEMENTS.map(
    ([column, type]) => `sum(case when entry_type = ${type} then 1 else 0 end) as ${column}`,
  );
  // One pass over the fills, grouped per market, then one update (the same statement on both stores).
  await sql
    .raw(`create temporary table settlement_counts as
      select condition_id, count(*) as trades, ${counted.join(", ")}
      from fills where ${marketSideFills()} group by condition_id`)
    .execute(db);
  await sql
    .raw(`update market_stats set ${SETTLEMENTS.map(([c]) => `${c} = s.${c}`).join(", ")},
      unclassified_trades = s.trades - ${SETTLEMENTS.map(([c]) => `s.${c}`).join(" - ")}
      from settlement_counts s where s.condition_id = market_stats.condition_id`)
    .execute(db);
  await sql`drop table settlement_counts`.execute(db);
}
