/**
 * Migration 0054 (src/store/migrations/0054_sums_index_without_id.ts): SQLite's `fills_wallet_condition_sums` holds
 * no `id` column. A wallet's fills in one market, several in one second and stored in an order the index's other
 * columns do not follow, read the same summary and the same trades pages (newest first, then by id) before and after
 * the migration, and on SQLite both reads stay on the index (the trades page through every cursor). On SQLite, and
 * on PostgreSQL with TEST_DATABASE_URL, where the index keeps its column.
 */
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import {
  type MarketTradesQuery,
  walletMarketSummary,
  walletMarketTrades,
  walletMarketTradesSql,
} from "../analytics/wallet/wallet-market.js";
import type { Store } from "./database.js";
import { chainFillKey } from "./fill-layout.js";
import { insertFills } from "./fills.js";
import { migrateStore } from "./migrate.js";
import { newFill } from "./testing/new-fill.js";
import { insertFillsBefore0059 } from "../../test/support/earlier-layout.js";

const WALLET = `0x${"a".repeat(40)}`;
const OTHER = `0x${"b".repeat(40)}`;
const MARKET = `0x${"c".repeat(64)}`;
const T0 = 1_775_000_000;
const PAGE = 3;

/**
 * Twenty fills of the wallet in four seconds, five a second; within a second each later fill is smaller, a sell
 * after buys (matched against other orders: a sell is a sell), so the index's columns after the time order them against their ids. Another wallet's fills between.
 */
function fills() {
  return Array.from({ length: 40 }, (_, i) => {
    const own = i % 2 === 0;
    const n = i >> 1;
    return newFill({
      fill_key: chainFillKey(80_000_000 + i, 0),
      block_number: 80_000_000 + i,
      tx_hash: `0x${(i + 1).toString(16).padStart(64, "0")}`,
      wallet: own ? WALLET : OTHER,
      condition_id: MARKET,
      token_id: "11",
      ts: T0 + Math.floor(n / 5),
      side: n % 5 === 4 ? "SELL" : "BUY",
      size: 9_000_000 - n * 100_000,
      usd: 4_000_000 - n * 50_000,
      entry_type: "COMPLEMENTARY",
    });
  });
}

/** Every page of the wallet's trades in the market, following the cursors. */
async function allPages(store: Store): Promise<{ ids: number[][]; queries: MarketTradesQuery[] }> {
  const ids: number[][] = [];
  const queries: MarketTradesQuery[] = [];
  let q: MarketTradesQuery = { conditionId: MARKET, before: 0, beforeId: 0, after: 0, limit: PAGE };
  for (;;) {
    queries.push(q);
    const page = await walletMarketTrades(store, WALLET, q);
    ids.push(page.trades.map((t) => t.id));
    if (page.next_before === null) return { ids, queries };
    q = { ...q, before: page.next_before, beforeId: page.next_before_id! };
  }
}

describe.each(storeBackends)("the wallet-market sums index without its id column, on $kind", (backend) => {
  it("reads the same summaries and trade pages before and after migration 0054, from the index", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0054_sums_index_without_id") });
    try {
      const written = fills();
      await insertFillsBefore0059(store, written);
      const summaries = async () =>
        Promise.all([0, T0 + 1, T0 + 2].map((at) => walletMarketSummary(store, WALLET, MARKET, at)));
      const before = { summaries: await summaries(), pages: await allPages(store) };

      await migrateStore(store);
      const after = { summaries: await summaries(), pages: await allPages(store) };
      expect(after).toEqual(before);

      // Newest second first, then by id downwards: the wallet's ids are the even-numbered writes, in write order.
      const ownIds = (await store.db.selectFrom("fills").select(["id", "wallet"]).orderBy("id").execute())
        .filter((r) => r.wallet === WALLET)
        .map((r) => Number(r.id));
      const seconds = [3, 2, 1, 0].flatMap((s) => ownIds.slice(s * 5, s * 5 + 5).reverse());
      expect(after.pages.ids.flat()).toEqual(seconds);
      expect(after.pages.ids.slice(0, -1).every((page) => page.length === PAGE)).toBe(true);
      // Every fill summed: sixteen buys and four sells of the written sizes.
      const own = written.filter((f) => f.wallet === WALLET);
      const tokens = (side: string) => own.filter((f) => f.side === side).reduce((sum, f) => sum + f.size, 0) / 1e6;
      expect(after.summaries[0]!.sides.YES).toMatchObject({ buy_tokens: tokens("BUY"), sell_tokens: tokens("SELL") });

      if (store.kind !== "sqlite") return;
      const columns = store.sqlite!.prepare("select name from pragma_index_info('fills_wallet_condition_sums')").all();
      expect(columns.map((c) => (c as { name: string }).name)).not.toContain("id");
      for (const q of after.pages.queries) {
        const { text, params } = walletMarketTradesSql(store.kind, WALLET, q);
        const plan = store
          .sqlite!.prepare(`explain query plan ${text}`)
          .all(...params)
          .map((r) => (r as { detail: string }).detail)
          .join("\n");
        expect(plan).toContain("USING INDEX fills_wallet_condition_sums");
        expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      }
    } finally {
      await dispose();
    }
  });
});
