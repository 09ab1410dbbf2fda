/**
 * The rows of `wallet_fees` (src/store/schema.ts), summed from fills as they are counted: `FillCounts.add` (src/derive/fill-counts.ts)
 * adds each fill once, as it adds it to its market's totals. `rebuild` and the Deriver's warm start count every
 * stored fill and replace the table with the sums; after that, the Deriver counts each committed batch's new fills
 * and adds their sums to the stored rows (batch-applier.ts). One path for both, so the table is the same either way.
 */
import { feeEntryType, feeMonth, feeRole } from "../store/wallet-fees.js";
import type { WalletFeesTable } from "../store/schema.js";
import type { StoredFill } from "./stored-events.js";

const DAY = 86_400;
const SEPARATOR = "\u0000";

export class WalletFeeSums {
  /** Per `wallet, month, entry type, role`: the row its fills are summed into (fees and volume in micro-units). */
  private sums = new Map<string, WalletFeesTable>();
  /** The month of each day seen (a fill's month is its day's). */
  private readonly months = new Map<number, string>();

  get size(): number {
    return this.sums.size;
  }

  add(fill: Pick<StoredFill, "wallet" | "ts" | "role" | "entry_type" | "usd" | "fee">): void {
    const { wallet, ts, usd } = fill;
    const day = Math.floor(ts / DAY);
    let month = this.months.get(day);
    if (month === undefined) this.months.set(day, (month = feeMonth(day * DAY)));
    const entryType = feeEntryType(fill.entry_type);
    const role = feeRole(fill.role);
    const key = `${wallet}${SEPARATOR}${month}${SEPARATOR}${entryType}${SEPARATOR}${role}`;
    const row = this.sums.get(key);
    const paid = fill.fee ?? 0;
    const charged = paid > 0 ? 1 : 0;
    if (row) {
      row.fees += paid;
      row.volume += usd;
      row.fills += 1;
      row.charged += charged;
    } else
      this.sums.set(key, { wallet, month, entry_type: entryType, role, fees: paid, volume: usd, fills: 1, charged });
  }

  /** The sums as rows of the table (copies: later fills do not change them). */
  rows(): WalletFeesTable[] {
    return Array.from(this.sums.values(), (row) => ({ ...row }));
  }

  clear(): void {
    this.sums.clear();
  }

  /**
   * The rows, the sums then cleared (the next ones are counted from zero). The rows are the sums themselves, not
   * copies: at 10,000,000 fills they are 567,565, made once.
   */
  take(): WalletFeesTable[] {
    const rows = [...this.sums.values()];
    this.sums = new Map();
    return rows;
  }
}
