/**
 * What positions are worth (docs/METRICS.md, settled and unrealized P&L, and P&L points): a position's cost, its
 * unrealized P&L, a wallet's total P&L as the ledger sees it, and its cumulative settled P&L day by day.
 */
import { SECONDS_PER_DAY, type Position } from "./books.js";
import { MICRO } from "../venue/units.js";
import { realizedDelta } from "./fixed-point.js";
import { sidePayout } from "./markets.js";
import type { LedgerState } from "./state.js";
import type { WalletBook } from "./wallets.js";

/** A position's cost in USD: its shares at their average price. */
export function positionCostUsd(position: Position): number {
  return (position.shares * position.avgPrice) / (MICRO * MICRO);
}

/** Unrealized P&L in USD of a position's shares at `price` (micro-units): shares * (price - average price). */
export function unrealizedPnlUsd(position: Position, price: number): number {
  return (position.shares * (price - position.avgPrice)) / (MICRO * MICRO);
}

/**
 * A position's settled net P&L in USD from its figures as stored (amounts in micro-units, average price 0..1):
 * realized P&L less fees, plus, once its market resolved (`payout` 0..1, else null), the shares it still holds
 * at the payout less their average price. The same rule as `LedgerState.settledNet`.
 */
export function settledNetUsd(
  realizedPnl: number,
  fees: number,
  shares: number,
  avgPrice: number,
  payout: number | null,
): number {
  const settledOpen = payout !== null && shares > 0 ? (shares / MICRO) * (payout - avgPrice) : 0;
  return (realizedPnl - fees) / MICRO + settledOpen;
}

/** The ledger's total P&L of a wallet in USD: settled net P&L plus open positions at current prices. */
export function ledgerTotalPnl(state: LedgerState, book: WalletBook): number {
  let settled = 0;
  let unrealized = 0;
  for (const p of state.positionIndices(book)) {
    const position = state.positions.read(p);
    settled += state.settledNet(p);
    if (!position.open) continue;
    const price = state.markets.currentPrice(position.conditionIndex, position.outcomeIndex);
    if (price !== null) unrealized += unrealizedPnlUsd(position, price);
  }
  return settled / MICRO + unrealized;
}

/** A wallet's P&L at an instant, USD. */
export interface PnlAt {
  readonly t: number;
  readonly pnl: number;
}

/**
 * A wallet's daily P&L from its history: cumulative settled net P&L at the end of each day with a change, dated
 * at that end (00:00 UTC of the next day), as every point is the P&L as of its time (prices of the past are not
 * known to the ledger, so open positions count at cost).
 */
export function dailySettledPnl(state: LedgerState, wallet: string): PnlAt[] {
  const book = state.wallet(wallet);
  if (!book) return [];
  let cumulative = 0;
  return [...book.days.entries()].map(([day, pnl]) => {
    cumulative += pnl;
    return { t: (day + 1) * SECONDS_PER_DAY, pnl: cumulative / MICRO };
  });
}

/**
 * A wallet's total P&L in USD at instant `at`, its events before `at` applied: settled net P&L, a position whose
 * market resolved before `at` at its payout (whether or not the ledger has swept the resolution yet), an open one at
 * `priceOf(token)` (micro-units; null: at cost). The rule of the hourly P&L points (docs/METRICS.md, P&L points).
 */
export function ledgerValueAt(
  state: LedgerState,
  book: WalletBook,
  at: number,
  priceOf: (token: number) => number | null,
): number {
  const { positions: table, markets } = state;
  let settled = 0;
  let unrealized = 0;
  for (const p of state.positionIndices(book)) {
    const shares = table.shares(p);
    const token = table.token(p);
    const condition = token >> 1;
    if (shares === 0 || table.isResolved(p)) settled += state.settledNet(p);
    else if (markets.resolvedBefore(condition, at))
      settled +=
        table.net(p) +
        realizedDelta(shares, sidePayout(markets.payoutYes[condition] as number, token & 1) - table.avgPrice(p));
    else {
      settled += table.net(p);
      const price = priceOf(token);
      if (price !== null) unrealized += (shares * (price - table.avgPrice(p))) / (MICRO * MICRO);
    }
  }
  return settled / MICRO + unrealized;
}
