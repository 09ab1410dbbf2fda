/**
 * A wallet's trades in one market summed per outcome side (docs/METRICS.md, wallet-market summary): tokens and USD
 * bought and sold, net, the count of trades, their first and last time, and the average entry price by the venue's
 * reference average-cost method (src/ledger/fixed-point.ts), the rule `PositionTable.buy` and `sell` apply.
 * Only trades (fills) count: splits, merges, conversions, redemptions and resolutions are not trades.
 */
import { fillPrice, weightedAveragePrice } from "./fixed-point.js";
import type { Direction, EntryType, OutcomeIndex } from "./types.js";

/** One of the wallet's fills in the market, as stored; applied in the order given (time, then chain order). */
export interface SideTrade {
  readonly outcomeIndex: OutcomeIndex;
  readonly side: Direction;
  /** Shares, micro-units. */
  readonly size: number;
  /** Collateral, micro-units. */
  readonly usd: number;
  readonly ts: number;
  readonly entryType: EntryType | null;
}

/** One outcome side's sums; amounts in micro-units, the average price in micro-units of a dollar per share. */
export interface SideTotals {
  buyTokens: number;
  buyCost: number;
  sellTokens: number;
  sellProceeds: number;
  trades: number;
  /** The reference method's average price of the shares held (or last held); null before any buy. */
  avgPrice: number | null;
  /** Shares the reference method holds: sells beyond them book nothing. */
  held: number;
  firstTs: number | null;
  lastTs: number | null;
}

const emptySide = (): SideTotals => ({
  buyTokens: 0,
  buyCost: 0,
  sellTokens: 0,
  sellProceeds: 0,
  trades: 0,
  avgPrice: null,
  held: 0,
  firstTs: null,
  lastTs: null,
});

/**
 * What a fill does to the wallet, as the ledger reads it (`applyFill` in state.ts): a MINT match has only buyers and
 * a MERGE only sellers, so a "SELL" settled as MINT is a buy of the other outcome at `size - usd`, and a "BUY"
 * settled as MERGE a sale of the other outcome for `size - usd`.
 */
export function effectiveTrade(trade: SideTrade): { outcomeIndex: OutcomeIndex; buying: boolean; usd: number } {
  const buying = trade.side === "BUY";
  if ((trade.entryType === "MINT" && !buying) || (trade.entryType === "MERGE" && buying)) {
    return {
      outcomeIndex: (1 - trade.outcomeIndex) as OutcomeIndex,
      buying: !buying,
      usd: trade.size > trade.usd ? trade.size - trade.usd : 0,
    };
  }
  return { outcomeIndex: trade.outcomeIndex, buying, usd: trade.usd };
}

/** The YES (index 0) and NO (index 1) sides of a wallet's trades in one market, in the order given. */
export function marketSides(trades: Iterable<SideTrade>): [SideTotals, SideTotals] {
  const sides: [SideTotals, SideTotals] = [emptySide(), emptySide()];
  for (const trade of trades) {
    const effect = effectiveTrade(trade);
    const s = sides[effect.outcomeIndex];
    if (effect.buying) {
      const price = fillPrice(effect.usd, trade.size);
      s.avgPrice = weightedAveragePrice(s.avgPrice ?? 0, s.held, price, trade.size);
      s.held += trade.size;
      s.buyTokens += trade.size;
      s.buyCost += effect.usd;
    } else {
      s.held -= Math.min(trade.size, s.held);
      s.sellTokens += trade.size;
      s.sellProceeds += effect.usd;
    }
    s.trades++;
    s.firstTs ??= trade.ts;
    s.lastTs = trade.ts;
  }
  return sides;
}
