/**
 * The whale consensus of a market (docs/METRICS.md, market consensus): a Smart Money wallet stands on the YES (NO)
 * team when its net open position at cost, YES cost minus NO cost, is YES (NO) by at least the consensus minimum.
 * Applied by the Deriver to every market (`market_stats.whales_yes`, `whales_no`) and by the routes that read
 * open positions (market holders, whale clusters, alignment).
 */
import { positionCostUsd } from "./valuation.js";
import type { LedgerState } from "./state.js";
import type { OutcomeSide } from "./types.js";
import type { WalletBook } from "./wallets.js";

/** The team a net position at cost (YES cost minus NO cost, USD) stands on; null below `minUsd` or at 0. */
export function teamOf(netCostUsd: number, minUsd: number): OutcomeSide | null {
  if (Math.abs(netCostUsd) < minUsd || netCostUsd === 0) return null;
  return netCostUsd > 0 ? "YES" : "NO";
}

/** The side more whales stand on; null on a tie. */
export function majoritySide(yes: number, no: number): OutcomeSide | null {
  return yes > no ? "YES" : no > yes ? "NO" : null;
}

/** Percent of the whales of a market on its YES team; null when no whale stands on a team. */
export function yesPct(yes: number, no: number): number | null {
  return yes + no > 0 ? (100 * yes) / (yes + no) : null;
}

export interface TeamCounts {
  yes: number;
  no: number;
}

/** Whales on each team of each market, from the open positions of the given Smart Money wallets. */
export function whaleConsensus(
  state: LedgerState,
  whales: Iterable<WalletBook>,
  minUsd: number,
): Map<string, TeamCounts> {
  const out = new Map<string, TeamCounts>();
  for (const book of whales) {
    const netByMarket = new Map<number, number>();
    for (const p of state.positionIndices(book)) {
      const position = state.positions.read(p);
      if (!position.open) continue;
      const cost = positionCostUsd(position);
      const net = netByMarket.get(position.conditionIndex) ?? 0;
      netByMarket.set(position.conditionIndex, position.outcomeIndex === 0 ? net + cost : net - cost);
    }
    for (const [condition, net] of netByMarket) {
      const team = teamOf(net, minUsd);
      if (team === null) continue;
      const conditionId = state.markets.conditionIds[condition]!;
      let c = out.get(conditionId);
      if (!c) out.set(conditionId, (c = { yes: 0, no: 0 }));
      if (team === "YES") c.yes++;
      else c.no++;
    }
  }
  return out;
}
