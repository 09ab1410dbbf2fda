/**
 * Wallet statistics exactly as docs/METRICS.md defines them. Each formula is a small exported
 * function so it can be tested by hand; `computeWalletStats` assembles them from a WalletSummary.
 */
import type { Config } from "../config/index.js";
import { SECONDS_PER_DAY } from "./books.js";
import type { Category } from "../venue/categories.js";
import { categoryShares } from "./categories.js";
import { MICRO } from "../venue/units.js";
import type { WalletSummary } from "./summary.js";

/** What the synced venue cache of `/closed-positions` holds for a wallet (USD). */
export interface VenueClosedPositions {
  /** Closed positions the cache holds. */
  readonly held: number;
  readonly wins: number;
  readonly losses: number;
  readonly grossProfit: number;
  readonly grossLoss: number;
}

export interface PnlPoint {
  readonly t: number;
  readonly p: number;
}

export interface WalletStatsInput {
  readonly now: number;
  /** The venue cache's closed positions, when synced. */
  readonly venueClosed?: VenueClosedPositions | null;
  /** The venue's closed-positions list as the ledger computes it (`venueClosedPositions`). */
  readonly ledgerClosed?: VenueClosedPositions | null;
  /** The store holds the wallet's whole history (chain ingest from before its first activity): the ledger's list is the venue's. */
  readonly historyComplete?: boolean;
  /** Closed positions the ledger expects the venue to list; defaults to `ledgerClosed.held`, else the ledger's own closed count. */
  readonly expectedClosed?: number;
  /** Last point of the venue's lifetime P&L curve, when synced. */
  readonly venueLifetimePnl?: number | null;
  /** The wallet's P&L points (any resolution), for pnl_24h. */
  readonly pnlPoints?: readonly PnlPoint[];
}

export type WinSource = "ledger" | "venue" | "market";

export interface WalletStats {
  readonly wallet: string;
  readonly totalTrades: number;
  readonly totalMarkets: number;
  /** USD. */
  readonly totalVolume: number;
  readonly lastTrade: number | null;
  readonly activeCount: number;
  /** Resolved market units (a NegRisk event counts once). */
  readonly resolved: number;
  readonly wins: number;
  readonly losses: number;
  readonly winRate: number;
  /** Which source `wins`, `losses`, `win_rate` and `profit_factor` came from. */
  readonly winSource: WinSource;
  readonly closedCount: number;
  readonly marketWins: number;
  readonly marketLosses: number;
  readonly marketWinRate: number;
  /** The ledger's own per-position counts, and how many closed positions it expects the venue to list. */
  readonly ledgerWins: number;
  readonly ledgerLosses: number;
  readonly ledgerClosed: number;
  /** USD. */
  readonly totalPnl: number;
  readonly totalPnlSource: "venue" | "ledger";
  readonly realizedPnl: number;
  readonly unrealizedPnl: number;
  readonly grossProfit: number;
  readonly grossLoss: number;
  readonly profitFactor: number;
  readonly feesPaid: number;
  readonly income: number;
  readonly pnl24h: number | null;
  readonly profitableStreak: number;
  readonly medianHoldDays: number | null;
  readonly holdPositionsCount: number;
  readonly categories: Record<Category, number>;
}

/** `100 * wins / (wins + losses)`; 0 with neither. */
export function winRate(wins: number, losses: number): number {
  return wins + losses > 0 ? (100 * wins) / (wins + losses) : 0;
}

/** `100 * wins / (wins + losses)`; null with neither (the insights' rate, where `winRate` would say 0). */
export function winRateOrNull(wins: number, losses: number): number | null {
  return wins + losses > 0 ? (100 * wins) / (wins + losses) : null;
}

/** Of closed positions' P&L: average win and loss, payoff ratio (average win / average loss), expectancy (net per position); null where undefined. */
export function payoffFigures(t: {
  wins: number;
  losses: number;
  grossProfit: number;
  grossLoss: number;
  net: number;
  count: number;
}) {
  const avgWin = t.wins > 0 ? t.grossProfit / t.wins : null;
  const avgLoss = t.losses > 0 ? t.grossLoss / t.losses : null;
  return {
    avgWin,
    avgLoss,
    payoffRatio: avgWin !== null && avgLoss !== null && avgLoss > 0 ? avgWin / avgLoss : null,
    expectancy: t.count > 0 ? t.net / t.count : null,
  };
}

/** Percent change from `prev` to `now`; null when there was nothing before. */
export function changePct(now: number, prev: number): number | null {
  return prev > 0 ? (100 * (now - prev)) / prev : null;
}

/** Return on traded volume, percent: `100 * pnl / volume`; null without volume. */
export function returnOnVolumePct(pnl: number, volume: number): number | null {
  return volume > 0 ? (100 * pnl) / volume : null;
}

/** Gross profit over gross loss, capped; the cap when there is profit and no loss; 0 with neither. */
export function profitFactor(grossProfit: number, grossLoss: number, cap: number): number {
  if (grossLoss > 0) return Math.min(grossProfit / grossLoss, cap);
  return grossProfit > 0 ? cap : 0;
}

/**
 * Where wins and losses come from, best first: the ledger's own list of the venue's closed positions when the store
 * holds the wallet's whole history; the venue's cache when it holds at least `completeness` of the closed positions
 * the ledger expects; else the per-market metric.
 */
export function chooseWinSource(
  source: { historyComplete: boolean; venueHeld: number | null; expected: number },
  completeness: number,
): WinSource {
  if (source.historyComplete) return "ledger";
  if (source.venueHeld !== null && source.venueHeld >= completeness * source.expected) return "venue";
  return "market";
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median hold in days, or null below the minimum sample. */
export function medianHoldDays(holdSeconds: readonly number[], minPositions: number): number | null {
  if (holdSeconds.length < minPositions) return null;
  return median(holdSeconds)! / SECONDS_PER_DAY;
}

/** What a UTC day booked: summed realized P&L, and positions closed. */
export interface DayBooking {
  readonly pnl: number;
  readonly closes: number;
}

/** A day of a profitable streak: positive summed realized P&L and at least one closed position. */
export function isProfitableDay(day: DayBooking | undefined): boolean {
  return day !== undefined && day.pnl > 0 && day.closes > 0;
}

/**
 * Consecutive UTC days ending today or yesterday, each profitable (`isProfitableDay`). Today may still be in
 * progress, so a streak may end yesterday; any earlier day that does not qualify (including a day without trades)
 * ends it.
 */
export function profitableStreak(days: { get(day: number): DayBooking | undefined }, now: number): number {
  const qualifies = (day: number) => isProfitableDay(days.get(day));
  const today = Math.floor(now / SECONDS_PER_DAY);
  let day = qualifies(today) ? today : today - 1;
  let streak = 0;
  while (qualifies(day)) {
    streak++;
    day--;
  }
  return streak;
}

/** The profitable days (UTC day numbers) among `days`, in order. */
export function profitableDays<D extends DayBooking>(days: Iterable<[number, D]>): Array<[number, D]> {
  return [...days].filter(([, d]) => isProfitableDay(d)).sort((a, b) => a[0] - b[0]);
}

export interface ProfitableRun {
  start: number;
  end: number;
  days: number;
  pnl: number;
}

/** The longest run of consecutive days among profitable days in order, the earliest when tied; null without one. */
export function longestProfitableRun(profitable: readonly (readonly [number, DayBooking])[]): ProfitableRun | null {
  let best: ProfitableRun | null = null;
  let run: ProfitableRun | null = null;
  for (const [day, d] of profitable) {
    const next: ProfitableRun =
      run !== null && run.end === day - 1
        ? { start: run.start, end: day, days: run.days + 1, pnl: run.pnl + d.pnl }
        : { start: day, end: day, days: 1, pnl: d.pnl };
    run = next;
    if (best === null || next.days > best.days) best = next;
  }
  return best;
}

/** Change of total P&L against the latest point at least 24 h old; null when there is none. */
export function pnlChange24h(points: readonly PnlPoint[], now: number, totalPnl: number): number | null {
  const cutoff = now - SECONDS_PER_DAY;
  let reference: PnlPoint | null = null;
  for (const point of points) if (point.t <= cutoff && (reference === null || point.t > reference.t)) reference = point;
  return reference === null ? null : totalPnl - reference.p;
}

/** Counts of the venue's closed-positions rows (their `realizedPnl`, USD) as the venue UI shows them. */
export function summarizeVenueClosedPositions(rows: Iterable<{ readonly realizedPnl: number }>): VenueClosedPositions {
  let held = 0;
  let wins = 0;
  let losses = 0;
  let grossProfit = 0;
  let grossLoss = 0;
  for (const row of rows) {
    held++;
    if (row.realizedPnl > 0) {
      wins++;
      grossProfit += row.realizedPnl;
    } else if (row.realizedPnl < 0) {
      losses++;
      grossLoss -= row.realizedPnl;
    }
  }
  return { held, wins, losses, grossProfit, grossLoss };
}

export function computeWalletStats(
  summary: WalletSummary,
  input: WalletStatsInput,
  cfg: Config["ledger"],
): WalletStats {
  let marketWins = 0;
  let marketLosses = 0;
  let resolved = 0;
  for (const unit of summary.marketUnits) {
    if (!unit.resolved) continue;
    resolved++;
    if (unit.pnl > 0) marketWins++;
    else if (unit.pnl < 0) marketLosses++;
  }

  const ledgerClosed = input.ledgerClosed ?? null;
  const venue = input.venueClosed ?? null;
  const expected = input.expectedClosed ?? ledgerClosed?.held ?? summary.closed.count;
  const winSource = chooseWinSource(
    {
      historyComplete: !!input.historyComplete && ledgerClosed !== null,
      venueHeld: venue ? venue.held : null,
      expected,
    },
    cfg.closedPositionsCompleteness,
  );
  // The ledger's and the venue's lists count positions by the venue's realized P&L; the per-market metric counts market units.
  const list = winSource === "ledger" ? ledgerClosed : winSource === "venue" ? venue : null;
  const wins = list ? list.wins : marketWins;
  const losses = list ? list.losses : marketLosses;
  const grossProfit = list ? list.grossProfit : summary.closed.grossProfit / MICRO;
  const grossLoss = list ? list.grossLoss : summary.closed.grossLoss / MICRO;

  const realizedPnl = summary.realizedNet / MICRO;
  const unrealizedPnl = summary.unrealizedUsd;
  const venuePnl = input.venueLifetimePnl ?? null;
  const totalPnl = venuePnl ?? realizedPnl + unrealizedPnl;

  return {
    wallet: summary.wallet,
    totalTrades: summary.trades,
    totalMarkets: summary.totalMarkets,
    totalVolume: summary.volume / MICRO,
    lastTrade: summary.lastTrade,
    activeCount: summary.activeCount,
    resolved,
    wins,
    losses,
    winRate: winRate(wins, losses),
    winSource,
    closedCount: wins + losses,
    marketWins,
    marketLosses,
    marketWinRate: winRate(marketWins, marketLosses),
    ledgerWins: summary.closed.wins,
    ledgerLosses: summary.closed.losses,
    ledgerClosed: summary.closed.count,
    totalPnl,
    totalPnlSource: venuePnl === null ? "ledger" : "venue",
    realizedPnl,
    unrealizedPnl,
    grossProfit,
    grossLoss,
    profitFactor: profitFactor(grossProfit, grossLoss, cfg.profitFactorCap),
    feesPaid: summary.feesPaid / MICRO,
    income: summary.income / MICRO,
    pnl24h: pnlChange24h(input.pnlPoints ?? [], input.now, totalPnl),
    profitableStreak: profitableStreak(summary.days, input.now),
    medianHoldDays: medianHoldDays(summary.holdSeconds, cfg.holdMinPositions),
    holdPositionsCount: summary.holdSeconds.length,
    categories: categoryShares(summary.volumeByCategory),
  };
}
