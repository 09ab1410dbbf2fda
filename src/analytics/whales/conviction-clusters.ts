/**
 * Conviction clusters (/api/v2/conviction-clusters, /api/public/v1/conviction-clusters): within one event (its
 * slug), the smart whales standing on the same side of at least CLUSTER_MIN_MARKETS of its markets
 * (`convictionClusters` in src/ledger/whale-signals.ts), from their open positions (smart-holdings.ts) and the
 * market index's events. Every group is computed with one whale as its floor, so that the route keeps one answer per
 * clock window and applies `min_whales` to it; it is a window aggregate (window-aggregates.ts).
 */
import { convictionClusters, type EventStand } from "../../ledger/index.js";
import type { MarketIndex } from "../markets/market-index.js";
import type { HoldingsView } from "./smart-holdings.js";

export interface ClusterRules {
  /** CONSENSUS_MIN_USD. */
  minTeamUsd: number;
  /** CLUSTER_MIN_MARKETS. */
  minMarkets: number;
}

export interface ConvictionClusterRow {
  event_slug: string;
  event_title: string | null;
  side: "YES" | "NO";
  whale_count: number;
  market_count: number;
  total_capital_usd: number;
  whales: Array<{ name: string | null; wr: number; pnl: number; wallet: string; capital_usd: number; markets: number }>;
  markets: Array<{
    market_id: string;
    question: string;
    condition_id: string;
    whale_count: number;
    capital_usd: number;
  }>;
}

/** Every cluster of at least one whale, most whales first, then most capital. */
export function allConvictionClusters(
  view: HoldingsView,
  index: MarketIndex,
  rules: ClusterRules,
): { clusters: ConvictionClusterRow[]; as_of: number } {
  const stands: EventStand[] = [];
  for (const h of view.holdings) {
    const eventSlug = index.byConditionId.get(h.condition_id)?.event_slug;
    if (eventSlug) stands.push({ wallet: h.wallet, eventSlug, conditionId: h.condition_id, netUsd: h.netUsd });
  }
  const clusters = convictionClusters(stands, { ...rules, minWhales: 1 }).map((c) => ({
    event_slug: c.eventSlug,
    event_title: index.byEventSlug.get(c.eventSlug)?.[0]?.event_title ?? null,
    side: c.side,
    whale_count: c.members.length,
    market_count: c.markets.length,
    total_capital_usd: c.capitalUsd,
    whales: c.members.map((m) => {
      const whale = view.roster.whales.get(m.wallet)!;
      return {
        name: whale.name,
        wr: whale.winRate,
        pnl: whale.totalPnl,
        wallet: m.wallet,
        capital_usd: m.capitalUsd,
        markets: m.conditionIds.length,
      };
    }),
    markets: c.markets.map((m) => {
      const market = index.byConditionId.get(m.conditionId)!;
      return {
        market_id: market.id,
        question: market.question,
        condition_id: m.conditionId,
        whale_count: m.wallets.length,
        capital_usd: m.capitalUsd,
      };
    }),
  }));
  return { clusters, as_of: view.asOf };
}
