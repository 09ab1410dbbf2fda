/**
 * What the derived tables sum from fills beyond the ledger: market totals, each wallet's 30-day volumes, fee sums,
 * daily sums per wallet, daily prices per market and each wallet's latest fill per market. Every fill is counted
 * once, when it is first seen (a rebuild's stream, then each batch's new fills), so both paths give the same sums.
 */
import { MarketTotals, SECONDS_PER_DAY } from "../ledger/index.js";
import { BOARD_WINDOW_DAYS } from "../store/schema.js";
import { MarketDailyPriceSums } from "./market-daily-prices.js";
import { RecentVolumes } from "./recent-volumes.js";
import type { StoredFill } from "./stored-events.js";
import { WalletDailyFillSums } from "./wallet-daily-fills.js";
import { WalletFeeSums } from "./wallet-fees.js";
import { WalletLastMoves } from "./wallet-last-moves.js";

export class FillCounts {
  readonly marketTotals = new MarketTotals();
  /** Each wallet's 30-day volumes as of the last `advance` (rebuild, refresh). */
  readonly recentVolumes = new RecentVolumes(BOARD_WINDOW_DAYS * SECONDS_PER_DAY);
  /**
   * Fees and volume per wallet, month, entry type and role of the fills counted since the table was last written:
   * every stored fill after a rebuild's replay, a batch's new fills after that.
   */
  readonly walletFees = new WalletFeeSums();
  /** The fills counted here, per wallet and UTC day (`wallet_daily_fills`). */
  readonly walletDailyFills = new WalletDailyFillSums();
  /** Each market's daily prices of the same fills (market-side ones), counted the same way. */
  readonly marketDailyPrices = new MarketDailyPriceSums();
  /** Each wallet's latest fill per market (`wallet_last_moves`), kept the same way. */
  readonly walletLastMoves = new WalletLastMoves();
  /**
   * Stored fills with an id up to this one are left out of the two daily sums and the last moves above: a rebuild's
   * write fills those tables in SQL (keeping them here would hold a row per wallet and day, or wallet and market, of
   * the whole history in memory).
   */
  inSqlThrough = 0;

  /** Counts a fill seen for the first time, stored under `id`. */
  add(fill: StoredFill, id: number): void {
    this.marketTotals.add(fill.condition_id, fill.role, fill.entry_type, fill.usd);
    this.recentVolumes.add(fill.wallet, fill.ts, fill.role, fill.entry_type, fill.usd);
    this.walletFees.add(fill);
    if (id <= this.inSqlThrough) return;
    this.walletDailyFills.add(fill);
    this.marketDailyPrices.add(fill, id);
    this.walletLastMoves.add(fill, id);
  }

  /** Whether sums wait to be added to the stored tables. */
  hasUnwritten(): boolean {
    return (
      this.walletFees.size > 0 ||
      this.walletDailyFills.size > 0 ||
      this.marketDailyPrices.size > 0 ||
      this.walletLastMoves.size > 0
    );
  }

  /** Forgets the sums just added to the stored tables (market totals and 30-day volumes are kept whole). */
  written(): void {
    this.walletFees.clear();
    this.walletDailyFills.clear();
    this.marketDailyPrices.clear();
    this.walletLastMoves.clear();
  }
}
