/**
 * A market's trades and volume as the venue counts them (docs/METRICS.md, market rows): one trade per match, at
 * the taker's notional, split by how the match settled.
 */
import type { EntryType } from "./types.js";

/**
 * A fill counts toward its market when it is the taker's side of its match. Fills of unknown role (Data API
 * rows, which list makers and takers alike) all count: such a store overstates market trades and volume.
 */
export function countsTowardMarket(role: "maker" | "taker" | null): boolean {
  return role !== "maker";
}

export interface MarketTotal {
  trades: number;
  /** Micro-units, by settlement. */
  mint: number;
  merge: number;
  complementary: number;
  unclassified: number;
  /** Trades by settlement (together, `trades`). */
  mintTrades: number;
  mergeTrades: number;
  complementaryTrades: number;
  unclassifiedTrades: number;
}

/** A market's volume, micro-units: every settlement together. */
export function marketVolume(total: Readonly<MarketTotal>): number {
  return total.mint + total.merge + total.complementary + total.unclassified;
}

/** Per market, the trades and volume of every fill so far; fills are added once each, as they come. */
export class MarketTotals {
  private readonly byMarket = new Map<string, MarketTotal>();

  add(conditionId: string, role: "maker" | "taker" | null, entryType: EntryType | null, usd: number): void {
    if (!countsTowardMarket(role)) return;
    let t = this.byMarket.get(conditionId);
    if (!t)
      this.byMarket.set(
        conditionId,
        (t = {
          trades: 0,
          mint: 0,
          merge: 0,
          complementary: 0,
          unclassified: 0,
          mintTrades: 0,
          mergeTrades: 0,
          complementaryTrades: 0,
          unclassifiedTrades: 0,
        }),
      );
    t.trades++;
    if (entryType === "MINT") {
      t.mint += usd;
      t.mintTrades++;
    } else if (entryType === "MERGE") {
      t.merge += usd;
      t.mergeTrades++;
    } else if (entryType === "COMPLEMENTARY") {
      t.complementary += usd;
      t.complementaryTrades++;
    } else {
      t.unclassified += usd;
      t.unclassifiedTrades++;
    }
  }

  markets(): IterableIterator<string> {
    return this.byMarket.keys();
  }

  get(conditionId: string): Readonly<MarketTotal> | undefined {
    return this.byMarket.get(conditionId);
  }
}
