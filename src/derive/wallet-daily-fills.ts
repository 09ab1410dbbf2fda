/**
 * The rows of `wallet_daily_fills` (src/store/schema.ts), summed from fills as they are counted, as `wallet_fees`
 * is (src/derive/wallet-fees.ts): `FillCounts.add` (src/derive/fill-counts.ts) adds each fill once; `rebuild` and the Deriver's warm start
 * replace the table with every stored fill's sums (summed in SQL up to the replay's watermark, here after it), the
 * Deriver's batches add theirs to the stored rows.
 */
import type { WalletDailyFillsTable } from "../store/schema.js";
import { dayNumberOf } from "../store/day-numbers.js";
import type { StoredFill } from "./stored-events.js";

const SEPARATOR = "\u0000";

export class WalletDailyFillSums {
  /** Per `wallet, day`: fills, USD (micro-units). */
  private readonly sums = new Map<string, [number, number]>();

  get size(): number {
    return this.sums.size;
  }

  add(fill: Pick<StoredFill, "wallet" | "ts" | "usd">): void {
    const key = `${fill.wallet}${SEPARATOR}${dayNumberOf(fill.ts)}`;
    const sum = this.sums.get(key);
    if (sum) {
      sum[0] += 1;
      sum[1] += fill.usd;
    } else this.sums.set(key, [1, fill.usd]);
  }

  /** The sums as rows of the table. */
  rows(): WalletDailyFillsTable[] {
    return [...this.sums].map(([key, [fills, usd]]) => {
      const [wallet, day] = key.split(SEPARATOR) as [string, string];
      return { wallet, day: Number(day), fills, usd };
    });
  }

  clear(): void {
    this.sums.clear();
  }

  /** The rows, the sums then cleared (the next ones are counted from zero). */
  take(): WalletDailyFillsTable[] {
    const rows = this.rows();
    this.clear();
    return rows;
  }
}
