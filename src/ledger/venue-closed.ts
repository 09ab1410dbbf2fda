/**
 * The venue's closed-positions list as the ledger computes it from the wallet's complete history: the rows the venue's
 * `/closed-positions` holds and the counters its UI shows (docs/METRICS.md, `win_source`). The venue books positions
 * by the same reference method as the ledger, so where the ledger holds the wallet's whole history these are the
 * venue's own rows, never truncated.
 */
import { MICRO } from "../venue/units.js";
import type { LedgerState } from "./state.js";
import type { VenueClosedPositions } from "./stats.js";
import type { WalletBook } from "./wallets.js";

/**
 * A position the venue lists as closed: it bought something and one of the wallet's own events (a sale, a merge, a
 * conversion, a redemption) brought it to zero shares. A loser the wallet never redeemed is not one: the venue still
 * lists its shares (redeemable, worth 0) while the ledger closed it at its market's resolution.
 */
export function isVenueListedClosed(state: LedgerState, p: number): boolean {
  const position = state.positions.read(p);
  if (position.totalBought === 0 || position.shares !== 0) return false;
  const resolvedAt = state.markets.resolvedAt[position.conditionIndex] as number;
  return !(position.resolved && position.closedTs === resolvedAt && position.lastTs < resolvedAt);
}

/**
 * The wallet's venue-listed closed positions, each a win when the venue's `realizedPnl` (the ledger's realized P&L:
 * before fees, as the venue reports it) is positive and a loss when negative; gross profit and loss in USD.
 */
export function venueClosedPositions(state: LedgerState, book: WalletBook): VenueClosedPositions {
  let held = 0;
  let wins = 0;
  let losses = 0;
  let grossProfit = 0;
  let grossLoss = 0;
  for (const p of state.positionIndices(book)) {
    if (!isVenueListedClosed(state, p)) continue;
    const realized = state.positions.read(p).realizedPnl;
    held++;
    if (realized > 0) {
      wins++;
      grossProfit += realized;
    } else if (realized < 0) {
      losses++;
      grossLoss -= realized;
    }
  }
  return { held, wins, losses, grossProfit: grossProfit / MICRO, grossLoss: grossLoss / MICRO };
}
