/** Site-wide figures: /api/v2/site-stats (counts and the thresholds in force) and /api/v2/hot-traders. */
import type { Config } from "../../config/index.js";
import type { Store } from "../../store/database.js";

export const HOT_WINNERS = 8;
export const HOT_LOSERS = 7;

export interface SiteStats {
  smart_whales: number;
  markets: number;
  active_markets: number;
  wallets: number;
  trades: number;
}

export async function siteStats(store: Store): Promise<SiteStats> {
  const db = store.db;
  const [smart, markets, wallets, trades] = await Promise.all([
    db
      .selectFrom("wallet_stats")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("is_smart", "=", 1)
      .where("is_farmer", "=", 0)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("markets")
      .select((eb) => [
        eb.fn.countAll<number>().as("n"),
        eb.fn.sum<number>(eb.case().when("closed", "=", 0).then(eb.lit(1)).else(eb.lit(0)).end()).as("open"),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("wallet_stats")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("market_stats")
      .select((eb) => eb.fn.sum<number>("trades").as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    smart_whales: Number(smart.n),
    markets: Number(markets.n),
    active_markets: Number(markets.open ?? 0),
    wallets: Number(wallets.n),
    trades: Number(trades.n ?? 0),
  };
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const snakeKeys = (section: Record<string, number>) =>
  Object.fromEntries(Object.entries(section).map(([k, v]) => [snake(k), v]));

/** The domain thresholds the labels were earned with (docs/METRICS.md: the service reports the thresholds it used). */
export function thresholdsInForce(config: Config) {
  return {
    smart: { ...snakeKeys(config.smart), min_total_pnl: 0 },
    farmer: snakeKeys(config.farmer),
    whales: snakeKeys(config.whales),
    ledger: snakeKeys(config.ledger),
    home: {
      whale_move_min_usd: config.boards.whaleMoveMinUsd,
      whale_move_hours: config.boards.whaleMoveHours,
      top_whales_days: config.boards.topWhalesDays,
    },
    roles: {
      market_maker_share: config.boards.roleMakerShare,
      favourite_avg_entry: config.boards.roleFavouriteAvgEntry,
      longshot_avg_entry: config.boards.roleLongshotAvgEntry,
    },
  };
}

export interface HotTrader {
  wallet: string;
  name: string | null;
  pnl_24h: number;
  total_pnl: number;
  win_rate: number;
  is_smart: boolean;
}

async function hotSide(store: Store, direction: "winners" | "losers", limit: number): Promise<HotTrader[]> {
  const rows = await store.db
    .selectFrom("wallet_stats as s")
    .leftJoin("wallets as w", "w.address", "s.wallet")
    .select([
      "s.wallet",
      "w.name",
      "w.pseudonym",
      "s.pnl_24h",
      "s.total_pnl",
      "s.win_rate",
      "s.is_smart",
      "s.is_farmer",
    ])
    .where("s.pnl_24h", direction === "winners" ? ">" : "<", 0)
    .orderBy("s.pnl_24h", direction === "winners" ? "desc" : "asc")
    .orderBy("s.wallet")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    wallet: r.wallet,
    name: r.name || r.pseudonym || null,
    pnl_24h: r.pnl_24h ?? 0,
    total_pnl: r.total_pnl,
    win_rate: r.win_rate,
    is_smart: r.is_smart === 1 && r.is_farmer === 0,
  }));
}

/** The biggest 24 h winners (pnl_24h > 0, largest first) and losers (pnl_24h < 0, largest loss first). */
export async function hotTraders(store: Store): Promise<{ winners: HotTrader[]; losers: HotTrader[] }> {
  const [winners, losers] = await Promise.all([
    hotSide(store, "winners", HOT_WINNERS),
    hotSide(store, "losers", HOT_LOSERS),
  ]);
  return { winners, losers };
}
