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
  /** Per `wallet, month, entry type, role`: fees, volume (micro-units), fills, fills charged. */
  private readonly sums = new Map<string, [number, number, number, number]>();
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
    const key = [wallet, month, feeEntryType(fill.entry_type), feeRole(fill.role)].join(SEPARATOR);
    const sum = this.sums.get(key);
    const paid = fill.fee ?? 0;
    if (sum) {
      sum[0] += paid;
      sum[1] += usd;
      sum[2] += 1;
      sum[3] += paid > 0 ? 1 : 0;
    } else this.sums.set(key, [paid, usd, 1, paid > 0 ? 1 : 0]);
  }

  /** The sums as rows of the table. */
  rows(): WalletFeesTable[] {
    return [...this.sums].map(([key, [fees, volume, fills, charged]]) => {
      const [wallet, month, entryType, role] = key.split(SEPARATOR) as [
        string,
        string,
        WalletFeesTable["entry_type"],
        WalletFeesTable["role"],
      ];
      return { wallet, month, entry_type: entryType, role, fees, volume, fills, charged };
    });
  }

  clear(): void {
    this.sums.clear();
  }

  /** The rows, the sums then cleared (the next ones are counted from zero). */
  take(): WalletFeesTable[] {
    const rows = this.rows();
    this.clear();
    return rows;
  }
}
