/**
 * The latest fill per key in (ts, id) order, kept as fills are counted: a market's close of the day
 * (market-daily-prices.ts), a wallet's last move in a market (wallet-last-moves.ts). Every fill comes with its id:
 * read from the store, or given by the writer to a batch's new fills (src/store/fill-rows.ts).
 */

export interface LatestFill<V> {
  readonly ts: number;
  readonly id: number;
  readonly value: V;
}

export class LatestFills<V> {
  private readonly latest = new Map<string, LatestFill<V>>();

  get size(): number {
    return this.latest.size;
  }

  add(key: string, ts: number, id: number, value: V): void {
    const entry = this.latest.get(key);
    if (!entry || ts > entry.ts || (ts === entry.ts && id > entry.id)) this.latest.set(key, { ts, id, value });
  }

  /** The latest fill of `key`. */
  get(key: string): LatestFill<V> | undefined {
    return this.latest.get(key);
  }

  /** Every key with its latest fill. */
  entries(): Array<[string, LatestFill<V>]> {
    return [...this.latest];
  }

  clear(): void {
    this.latest.clear();
  }
}
