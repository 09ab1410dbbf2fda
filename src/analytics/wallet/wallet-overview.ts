/**
 * The wallet overview (contract: "Wallet overview"): profile, overview, stats, rankings and categories from the
 * precomputed wallet_stats and wallets rows. Every read is a primary-key or indexed lookup.
 */
import type { ExpressionBuilder } from "kysely";
import { profitFactor, winRate } from "../../ledger/index.js";
import type { Store } from "../../store/database.js";
import type { Database, WalletStatsTable, WalletsTable } from "../../store/schema.js";
import { firstRow } from "../../store/raw-sql.js";
import { storeLower } from "../../store/wallet-names.js";
import { CATEGORIES } from "../../venue/categories.js";
import { parseCategoryShares } from "./category-shares.js";

/** Which figures an overview shows: the proxy's stored ones, the signer's (live), or both merged. */
export type WalletView = "proxy" | "signer" | "union";

export interface WalletIdentity {
  /** The address asked about (lower case). */
  address: string;
  /** The proxy wallet whose stored figures answer for it (the address itself unless it is a known signer). */
  proxy: string;
  /** The EOA that signs for the proxy, when known. */
  signer: string | null;
  profile: WalletsTable | undefined;
}

/** Finds the proxy behind an address: itself, the proxy recorded on its profile, or the proxy it signs for. */
export async function resolveWallet(store: Store, address: string): Promise<WalletIdentity> {
  const lower = address.toLowerCase();
  const row = await walletRow(store, lower);
  let proxy = lower;
  if (row?.proxy_wallet && row.proxy_wallet.toLowerCase() !== lower) proxy = row.proxy_wallet.toLowerCase();
  else if (!(await hasStats(store, lower))) {
    const signed = await store.db
      .selectFrom("wallets")
      .select("address")
      .where("signer", "=", lower)
      .executeTakeFirst();
    if (signed) proxy = signed.address;
  }
  const proxyRow = proxy === lower ? row : await walletRow(store, proxy);
  let signer = proxyRow?.signer?.toLowerCase() ?? null;
  if (!signer && proxy !== lower) signer = lower;
  return { address: lower, proxy, signer, profile: proxyRow ?? row };
}

// Every wallet route resolves its wallet (these reads) per request: plain text, as `firstRow` says why.
function walletRow(store: Store, address: string): Promise<WalletsTable | undefined> {
  return firstRow<WalletsTable>(store.db, store.kind, "select * from wallets where address = ?", [address]);
}

async function hasStats(store: Store, wallet: string): Promise<boolean> {
  const row = await firstRow(store.db, store.kind, "select wallet from wallet_stats where wallet = ?", [wallet]);
  return row !== undefined;
}

export function readStats(store: Store, wallet: string): Promise<WalletStatsTable | undefined> {
  return firstRow<WalletStatsTable>(store.db, store.kind, "select * from wallet_stats where wallet = ?", [wallet]);
}

/**
 * Finds a wallet by its venue username (profile name) or pseudonym, exact match first, then case-insensitive; the
 * most recently seen first. Each query is one seek in the lowered-name indexes (0013_name_lookups): an exact match
 * has the same lowered name (`storeLower` is the stores' own `lower`).
 */
export async function findWalletByName(store: Store, name: string): Promise<string | null> {
  const lookups = [
    ...NAME_COLUMNS.map(
      (column) => (eb: ExpressionBuilder<Database, "wallets">) =>
        eb.and([eb(eb.fn("lower", [column]), "=", storeLower(name)), eb(column, "=", name)]),
    ),
    ...NAME_COLUMNS.map(
      (column) => (eb: ExpressionBuilder<Database, "wallets">) => eb(eb.fn("lower", [column]), "=", name.toLowerCase()),
    ),
  ];
  for (const lookup of lookups) {
    const row = await store.db
      .selectFrom("wallets")
      .select("address")
      .where(lookup)
      .orderBy("last_seen", "desc")
      .executeTakeFirst();
    if (row) return row.address;
  }
  return null;
}

const NAME_COLUMNS = ["name", "pseudonym"] as const;

/** Size of the ranked population (wallets with a rank; docs/METRICS.md: at least the configured resolved markets). */
export async function rankedTraders(store: Store): Promise<number> {
  const row = await rankedTradersQuery(store.db).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Counted from the partial index of ranked rows (migration 0027), not the table's rows. */
export function rankedTradersQuery(db: Store["db"]) {
  return db
    .selectFrom("wallet_stats")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("rank_pnl", "is not", null);
}

/** Sums two wallets' stored figures (a proxy and its signer) into one; rates and the profit factor are recomputed. */
export function mergeStats(a: WalletStatsTable, b: WalletStatsTable, profitFactorCap: number): WalletStatsTable {
  const sum = (k: keyof WalletStatsTable) => (a[k] as number) + (b[k] as number);
  const volume = a.total_volume + b.total_volume;
  const ca = parseCategoryShares(a.categories);
  const cb = parseCategoryShares(b.categories);
  const categories = Object.fromEntries(
    CATEGORIES.map((c) => [c, volume > 0 ? (ca[c] * a.total_volume + cb[c] * b.total_volume) / volume : 0]),
  );
  const wins = sum("wins");
  const losses = sum("losses");
  const marketWins = sum("market_wins");
  const marketLosses = sum("market_losses");
  const grossProfit = sum("gross_profit");
  const grossLoss = sum("gross_loss");
  const lastTrades = [a.last_trade, b.last_trade].filter((t): t is number => t !== null);
  const hold = a.hold_positions_count >= b.hold_positions_count ? a : b;
  return {
    ...a,
    computed_at: Math.min(a.computed_at, b.computed_at),
    total_trades: sum("total_trades"),
    total_markets: sum("total_markets"),
    total_volume: volume,
    last_trade: lastTrades.length ? Math.max(...lastTrades) : null,
    active_count: sum("active_count"),
    resolved: sum("resolved"),
    wins,
    losses,
    win_rate: winRate(wins, losses),
    win_source: a.win_source === b.win_source ? a.win_source : "market",
    market_wins: marketWins,
    market_losses: marketLosses,
    market_win_rate: winRate(marketWins, marketLosses),
    total_pnl: sum("total_pnl"),
    total_pnl_source: a.total_pnl_source === "venue" && b.total_pnl_source === "venue" ? "venue" : "ledger",
    realized_pnl: sum("realized_pnl"),
    unrealized_pnl: sum("unrealized_pnl"),
    gross_profit: grossProfit,
    gross_loss: grossLoss,
    profit_factor: profitFactor(grossProfit, grossLoss, profitFactorCap),
    pnl_24h: a.pnl_24h === null && b.pnl_24h === null ? null : (a.pnl_24h ?? 0) + (b.pnl_24h ?? 0),
    is_smart: a.is_smart && b.is_smart ? 1 : a.is_smart,
    profitable_streak: Math.max(a.profitable_streak, b.profitable_streak),
    median_hold_days: hold.median_hold_days,
    hold_positions_count: hold.hold_positions_count,
    categories: JSON.stringify(categories),
    rank_pnl: null,
    rank_winrate: null,
    rank_volume: null,
    rank_profit_factor: null,
    positions_digest: (a.positions_digest ^ b.positions_digest) >>> 0,
  };
}

/** A wallet with no stored figures (a signer that never traded through its own address). */
export function emptyStats(wallet: string, now: number): WalletStatsTable {
  return {
    wallet,
    computed_at: now,
    total_trades: 0,
    total_markets: 0,
    total_volume: 0,
    last_trade: null,
    active_count: 0,
    resolved: 0,
    wins: 0,
    losses: 0,
    win_rate: 0,
    win_source: "market",
    market_wins: 0,
    market_losses: 0,
    market_win_rate: 0,
    total_pnl: 0,
    total_pnl_source: "ledger",
    realized_pnl: 0,
    unrealized_pnl: 0,
    gross_profit: 0,
    gross_loss: 0,
    profit_factor: 0,
    pnl_24h: null,
    is_smart: 0,
    is_farmer: 0,
    farmer_reason: null,
    has_skill: 0,
    skill_z: null,
    edge_bps: null,
    skill_sample: 0,
    profitable_streak: 0,
    median_hold_days: null,
    hold_positions_count: 0,
    categories: "{}",
    rank_pnl: null,
    rank_winrate: null,
    rank_volume: null,
    rank_profit_factor: null,
    positions_digest: 0,
  };
}

export function rankingsOf(stats: WalletStatsTable, totalTraders: number) {
  return {
    rank_pnl: stats.rank_pnl,
    rank_winrate: stats.rank_winrate,
    rank_volume: stats.rank_volume,
    rank_profit_factor: stats.rank_profit_factor,
    total_traders: totalTraders,
    is_smart: stats.is_smart === 1,
  };
}

/** The contract's overview body. `degraded` nulls the secondary counters (active_count, closed_count, win/loss breakdowns). */
export function overviewBody(
  identity: WalletIdentity,
  stats: WalletStatsTable,
  totalTraders: number,
  view: WalletView,
  degraded: boolean,
) {
  const secondary = <T>(value: T): T | null => (degraded ? null : value);
  const p = identity.profile;
  return {
    profile: {
      address: identity.address,
      name: p?.name ?? null,
      pseudonym: p?.pseudonym ?? null,
      proxy_wallet: identity.proxy,
      signer: identity.signer,
      bio: p?.bio ?? null,
      profile_image: p?.profile_image ?? null,
    },
    overview: {
      total_trades: stats.total_trades,
      total_markets: stats.total_markets,
      total_volume: stats.total_volume,
      last_trade: stats.last_trade,
      profit_factor: stats.profit_factor,
      active_count: secondary(stats.active_count),
      closed_count: secondary(stats.wins + stats.losses),
      median_hold_days: stats.median_hold_days,
      hold_positions_count: stats.hold_positions_count,
    },
    stats: {
      resolved: stats.resolved,
      wins: secondary(stats.wins),
      losses: secondary(stats.losses),
      win_rate: stats.win_rate,
      win_source: stats.win_source,
      market_win_rate: stats.market_win_rate,
      market_wins: secondary(stats.market_wins),
      market_losses: secondary(stats.market_losses),
      total_pnl: stats.total_pnl,
      total_pnl_source: stats.total_pnl_source,
      realized_pnl: stats.realized_pnl,
      unrealized_pnl: stats.unrealized_pnl,
      profit_factor: stats.profit_factor,
      is_smart: stats.is_smart === 1,
      is_farmer: stats.is_farmer === 1,
      farmer_reason: stats.farmer_reason,
      has_skill: stats.has_skill === 1,
      skill_z: stats.skill_z,
      edge_bps: stats.edge_bps,
      skill_sample: stats.skill_sample,
      profitable_streak: stats.profitable_streak,
      pnl_24h: stats.pnl_24h,
    },
    rankings: rankingsOf(stats, totalTraders),
    categories: parseCategoryShares(stats.categories),
    view,
    as_of: stats.computed_at,
    degraded,
  };
}

export type OverviewBody = ReturnType<typeof overviewBody>;
