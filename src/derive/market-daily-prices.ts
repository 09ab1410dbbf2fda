/**
 * The rows of `market_daily_prices` (src/store/schema.ts), summed from fills as they are counted:
 * `FillCounts.add` (src/derive/fill-counts.ts) adds each fill once, as it adds it to its market's totals (market-side fills only, as
 * those). `rebuild` and the Deriver's warm start replace the table with every stored fill's sums: in SQL by the same
 * rules (src/store/market-daily-prices.ts) up to the replay's watermark, here for the fills stored after it. After
 * that, the Deriver counts each committed batch's new fills and adds their sums to the stored rows, the later close
 * kept (batch-applier.ts). Tests hold the SQL and this path to the same table.
 *
 * A day's close is its last fill in (ts, id) order (`LatestFills`: a batch's fills get their ids before the write).
 */
import { countsTowardMarket } from "../ledger/market-totals.js";
import { priceDay, yesPrice } from "../store/market-daily-prices.js";
import type { MarketDailyPricesTable } from "../store/schema.js";
import { LatestFills } from "./latest-fills.js";
import type { StoredFill } from "./stored-events.js";

interface DaySums {
  weighted: number;
  shares: number;
  trades: number;
  usd: number;
}

const SEPARATOR = "\u0000";

export class MarketDailyPriceSums {
  private readonly sums = new Map<string, DaySums>();
  /** Per key, the day's close: its YES price. */
  private readonly closes = new LatestFills<number>();

  get size(): number {
    return this.sums.size;
  }

  add(
    fill: Pick<StoredFill, "role" | "condition_id" | "ts" | "outcome_index" | "price" | "size" | "usd">,
    id: number,
  ): void {
    if (!countsTowardMarket(fill.role)) return;
    const key = `${fill.condition_id}${SEPARATOR}${priceDay(fill.ts)}`;
    const yes = yesPrice(fill.outcome_index, fill.price);
    this.closes.add(key, fill.ts, id, yes);
    const sum = this.sums.get(key);
    if (!sum) {
      this.sums.set(key, { weighted: yes * fill.size, shares: fill.size, trades: 1, usd: fill.usd });
      return;
    }
    sum.weighted += yes * fill.size;
    sum.shares += fill.size;
    sum.trades += 1;
    sum.usd += fill.usd;
  }

  /** The sums as rows of the table. */
  rows(): MarketDailyPricesTable[] {
    return [...this.sums].map(([key, s]) => {
      const [conditionId, day] = key.split(SEPARATOR) as [string, string];
      const close = this.closes.get(key)!;
      return {
        condition_id: conditionId,
        day: Number(day),
        weighted: s.weighted,
        shares: s.shares,
        trades: s.trades,
        usd: s.usd,
        close_ts: close.ts,
        close_id: close.id,
        close_yes: close.value,
      };
    });
  }

  clear(): void {
    this.sums.clear();
    this.closes.clear();
  }

  /** The rows, the sums then cleared (the next ones are counted from zero). */
  take(): MarketDailyPricesTable[] {
    const rows = this.rows();
    this.clear();
    return rows;
  }
}
