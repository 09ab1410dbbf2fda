/**
 * Ahead of the news (docs/METRICS.md, "Ahead of the news"): around a territory event, did the linked market move,
 * and which wallets had traded toward the side it moved to in the hours before. Prices are of the YES outcome (a
 * NO fill at q counts as YES at 1 - q); amounts in dollars and shares, from the stored micro-units.
 */
import { effectiveTrade } from "./market-sides.js";
import type { Direction, EntryType, OutcomeIndex } from "./types.js";
import { MICRO } from "../venue/units.js";

const HOUR = 3_600;

/** One stored fill of the market, as one wallet's side of it. */
export interface NewsTrade {
  readonly wallet: string;
  readonly txHash: string;
  readonly ts: number;
  readonly outcomeIndex: OutcomeIndex;
  readonly side: Direction;
  /** Shares, micro-units. */
  readonly size: number;
  /** Collateral, micro-units. */
  readonly usd: number;
  /** The traded outcome's price, 0..1 (as stored). */
  readonly price: number;
  readonly entryType: EntryType | null;
}

export interface AheadRules {
  /** How long before the event a trade counts as ahead of it. */
  readonly hoursBefore: number;
  /** The price after the event: the last trade within this many hours of it. */
  readonly hoursAfter: number;
  /** The YES price must move this much (0..1) for the event to have moved the market. */
  readonly minMove: number;
  /** A wallet counts from this much collateral on the side the market moved to (USD). */
  readonly minUsd: number;
}

export interface MarketMove {
  /** YES price of the last trade before the window opened. */
  readonly priceWindowStart: number | null;
  /** YES price of the last trade at or before the event. */
  readonly priceBefore: number | null;
  /** YES price of the last trade within `hoursAfter` after the event. */
  readonly priceAfter: number | null;
  /** priceAfter - priceBefore. */
  readonly move: number | null;
  /** The outcome the move favoured, when it reached `minMove`. */
  readonly rising: OutcomeIndex | null;
}

export interface AheadWallet {
  readonly wallet: string;
  /** The outcome its trades favoured: the one that rose. */
  readonly outcomeIndex: OutcomeIndex;
  /** Shares of that outcome its trades amounted to (a sale of the other outcome counts as a purchase of this one). */
  readonly shares: number;
  /** What those shares cost, at the rising outcome's price. */
  readonly usd: number;
  readonly avgPrice: number;
  /** What the shares gained from their cost to the price after the event. */
  readonly gainUsd: number;
  readonly firstTs: number;
  readonly lastTs: number;
  /** Hours from its first such trade to the event. */
  readonly leadHours: number;
  readonly trades: readonly NewsTrade[];
}

export interface AheadOfNews {
  readonly move: MarketMove;
  /** Empty unless the event moved the market; the largest first. */
  readonly wallets: readonly AheadWallet[];
}

/** The YES price a fill traded at, micro-units: exact, so a move compares with its minimum without rounding errors. */
function yesPriceMicro(trade: Pick<NewsTrade, "outcomeIndex" | "price">): number {
  const price = Math.round(trade.price * MICRO);
  return trade.outcomeIndex === 0 ? price : MICRO - price;
}

/** The YES price a fill traded at, 0..1. */
export function yesPrice(trade: Pick<NewsTrade, "outcomeIndex" | "price">): number {
  return yesPriceMicro(trade) / MICRO;
}

/** The last of `trades` (time order) within [from, to], by YES price in micro-units. */
function lastPriceMicro(trades: readonly NewsTrade[], from: number, to: number): number | null {
  for (let i = trades.length - 1; i >= 0; i--) {
    const t = trades[i]!;
    if (t.ts >= from && t.ts <= to) return yesPriceMicro(t);
  }
  return null;
}

/**
 * How the market moved across the event. `trades` in time order cover at least the window before the event and
 * `hoursAfter` after it; `priceWindowStart` is passed in, read from before the window.
 */
function marketMove(
  trades: readonly NewsTrade[],
  eventTs: number,
  rules: AheadRules,
  priceWindowStart: number | null,
): MarketMove {
  const before =
    lastPriceMicro(trades, Number.NEGATIVE_INFINITY, eventTs) ??
    (priceWindowStart === null ? null : Math.round(priceWindowStart * MICRO));
  const after = lastPriceMicro(trades, eventTs + 1, eventTs + rules.hoursAfter * HOUR);
  const move = before === null || after === null ? null : after - before;
  const rising = move === null || Math.abs(move) < Math.round(rules.minMove * MICRO) ? null : move > 0 ? 0 : 1;
  return {
    priceWindowStart,
    priceBefore: before === null ? null : before / MICRO,
    priceAfter: after === null ? null : after / MICRO,
    move: move === null ? null : move / MICRO,
    rising,
  };
}

/**
 * What a fill did toward `rising`: shares of it bought and their cost, or null when it went the other way. A sale of
 * the other outcome for p a share is a purchase of `rising` for 1 - p (a pair of outcomes pays one dollar).
 */
function toward(trade: NewsTrade, rising: OutcomeIndex): { shares: number; cost: number } | null {
  const effective = effectiveTrade(trade);
  const shares = trade.size / MICRO;
  const usd = effective.usd / MICRO;
  if (shares <= 0) return null;
  if (effective.outcomeIndex === rising && effective.buying) return { shares, cost: usd };
  if (effective.outcomeIndex !== rising && !effective.buying) return { shares, cost: shares - usd };
  return null;
}

/** The move across the event and, when it moved the market, the wallets that traded toward it before. */
export function aheadOfNews(
  trades: readonly NewsTrade[],
  eventTs: number,
  rules: AheadRules,
  priceWindowStart: number | null,
): AheadOfNews {
  const move = marketMove(trades, eventTs, rules, priceWindowStart);
  if (move.rising === null || move.priceAfter === null) return { move, wallets: [] };
  const rising = move.rising;
  const afterPrice = rising === 0 ? move.priceAfter : 1 - move.priceAfter;
  const from = eventTs - rules.hoursBefore * HOUR;
  const byWallet = new Map<string, { shares: number; cost: number; trades: NewsTrade[] }>();
  for (const trade of trades) {
    if (trade.ts < from || trade.ts > eventTs) continue;
    const part = toward(trade, rising);
    if (!part) continue;
    const sums = byWallet.get(trade.wallet) ?? { shares: 0, cost: 0, trades: [] };
    sums.shares += part.shares;
    sums.cost += part.cost;
    sums.trades.push(trade);
    byWallet.set(trade.wallet, sums);
  }
  const wallets: AheadWallet[] = [];
  for (const [wallet, sums] of byWallet) {
    if (sums.cost < rules.minUsd) continue;
    const firstTs = sums.trades[0]!.ts;
    wallets.push({
      wallet,
      outcomeIndex: rising,
      shares: sums.shares,
      usd: sums.cost,
      avgPrice: sums.cost / sums.shares,
      gainUsd: sums.shares * afterPrice - sums.cost,
      firstTs,
      lastTs: sums.trades.at(-1)!.ts,
      leadHours: (eventTs - firstTs) / HOUR,
      trades: sums.trades,
    });
  }
  wallets.sort((a, b) => b.usd - a.usd || (a.wallet < b.wallet ? -1 : 1));
  return { move, wallets };
}
