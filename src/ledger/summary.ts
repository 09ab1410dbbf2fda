/**
 * One pass over a wallet's positions gathering what its statistics, the farmer test and the skill
 * score read. Money is in micro-units unless a field says USD.
 */
import type { Config } from "../config/index.js";
import { SECONDS_PER_DAY, type Position } from "./books.js";
import type { DayLog } from "./wallets.js";
import type { Category } from "../venue/categories.js";
import { MICRO } from "../venue/units.js";
import { sidePayout } from "./markets.js";
import type { LedgerState } from "./state.js";
import { unrealizedPnlUsd } from "./valuation.js";

/** One unit of the per-market metric: a market, or a whole NegRisk event. */
export interface MarketUnit {
  readonly key: string;
  /** Summed settled net P&L of the wallet's positions in the unit, micro-units. */
  pnl: number;
  /** Every market of the unit the wallet traded has resolved. */
  resolved: boolean;
  resolvedAt: number;
}

/**
 * Edge of the wallet's resolved positions in one NegRisk event or event cluster, as one observation:
 * cost-weighted means of `outcome - entry price` and of `p * (1 - p)`.
 */
export interface SkillCluster {
  readonly key: string;
  edge: number;
  variance: number;
  /** Settled net P&L of those positions, micro-units. */
  pnl: number;
  resolvedAt: number;
}

export interface ClosedPositionCounts {
  count: number;
  wins: number;
  losses: number;
  /** Micro-units, net of fees. */
  grossProfit: number;
  grossLoss: number;
}

export interface WalletSummary {
  readonly wallet: string;
  readonly trades: number;
  readonly volume: number;
  readonly lastTrade: number | null;
  readonly buyUsd: number;
  readonly buyShares: number;
  readonly mintMergeUsd: number;
  /** Collateral of the wallet's own splits and merges, micro-units. */
  readonly splitMergeUsd: number;
  readonly income: number;
  readonly feesPaid: number;
  /** Distinct markets with at least one fill. */
  readonly totalMarkets: number;
  /** Distinct markets where the wallet held shares. */
  readonly marketsHeld: number;
  /** Per market held, the largest balance of its two sides held at once (smaller / larger shares; 0 when never both). */
  readonly marketHedges: number[];
  readonly activeCount: number;
  readonly closed: ClosedPositionCounts;
  /** Settled net P&L of every position, micro-units. */
  readonly realizedNet: number;
  /** Open positions at current prices, USD (positions without a price count at cost). */
  readonly unrealizedUsd: number;
  /** Hold times in seconds of positions closed inside the hold window. */
  readonly holdSeconds: number[];
  readonly volumeByCategory: Map<Category, number>;
  readonly marketUnits: MarketUnit[];
  readonly skillClusters: SkillCluster[];
  readonly days: DayLog;
}

interface MarketTally {
  pnl: number;
  held: boolean;
  traded: boolean;
  hedge: number;
}

interface ClusterTally {
  weight: number;
  weightedEdge: number;
  weightedVariance: number;
  count: number;
  edge: number;
  variance: number;
  pnl: number;
  resolvedAt: number;
}

/** Summarizes a wallet at `now`; the ledger is first advanced to `now` (resolutions before it are applied). */
export function summarizeWallet(
  state: LedgerState,
  address: string,
  now: number,
  cfg: Pick<Config["ledger"], "holdWindowDays">,
): WalletSummary | undefined {
  // Statistics at `now` see every resolution before it.
  state.advanceTo(now);
  const book = state.wallet(address);
  if (!book) return undefined;
  const markets = state.markets;
  const holdFrom = now - cfg.holdWindowDays * SECONDS_PER_DAY;
  const closed: ClosedPositionCounts = { count: 0, wins: 0, losses: 0, grossProfit: 0, grossLoss: 0 };
  const holdSeconds: number[] = [];
  const volumeByCategory = new Map<Category, number>();
  const tallies = new Map<number, MarketTally>();
  const clusters = new Map<string, ClusterTally>();
  let feesPaid = 0;
  let activeCount = 0;
  let realizedNet = 0;
  let unrealizedUsd = 0;

  for (let p = book.firstPosition; p >= 0; p = state.positions.nextOfWallet(p)) {
    const position = state.positions.read(p);
    const condition = position.conditionIndex;
    const settled = state.settledNet(p);
    realizedNet += settled;
    feesPaid += position.fees;
    if (position.open) {
      activeCount++;
      const price = markets.currentPrice(condition, position.outcomeIndex);
      if (price !== null) unrealizedUsd += unrealizedPnlUsd(position, price);
    } else if (position.totalBought > 0 && position.closedTs >= 0) {
      closed.count++;
      if (settled > 0) {
        closed.wins++;
        closed.grossProfit += settled;
      } else if (settled < 0) {
        closed.losses++;
        closed.grossLoss -= settled;
      }
      if (position.closedTs >= holdFrom && position.closedTs <= now && position.firstBuyTs >= 0) {
        holdSeconds.push(position.closedTs - position.firstBuyTs);
      }
    }
    const category = markets.categories[condition];
    if (category && position.volume > 0)
      volumeByCategory.set(category, (volumeByCategory.get(category) ?? 0) + position.volume);

    let tally = tallies.get(condition);
    if (!tally) {
      tally = { pnl: 0, held: false, traded: false, hedge: 0 };
      tallies.set(condition, tally);
    }
    tally.pnl += settled;
    tally.held ||= position.totalBought > 0;
    tally.traded ||= position.fills > 0;
    tally.hedge = Math.max(tally.hedge, position.hedge);

    if (markets.resolvedBefore(condition, now) && position.totalBought > 0)
      addToCluster(state, position, settled, clusters);
  }

  let totalMarkets = 0;
  let marketsHeld = 0;
  const marketHedges: number[] = [];
  const units = new Map<string, MarketUnit>();
  for (const [condition, tally] of tallies) {
    if (tally.traded) totalMarkets++;
    if (!tally.held) continue;
    marketsHeld++;
    marketHedges.push(tally.hedge);
    const key = markets.facts[condition]?.negRiskEventId ?? markets.conditionIds[condition]!;
    const resolved = markets.resolvedBefore(condition, now);
    const resolvedAt = resolved ? (markets.resolvedAt[condition] as number) : -1;
    const unit = units.get(key);
    if (!unit) units.set(key, { key, pnl: tally.pnl, resolved, resolvedAt });
    else {
      unit.pnl += tally.pnl;
      unit.resolved &&= resolved;
      unit.resolvedAt = Math.max(unit.resolvedAt, resolvedAt);
    }
  }

  const skillClusters: SkillCluster[] = [];
  for (const [key, c] of clusters) {
    const weighted = c.weight > 0;
    skillClusters.push({
      key,
      edge: weighted ? c.weightedEdge / c.weight : c.edge / c.count,
      variance: weighted ? c.weightedVariance / c.weight : c.variance / c.count,
      pnl: c.pnl,
      resolvedAt: c.resolvedAt,
    });
  }

  return {
    wallet: address,
    trades: book.trades,
    volume: book.volume,
    lastTrade: book.lastTrade >= 0 ? book.lastTrade : null,
    buyUsd: book.buyUsd,
    buyShares: book.buyShares,
    mintMergeUsd: book.mintMergeUsd,
    splitMergeUsd: book.splitMergeUsd,
    income: book.income,
    feesPaid,
    totalMarkets,
    marketsHeld,
    marketHedges,
    activeCount,
    closed,
    realizedNet,
    unrealizedUsd,
    holdSeconds,
    volumeByCategory,
    marketUnits: [...units.values()],
    skillClusters,
    days: book.days,
  };
}

/**
 * Skill clusters group a NegRisk event, else the market's event, else the market alone, so that one
 * event cannot count many times. Entry prices are clamped to 0..1 (NegRisk conversions can book
 * synthetic prices outside it) and weighted by cost.
 */
function addToCluster(
  state: LedgerState,
  position: Position,
  settled: number,
  clusters: Map<string, ClusterTally>,
): void {
  const markets = state.markets;
  const condition = position.conditionIndex;
  const facts = markets.facts[condition];
  const key = facts?.negRiskEventId ?? facts?.eventId ?? markets.conditionIds[condition]!;
  const outcome = sidePayout(markets.payoutYes[condition] as number, position.outcomeIndex) / MICRO;
  const price = Math.min(1, Math.max(0, position.avgPrice / MICRO));
  const edge = outcome - price;
  const variance = price * (1 - price);
  const weight = (position.totalBought / MICRO) * price;
  let c = clusters.get(key);
  if (!c) {
    c = { weight: 0, weightedEdge: 0, weightedVariance: 0, count: 0, edge: 0, variance: 0, pnl: 0, resolvedAt: -1 };
    clusters.set(key, c);
  }
  c.weight += weight;
  c.weightedEdge += weight * edge;
  c.weightedVariance += weight * variance;
  c.count++;
  c.edge += edge;
  c.variance += variance;
  c.pnl += settled;
  c.resolvedAt = Math.max(c.resolvedAt, markets.resolvedAt[condition] as number);
}
