/**
 * Smart Money and the strict skill badge (docs/METRICS.md). Win rate alone rewards buying
 * favourites; the badge asks for edge over the price paid, across independent events, that persists.
 */
import type { Config } from "../config/index.js";
import type { SkillCluster } from "./summary.js";

export interface SmartMoneyInput {
  readonly isFarmer: boolean;
  readonly resolved: number;
  readonly winRate: number;
  readonly totalPnl: number;
}

export function isSmartMoney(wallet: SmartMoneyInput, cfg: Config["smart"]): boolean {
  return (
    !wallet.isFarmer &&
    wallet.resolved >= cfg.minResolvedMarkets &&
    wallet.winRate >= cfg.minWinRate &&
    wallet.totalPnl > 0
  );
}

export interface SkillScore {
  /** `sum(outcome - p) / sqrt(sum(p * (1 - p)))` over clusters; null without variance. */
  readonly z: number | null;
  /** Mean edge per cluster in basis points; null without clusters. */
  readonly edgeBps: number | null;
  /** Clusters (NegRisk events, events, or lone markets) behind the score. */
  readonly sample: number;
  /** Largest cluster's share of the resolved P&L; null when that P&L is not positive. */
  readonly largestEventPnlShare: number | null;
  /** Edge summed over the older and the newer half of the clusters (by resolution time). */
  readonly firstHalfEdge: number;
  readonly secondHalfEdge: number;
  readonly hasSkill: boolean;
}

export function skillScore(
  clusters: readonly SkillCluster[],
  resolvedMarkets: number,
  isSmart: boolean,
  cfg: Config["smart"],
): SkillScore {
  let edgeSum = 0;
  let varianceSum = 0;
  let pnlSum = 0;
  let largestPnl = -Infinity;
  for (const c of clusters) {
    edgeSum += c.edge;
    varianceSum += c.variance;
    pnlSum += c.pnl;
    largestPnl = Math.max(largestPnl, c.pnl);
  }
  const z = varianceSum > 0 ? edgeSum / Math.sqrt(varianceSum) : null;
  const edgeBps = clusters.length > 0 ? (10_000 * edgeSum) / clusters.length : null;
  const largestEventPnlShare = pnlSum > 0 ? Math.max(0, largestPnl) / pnlSum : null;

  const ordered = [...clusters].sort((a, b) => a.resolvedAt - b.resolvedAt || (a.key < b.key ? -1 : 1));
  const half = ordered.length >> 1;
  let firstHalfEdge = 0;
  let secondHalfEdge = 0;
  ordered.forEach((c, i) => {
    if (i < half) firstHalfEdge += c.edge;
    else secondHalfEdge += c.edge;
  });

  const hasSkill =
    isSmart &&
    resolvedMarkets >= cfg.skillMinResolvedMarkets &&
    z !== null &&
    z >= cfg.skillMinZ &&
    largestEventPnlShare !== null &&
    largestEventPnlShare <= cfg.skillMaxEventPnlShare &&
    half > 0 &&
    firstHalfEdge > 0 &&
    secondHalfEdge > 0;

  return { z, edgeBps, sample: clusters.length, largestEventPnlShare, firstHalfEdge, secondHalfEdge, hasSkill };
}
