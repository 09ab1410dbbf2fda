/**
 * The leaderboards' per-wallet table: wallet_stats (the ledger's statistics plus the figures the Deriver keeps for
 * the leaderboards: average entry price, 30-day MINT, MERGE, maker and total volume) joined with the wallets'
 * names, and a behaviour profile. It is read whole by `BoardTable` (board-table.ts) when the Deriver rewrote the
 * statistics; every leaderboard request then filters and pages it in memory, so a request never touches the store.
 */
import type { Config } from "../../config/index.js";
import { makerShare, returnOnVolumePct, roleProfile, type RoleProfile, SECONDS_PER_DAY } from "../../ledger/index.js";
import { seriesPointsAtEach } from "../../store/pnl-series.js";
import { inSlices, keysetPages } from "../../store/raw-sql.js";
import { parseCategory, type Category } from "../../venue/categories.js";
import type { Store } from "../../store/database.js";
import { parseCategoryShares, rankedCategories } from "../wallet/category-shares.js";

export interface BoardWallet {
  wallet: string;
  name: string | null;
  total_pnl: number;
  win_rate: number;
  profit_factor: number;
  resolved_markets: number;
  wins: number;
  losses: number;
  total_volume: number;
  total_trades: number;
  main_category: Category | null;
  avg_entry_price: number | null;
  last_trade_ts: number | null;
  active_count: number;
  market_win_rate: number;
  market_wins: number;
  market_losses: number;
  mint_volume_30d: number;
  merge_volume_30d: number;
  is_smart: boolean;
  is_farmer: boolean;
  has_skill: boolean;
  skill_z: number | null;
  sports_pct: number;
  pnl_24h: number | null;
  role_profile: RoleProfile;
}

interface StatsRow {
  wallet: string;
  name: string | null;
  pseudonym: string | null;
  total_pnl: number;
  win_rate: number;
  profit_factor: number;
  resolved: number;
  wins: number;
  losses: number;
  total_volume: number;
  total_trades: number;
  categories: string;
  last_trade: number | null;
  active_count: number;
  market_win_rate: number;
  market_wins: number;
  market_losses: number;
  is_smart: number;
  is_farmer: number;
  has_skill: number;
  skill_z: number | null;
  pnl_24h: number | null;
  avg_entry_price: number | null;
  mint_volume_30d: number;
  merge_volume_30d: number;
  maker_volume_30d: number;
  volume_30d: number;
}

/** Rows read per query while loading: between two pages the event loop serves requests (SQLite reads block it). */
const LOAD_PAGE_ROWS = 1_000;

function boardWallet(s: StatsRow, config: Config): BoardWallet {
  const shares = parseCategoryShares(s.categories);
  return {
    wallet: s.wallet,
    name: s.name || s.pseudonym || null,
    total_pnl: s.total_pnl,
    win_rate: s.win_rate,
    profit_factor: Math.min(s.profit_factor, config.ledger.profitFactorCap),
    resolved_markets: s.resolved,
    wins: s.wins,
    losses: s.losses,
    total_volume: s.total_volume,
    total_trades: s.total_trades,
    main_category: rankedCategories(shares)[0]?.category ?? null,
    avg_entry_price: s.avg_entry_price,
    last_trade_ts: s.last_trade,
    active_count: s.active_count,
    market_win_rate: s.market_win_rate,
    market_wins: s.market_wins,
    market_losses: s.market_losses,
    mint_volume_30d: s.mint_volume_30d,
    merge_volume_30d: s.merge_volume_30d,
    is_smart: s.is_smart === 1 && s.is_farmer === 0,
    is_farmer: s.is_farmer === 1,
    has_skill: s.has_skill === 1 && s.is_farmer === 0,
    skill_z: s.skill_z,
    sports_pct: shares.SPORTS,
    pnl_24h: s.pnl_24h,
    role_profile: roleProfile(makerShare(s.maker_volume_30d, s.volume_30d), s.avg_entry_price, config.boards),
  };
}

/** Every wallet with statistics, as the leaderboards see it, read page by page (by address). */
export async function loadBoardWallets(store: Store, config: Config): Promise<BoardWallet[]> {
  const out: BoardWallet[] = [];
  const pages = keysetPages(
    LOAD_PAGE_ROWS,
    async (after) =>
      (await store.db
        .selectFrom("wallet_stats as s")
        .leftJoin("wallets as w", "w.address", "s.wallet")
        .select([
          "s.wallet",
          "w.name",
          "w.pseudonym",
          "s.total_pnl",
          "s.win_rate",
          "s.profit_factor",
          "s.resolved",
          "s.wins",
          "s.losses",
          "s.total_volume",
          "s.total_trades",
          "s.categories",
          "s.last_trade",
          "s.active_count",
          "s.market_win_rate",
          "s.market_wins",
          "s.market_losses",
          "s.is_smart",
          "s.is_farmer",
          "s.has_skill",
          "s.skill_z",
          "s.pnl_24h",
          "s.avg_entry_price",
          "s.mint_volume_30d",
          "s.merge_volume_30d",
          "s.maker_volume_30d",
          "s.volume_30d",
        ])
        .where("s.wallet", ">", after)
        .orderBy("s.wallet")
        .limit(LOAD_PAGE_ROWS)
        .execute()) as StatsRow[],
    (row) => row.wallet,
  );
  for await (const page of pages) for (const row of page) out.push(boardWallet(row, config));
  return out;
}

export const BOARD_SORTS = ["pnl", "win_rate", "volume", "trades"] as const;
export type BoardSort = (typeof BOARD_SORTS)[number];

export const SORT_KEY: Record<BoardSort, (w: BoardWallet) => number> = {
  pnl: (w) => w.total_pnl,
  win_rate: (w) => w.win_rate,
  volume: (w) => w.total_volume,
  trades: (w) => w.total_trades,
};

export interface BoardQuery {
  sort: BoardSort;
  /** One of the six categories (any case), or "" for all. */
  category: string;
  filter: "smart" | "all";
  limit: number;
  offset: number;
  min_markets: number;
  min_wr: number;
  /** 0: no floor (so filter=all lists losing wallets too). */
  min_pnl: number;
  min_profit_factor: number;
  /** 0: no cap. */
  max_avg_entry: number;
  /** 0: no cap. */
  max_sports_pct: number;
  exclude_wallets: string;
  skill: number;
}

export function boardPredicate(q: Omit<BoardQuery, "sort" | "limit" | "offset">): (w: BoardWallet) => boolean {
  const category = parseCategory(q.category);
  const excluded = new Set(
    q.exclude_wallets
      .split(",")
      .map((a) => a.trim().toLowerCase())
      .filter(Boolean),
  );
  return (w) =>
    (q.filter === "all" || w.is_smart) &&
    (q.skill !== 1 || w.has_skill) &&
    (!category || w.main_category === category) &&
    w.resolved_markets >= q.min_markets &&
    w.win_rate >= q.min_wr &&
    (q.min_pnl === 0 || w.total_pnl >= q.min_pnl) &&
    w.profit_factor >= q.min_profit_factor &&
    (q.max_avg_entry <= 0 || (w.avg_entry_price !== null && w.avg_entry_price <= q.max_avg_entry)) &&
    (q.max_sports_pct <= 0 || w.sports_pct <= q.max_sports_pct) &&
    !excluded.has(w.wallet);
}

/** Descending by the sort key, then by address, so pages are stable. */
export function sortBoard<T extends { wallet: string }>(rows: T[], key: (row: T) => number): T[] {
  return rows.sort((a, b) => key(b) - key(a) || (a.wallet < b.wallet ? -1 : a.wallet > b.wallet ? 1 : 0));
}

export const PERIODS = ["24h", "7d", "30d", "all"] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_DAYS: Record<Exclude<Period, "all">, number> = { "24h": 1, "7d": 7, "30d": 30 };

/** Wallets whose settled P&L one statement reads; the service's other requests run between two statements. */
const SETTLED_PNL_SLICE = 500;

/**
 * Each wallet's cumulative settled P&L at `from` and at `to`: the last daily P&L point at or before each instant, 0
 * before its first. One packed row per wallet (src/store/pnl-series.ts), a slice of wallets at a time, the
 * service's other requests running between two slices.
 */
export async function settledPnlAt(
  store: Store,
  wallets: readonly string[],
  from: number,
  to: number,
): Promise<Map<string, { from: number; to: number }>> {
  const rows = await inSlices(
    wallets,
    async (slice) => {
      const daily = await seriesPointsAtEach(store, "day", slice, [from, to]);
      return slice.map((wallet) => {
        const [atFrom, atTo] = daily.get(wallet) ?? [];
        return [wallet, { from: atFrom?.pnl ?? 0, to: atTo?.pnl ?? 0 }] as const;
      });
    },
    SETTLED_PNL_SLICE,
    true,
  );
  return new Map(rows);
}

/** A row of `/api/leaderboard`, under the API's names. */
export interface Trader {
  wallet: string;
  display_name: string | null;
  win_rate: number;
  market_win_rate: number;
  /** The P&L over the requested period (the ranking key): not the lifetime `total_pnl` of the other boards. */
  total_pnl: number;
  /** The wallet's lifetime `total_pnl`. */
  lifetime_pnl: number;
  roi: number | null;
  is_smart: boolean;
  role_profile: RoleProfile;
}

/**
 * P&L over a period per wallet: 24h is the ledger's `pnl_24h` (null counts 0); 7d and 30d are the change of the
 * daily P&L points over the period (a wallet without a point before the period started from 0); all is the
 * lifetime total_pnl.
 */
export async function periodPnl(
  store: Store,
  wallets: readonly BoardWallet[],
  period: Period,
  now: number,
): Promise<Map<string, number>> {
  if (period === "all") return new Map(wallets.map((w) => [w.wallet, w.total_pnl]));
  if (period === "24h") return new Map(wallets.map((w) => [w.wallet, w.pnl_24h ?? 0]));
  const settled = await settledPnlAt(
    store,
    wallets.map((w) => w.wallet),
    now - PERIOD_DAYS[period] * SECONDS_PER_DAY,
    now,
  );
  return new Map(
    wallets.map((w) => {
      const pnl = settled.get(w.wallet);
      return [w.wallet, pnl ? pnl.to - pnl.from : 0];
    }),
  );
}

/** Traders ranked by their P&L over the period; `roi` is the lifetime return on traded volume. */
export function traderRows(
  wallets: readonly BoardWallet[],
  periodPnlOf: ReadonlyMap<string, number>,
  filter: "smart" | "all",
  limit: number,
): Trader[] {
  const ranked = wallets
    .filter((w) => filter === "all" || w.is_smart)
    .map((w) => ({ wallet: w.wallet, board: w, periodPnl: periodPnlOf.get(w.wallet) ?? 0 }));
  return sortBoard(ranked, (r) => r.periodPnl)
    .slice(0, limit)
    .map(({ board: w, periodPnl }) => ({
      wallet: w.wallet,
      display_name: w.name,
      win_rate: w.win_rate,
      market_win_rate: w.market_win_rate,
      total_pnl: periodPnl,
      lifetime_pnl: w.total_pnl,
      roi: returnOnVolumePct(w.total_pnl, w.total_volume),
      is_smart: w.is_smart,
      role_profile: w.role_profile,
    }));
}
