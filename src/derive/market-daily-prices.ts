/**
 * The rows of `market_daily_prices` (src/store/schema.ts), summed from fills as they are counted:
 * `Derivation.countFill` adds each fill once, as it adds it to its market's totals (market-side fills only, as
 * those). `rebuild` and the Deriver's warm start replace the table with every stored fill's sums: in SQL by the same
 * rules (src/store/market-daily-prices.ts) up to the replay's watermark, here for the fills stored after it. After
 * that, the Deriver counts each committed batch's new fills and adds their sums to the stored rows, the later close
 * kept (batch-applier.ts). Tests hold the SQL and this path to the same table.
 *
 * A day's close is its last fill in (ts, id) order. A fill read from the store has its id; a batch's fill, handed
 * over as inserted, does not: the fills of the latest second of each day stay candidates until `withIds` gives them
 * theirs (read by their keys before the write).
 */
import { countsTowardMarket } from "../ledger/market-totals.js";
import { priceDay, yesPrice } from "../store/market-daily-prices.js";
import type { MarketDailyPricesTable } from "../store/schema.js";
import type { StoredFill } from "./stored-events.js";

interface Close {
  id: number | null;
  readonly key: string;
  readonly yes: number;
}

interface DaySums {
  weighted: number;
  shares: number;
  trades: number;
  usd: number;
  closeTs: number;
  /** The fills at `closeTs`: one when every id is known, else each (the latest id wins). */
  closes: Close[];
}

const SEPARATOR = "\u0000";

export class MarketDailyPriceSums {
  private readonly sums = new Map<string, DaySums>();

  get size(): number {
    return this.sums.size;
  }

  add(
    fill: Pick<StoredFill, "fill_key" | "role" | "condition_id" | "ts" | "outcome_index" | "price" | "size" | "usd">,
    id: number | null,
  ): void {
    if (!countsTowardMarket(fill.role)) return;
    const key = `${fill.condition_id}${SEPARATOR}${priceDay(fill.ts)}`;
    const yes = yesPrice(fill.outcome_index, fill.price);
    const close: Close = { id, key: fill.fill_key, yes };
    const sum = this.sums.get(key);
    if (!sum) {
      this.sums.set(key, {
        weighted: yes * fill.size,
        shares: fill.size,
        trades: 1,
        usd: fill.usd,
        closeTs: fill.ts,
        closes: [close],
      });
      return;
    }
    sum.weighted += yes * fill.size;
    sum.shares += fill.size;
    sum.trades += 1;
    sum.usd += fill.usd;
    if (fill.ts > sum.closeTs) {
      sum.closeTs = fill.ts;
      sum.closes = [close];
    } else if (fill.ts === sum.closeTs) {
      const only = sum.closes.length === 1 ? sum.closes[0]! : null;
      if (id !== null && only?.id != null) {
        if (id > only.id) sum.closes[0] = close;
      } else sum.closes.push(close);
    }
  }

  /** The keys of the close candidates whose ids are not known yet. */
  missingIds(): string[] {
    const keys: string[] = [];
    for (const sum of this.sums.values()) for (const c of sum.closes) if (c.id === null) keys.push(c.key);
    return keys;
  }

  /** Gives the candidates their ids (by fill key). */
  withIds(ids: ReadonlyMap<string, number>): void {
    for (const sum of this.sums.values()) for (const c of sum.closes) if (c.id === null) c.id = ids.get(c.key) ?? null;
  }

  /** The sums as rows of the table (each candidate's id known: see `withIds`). */
  rows(): MarketDailyPricesTable[] {
    return [...this.sums].map(([key, s]) => {
      const [conditionId, day] = key.split(SEPARATOR) as [string, string];
      let close = s.closes[0]!;
      for (const c of s.closes) if ((c.id ?? -1) > (close.id ?? -1)) close = c;
      if (close.id === null) throw new Error(`market_daily_prices: no id for the close ${close.key}`);
      return {
        condition_id: conditionId,
        day: Number(day),
        weighted: s.weighted,
        shares: s.shares,
        trades: s.trades,
        usd: s.usd,
        close_ts: s.closeTs,
        close_id: close.id,
        close_yes: close.yes,
      };
    });
  }

  clear(): void {
    this.sums.clear();
  }

  /** The rows, the sums then cleared (the next ones are counted from zero). */
  take(): MarketDailyPricesTable[] {
    const rows = this.rows();
    this.clear();
    return rows;
  }
}
