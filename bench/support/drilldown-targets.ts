/**
 * The Premium drill-down targets of the API bench (issue 25), read from the prepared world: a market's whale trades
 * (the newest page, and a page before an instant drawn inside the market's life) over the markets with the most
 * trades, and a wallet's summary in one market at an instant (`at`) and its trades there, over the busiest wallets,
 * each in the market it traded most: the worst cases. A market's whale trades are kept WHALE_TRADES_CACHE_SECONDS
 * (10) per read: `WHALE_TRADES_CACHE_SECONDS=0 BENCH_ONLY=whale-trades npm run bench api` measures the reads themselves.
 */
import { sql } from "kysely";
import { openStore } from "../../src/store/database.js";

const SAMPLE = 500;

/** A deterministic draw in [0, 1), so that runs ask the same questions. */
function drawer(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0;
    return s / 2 ** 32;
  };
}

export interface DrilldownPaths {
  /** A market's whale trades: the newest page, and a page before an instant inside the market's life. */
  readonly whaleTradesNewest: string[];
  readonly whaleTradesBefore: string[];
  readonly marketSummaryAt: string[];
  readonly marketTrades: string[];
}

export async function drilldownPaths(sqlitePath: string): Promise<DrilldownPaths> {
  const store = await openStore({ kind: "sqlite", sqlitePath });
  try {
    return await readPaths(store);
  } finally {
    await store.close();
  }
}

async function readPaths(store: Awaited<ReturnType<typeof openStore>>): Promise<DrilldownPaths> {
  const draw = drawer(25);
  const between = (first: number, last: number) => Math.round(first + draw() * (last - first));
  const markets = await sql<{ condition_id: string; first: number; last: number }>`
    select s.condition_id, (select min(ts) from fills where condition_id = s.condition_id) as first,
      (select max(ts) from fills where condition_id = s.condition_id) as last
    from (select condition_id from market_stats order by trades desc limit ${SAMPLE}) s`.execute(store.db);
  const busiest = await store.db
    .selectFrom("wallet_stats")
    .select("wallet")
    .orderBy("total_trades", "desc")
    .limit(SAMPLE)
    .execute();
  const pairs: { wallet: string; conditionId: string; at: number; last: number }[] = [];
  for (const { wallet } of busiest) {
    const market = await sql<{ condition_id: string; first: number; last: number }>`
      select condition_id, min(ts) as first, max(ts) as last from fills where wallet = ${wallet}
      group by condition_id order by count(*) desc limit 1`.execute(store.db);
    const m = market.rows[0];
    if (m)
      pairs.push({
        wallet,
        conditionId: m.condition_id,
        at: between(Number(m.first), Number(m.last)),
        last: Number(m.last),
      });
  }
  const whaleTrades = (before: (m: { first: number; last: number }) => number) =>
    markets.rows.map(
      (m) =>
        `/api/v2/market/${m.condition_id}/whale-trades?before=${before({ first: Number(m.first), last: Number(m.last) })}`,
    );
  return {
    whaleTradesNewest: whaleTrades(() => 0),
    whaleTradesBefore: whaleTrades((m) => between(m.first, m.last)),
    marketSummaryAt: pairs.map((p) => `/api/v2/wallet/${p.wallet}/market-summary/${p.conditionId}?at=${p.at}`),
    marketTrades: pairs.map(
      (p) => `/api/v2/wallet/${p.wallet}/market-trades?market=${p.conditionId}&after=0&before=${p.last + 1}`,
    ),
  };
}
