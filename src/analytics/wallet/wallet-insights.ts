/**
 * Wallet insights over the ledger's positions: category and entry-price breakdowns, closed-position figures,
 * winning streaks and hold times. Every figure is net of fees, as the wallet statistics are.
 */
import type { Config } from "../../config/index.js";
import {
  longestProfitableRun,
  medianHoldDays,
  payoffFigures,
  profitFactor,
  profitableDays,
  profitableStreak,
  settledNetUsd,
  winRateOrNull,
  SECONDS_PER_DAY,
  isoDay,
} from "../../ledger/index.js";
import type { Store } from "../../store/database.js";
import { walletSeries } from "../../store/pnl-series.js";
import { POSITION_STATUS_CODE, positionsWithStatusCode } from "../../store/position-status.js";
import { CATEGORIES, type Category } from "../../venue/categories.js";
import { loadMarkets, outcomeSide, type MarketInfo } from "../markets/market-facts.js";
import { parseCategoryShares } from "./category-shares.js";
import { fromMicro } from "../../venue/units.js";
import { payoutOf, positionsWithResolution } from "./wallet-positions.js";

export interface PositionFacts {
  condition_id: string;
  outcome_index: number;
  avg_price: number;
  total_bought: number;
  /** Realized P&L net of fees, USD. */
  pnl: number;
  /**
   * Settled net P&L, USD (docs/METRICS.md): `pnl` plus, when its market's resolution closed it with shares left
   * (a winner not yet redeemed), what they redeem for less their cost. What the ledger's daily P&L points book.
   */
  settled: number;
  first_ts: number;
  last_ts: number;
  closed_ts: number | null;
  open: boolean;
}

export async function loadPositions(store: Store, wallet: string): Promise<PositionFacts[]> {
  const rows = await positionsWithResolution(store, wallet).execute();
  return rows.map((r) => {
    const open = r.status === "open";
    // Only a closed position's shares are settled at the payout: an open one's resolution has not reached it yet.
    const payout = !open && r.resolution ? payoutOf(r.resolution, r.outcome_index) : null;
    return {
      condition_id: r.condition_id,
      outcome_index: r.outcome_index,
      avg_price: r.avg_price,
      total_bought: r.total_bought,
      pnl: fromMicro(r.realized_pnl - r.fees),
      settled: settledNetUsd(r.realized_pnl, r.fees, r.shares, r.avg_price, payout),
      first_ts: r.first_ts,
      last_ts: r.last_ts,
      closed_ts: r.closed_ts,
      open,
    };
  });
}

/** One closed position as the insight lists show it. */
export function closedPositionItem(p: PositionFacts, market: MarketInfo | undefined) {
  return {
    condition_id: p.condition_id,
    market_id: market?.market_id ?? null,
    question: market?.question ?? null,
    category: market?.category ?? null,
    outcome: outcomeSide(p.outcome_index),
    avg_price: p.avg_price,
    shares_bought: fromMicro(p.total_bought),
    pnl: p.pnl,
    first_ts: p.first_ts,
    closed_ts: p.closed_ts,
  };
}

interface Tally {
  closed_positions: number;
  wins: number;
  losses: number;
  realized_pnl: number;
}

const emptyTally = (): Tally => ({ closed_positions: 0, wins: 0, losses: 0, realized_pnl: 0 });

function add(t: Tally, pnl: number): void {
  t.closed_positions++;
  if (pnl > 0) t.wins++;
  else if (pnl < 0) t.losses++;
  t.realized_pnl += pnl;
}

const rate = (t: Tally) => winRateOrNull(t.wins, t.losses);

/** Entry-price buckets of the insights: [min, max) with the last one closed at 1. */
export const ENTRY_BUCKETS: ReadonlyArray<readonly [number, number]> = [
  [0, 0.2],
  [0.2, 0.4],
  [0.4, 0.6],
  [0.6, 0.8],
  [0.8, 1],
];

const bucketOf = (price: number) => Math.min(ENTRY_BUCKETS.length - 1, Math.max(0, Math.floor(price / 0.2 + 1e-9)));

export async function walletInsights(store: Store, wallet: string) {
  const [positions, stats] = await Promise.all([
    loadPositions(store, wallet),
    store.db
      .selectFrom("wallet_stats")
      .select([
        "categories",
        "profit_factor",
        "median_hold_days",
        "is_smart",
        "has_skill",
        "skill_z",
        "edge_bps",
        "skill_sample",
      ])
      .where("wallet", "=", wallet)
      .executeTakeFirst(),
  ]);
  const closed = positions.filter((p) => !p.open);
  const markets = await loadMarkets(
    store,
    closed.map((p) => p.condition_id),
  );
  const byCategory = new Map<Category, Tally>(CATEGORIES.map((c) => [c, emptyTally()]));
  const buckets = ENTRY_BUCKETS.map(emptyTally);
  const overall = emptyTally();
  let holdSeconds = 0;
  for (const p of closed) {
    add(overall, p.pnl);
    add(buckets[bucketOf(p.avg_price)]!, p.pnl);
    const category = markets.get(p.condition_id)?.category;
    if (category) add(byCategory.get(category)!, p.pnl);
    holdSeconds += (p.closed_ts ?? p.first_ts) - p.first_ts;
  }
  const shares = parseCategoryShares(stats?.categories);
  const categories = CATEGORIES.map((category) => {
    const t = byCategory.get(category)!;
    return { category, volume_share_pct: shares[category], ...t, win_rate: rate(t) };
  });
  const traded = categories.filter((c) => c.closed_positions > 0).sort((a, b) => b.realized_pnl - a.realized_pnl);
  const best = traded[0];
  const worst = traded[traded.length - 1];
  return {
    address: wallet,
    open_positions: positions.length - closed.length,
    closed_positions: overall.closed_positions,
    wins: overall.wins,
    losses: overall.losses,
    win_rate: rate(overall),
    realized_pnl: overall.realized_pnl,
    profit_factor: stats?.profit_factor ?? 0,
    avg_hold_days: closed.length > 0 ? holdSeconds / closed.length / SECONDS_PER_DAY : null,
    median_hold_days: stats?.median_hold_days ?? null,
    best_category: best && best.realized_pnl > 0 ? best.category : null,
    worst_category: worst && worst.realized_pnl < 0 ? worst.category : null,
    categories,
    entry_price_buckets: ENTRY_BUCKETS.map(([min, max], i) => ({
      min_price: min,
      max_price: max,
      ...buckets[i]!,
      win_rate: rate(buckets[i]!),
    })),
    skill: {
      is_smart: stats?.is_smart === 1,
      has_skill: stats?.has_skill === 1,
      skill_z: stats?.skill_z ?? null,
      edge_bps: stats?.edge_bps ?? null,
      sample: stats?.skill_sample ?? 0,
    },
  };
}

export async function closedInsights(store: Store, wallet: string, config: Config, top = 5) {
  const closed = (await loadPositions(store, wallet)).filter((p) => !p.open);
  let grossProfit = 0;
  let grossLoss = 0;
  const tally = emptyTally();
  for (const p of closed) {
    add(tally, p.pnl);
    if (p.pnl > 0) grossProfit += p.pnl;
    else grossLoss -= p.pnl;
  }
  const winners = closed
    .filter((p) => p.pnl > 0)
    .sort((a, b) => b.pnl - a.pnl || a.condition_id.localeCompare(b.condition_id))
    .slice(0, top);
  const losers = closed
    .filter((p) => p.pnl < 0)
    .sort((a, b) => a.pnl - b.pnl || a.condition_id.localeCompare(b.condition_id))
    .slice(0, top);
  const markets = await loadMarkets(
    store,
    [...winners, ...losers].map((p) => p.condition_id),
  );
  const n = tally.closed_positions;
  const payoff = payoffFigures({
    wins: tally.wins,
    losses: tally.losses,
    grossProfit,
    grossLoss,
    net: tally.realized_pnl,
    count: n,
  });
  return {
    address: wallet,
    closed_positions: n,
    wins: tally.wins,
    losses: tally.losses,
    breakeven: n - tally.wins - tally.losses,
    win_rate: rate(tally),
    gross_profit: grossProfit,
    gross_loss: grossLoss,
    net_pnl: tally.realized_pnl,
    profit_factor: profitFactor(grossProfit, grossLoss, config.ledger.profitFactorCap),
    avg_win: payoff.avgWin,
    avg_loss: payoff.avgLoss,
    payoff_ratio: payoff.payoffRatio,
    expectancy: payoff.expectancy,
    biggest_wins: winners.map((p) => closedPositionItem(p, markets.get(p.condition_id))),
    biggest_losses: losers.map((p) => closedPositionItem(p, markets.get(p.condition_id))),
  };
}

/**
 * Per UTC day: settled net P&L as the ledger booked it, and the positions closed that day. Complete days come from
 * the differences of the wallet's daily cumulative P&L points (each dated at the end of its day); what the positions
 * settled beyond the last point (the day in progress, not yet written as a point) goes to the day of the wallet's
 * latest trade or close. The points are settled net P&L (a resolved winner's payout is booked at the resolution, not
 * at its redemption), so the positions are summed in the same measure: their `settled`, not their realized `pnl`.
 */
export async function dailyRealized(
  store: Store,
  wallet: string,
  positions: readonly PositionFacts[],
): Promise<Map<number, { pnl: number; closes: number }>> {
  const points = await walletSeries(store, wallet, "day");
  const days = new Map<number, { pnl: number; closes: number }>();
  const bucket = (day: number) => {
    let b = days.get(day);
    if (!b) days.set(day, (b = { pnl: 0, closes: 0 }));
    return b;
  };
  let previous = 0;
  let lastDay = -Infinity;
  for (const point of points) {
    lastDay = Math.floor(point.t / SECONDS_PER_DAY) - 1;
    bucket(lastDay).pnl += point.pnl - previous;
    previous = point.pnl;
  }
  let latest = -Infinity;
  let settled = 0;
  for (const p of positions) {
    settled += p.settled;
    latest = Math.max(latest, p.last_ts, p.closed_ts ?? -Infinity);
    if (!p.open && p.closed_ts !== null) bucket(Math.floor(p.closed_ts / SECONDS_PER_DAY)).closes++;
  }
  const latestDay = Math.floor(latest / SECONDS_PER_DAY);
  if (latestDay > lastDay && Math.abs(settled - previous) > 1e-6) bucket(latestDay).pnl += settled - previous;
  return days;
}

export async function walletHighlights(store: Store, wallet: string, now: number) {
  const positions = await loadPositions(store, wallet);
  const days = await dailyRealized(store, wallet, positions);
  const qualifying = profitableDays(days);
  const best = longestProfitableRun(qualifying);
  const biggest = positions
    .filter((p) => !p.open && p.pnl > 0)
    .sort((a, b) => b.pnl - a.pnl || a.condition_id.localeCompare(b.condition_id))[0];
  const markets = biggest ? await loadMarkets(store, [biggest.condition_id]) : new Map<string, MarketInfo>();
  return {
    address: wallet,
    current_streak_days: profitableStreak(days, now),
    best_streak_days: best?.days ?? 0,
    best_streak: best ? { start_date: isoDay(best.start), end_date: isoDay(best.end), pnl: best.pnl } : null,
    profitable_days: qualifying.length,
    biggest_win: biggest ? closedPositionItem(biggest, markets.get(biggest.condition_id)) : null,
  };
}

/** Hold-time histogram buckets, in days: [min, max). */
export const HOLD_BUCKETS: ReadonlyArray<readonly [number, number | null]> = [
  [0, 1],
  [1, 7],
  [7, 30],
  [30, null],
];

/**
 * The wallet's hold times: of the positions closed within the window (read from `positions_wallet_closed`, the
 * window's range of it), and the open positions' count and average age (their first trades summed in the index).
 */
export async function walletHold(store: Store, wallet: string, now: number, config: Config) {
  const { holdWindowDays, holdMinPositions } = config.ledger;
  const from = now - holdWindowDays * SECONDS_PER_DAY;
  const [closed, open] = await Promise.all([
    store.db
      .selectFrom(positionsWithStatusCode(store.kind))
      .select(["closed_ts", "first_ts"])
      .where("wallet", "=", wallet)
      .where("status_code", "=", POSITION_STATUS_CODE.closed)
      .where("closed_ts", ">=", from)
      .execute(),
    store.db
      .selectFrom(positionsWithStatusCode(store.kind))
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.sum<number>("first_ts").as("first")])
      .where("wallet", "=", wallet)
      .where("status_code", "=", POSITION_STATUS_CODE.open)
      .executeTakeFirst(),
  ]);
  const holds = closed.map((p) => Number(p.closed_ts) - Number(p.first_ts));
  const openCount = Number(open?.n ?? 0);
  // Integers summed exactly, as adding each position's age was.
  const openAgeSeconds = openCount * now - Number(open?.first ?? 0);
  const days = holds.map((s) => s / SECONDS_PER_DAY);
  return {
    address: wallet,
    window_days: holdWindowDays,
    min_positions: holdMinPositions,
    hold_positions_count: holds.length,
    median_hold_days: medianHoldDays(holds, holdMinPositions),
    mean_hold_days: days.length >= holdMinPositions ? days.reduce((a, b) => a + b, 0) / days.length : null,
    shortest_hold_days: days.length > 0 ? Math.min(...days) : null,
    longest_hold_days: days.length > 0 ? Math.max(...days) : null,
    distribution: HOLD_BUCKETS.map(([min, max]) => ({
      min_days: min,
      max_days: max,
      count: days.filter((d) => d >= min && (max === null || d < max)).length,
    })),
    open_positions: openCount,
    open_avg_age_days: openCount > 0 ? openAgeSeconds / openCount / SECONDS_PER_DAY : null,
  };
}
