/**
 * Per-wallet aggregates, kept like positions in one Float64Array record per wallet, so that a fill
 * touches one cache line of its wallet. The current UTC day's realized P&L accumulates in the record
 * and moves to the wallet's DayLog when the day changes (or before a read), so the log itself is
 * touched once per wallet-day rather than once per fill.
 */
import { SECONDS_PER_DAY } from "./books.js";

const TRADES = 0;
const VOLUME = 1;
const LAST_TRADE = 2;
const BUY_USD = 3;
const BUY_SHARES = 4;
const MINT_MERGE_USD = 5;
const INCOME = 6;
const FIRST_POSITION = 7;
const POSITION_COUNT = 8;
const DAY = 9;
const DAY_PNL = 10;
const DAY_CLOSES = 11;
/** 1 while the day accumulator holds bookings not yet in the log. */
const DAY_PENDING = 12;
const SPLIT_MERGE_USD = 13;
const STRIDE = 14;

/**
 * Realized P&L (net of fees) booked per UTC day and positions closed that day, as packed
 * (day, pnl, closes) triples in day order. Bookings come mostly in day order (an append or an
 * update of the last day); a resolution booked on an earlier day is inserted in place.
 */
export class DayLog {
  private readonly triples: number[] = [];

  book(day: number, pnl: number, closes: number): void {
    const t = this.triples;
    let i = t.length - 3;
    if (i < 0 || t[i]! < day) {
      t.push(day, pnl, closes);
      return;
    }
    while (i >= 0 && t[i]! > day) i -= 3;
    if (i >= 0 && t[i] === day) {
      t[i + 1]! += pnl;
      t[i + 2]! += closes;
    } else {
      t.splice(i + 3, 0, day, pnl, closes);
    }
  }

  /** The day's totals, by UTC day number (unix seconds / 86400). */
  get(day: number): { pnl: number; closes: number } | undefined {
    const t = this.triples;
    for (let i = t.length - 3; i >= 0 && t[i]! >= day; i -= 3) {
      if (t[i] === day) return { pnl: t[i + 1]!, closes: t[i + 2]! };
    }
    return undefined;
  }

  *entries(): IterableIterator<[day: number, pnl: number, closes: number]> {
    const t = this.triples;
    for (let i = 0; i < t.length; i += 3) yield [t[i]!, t[i + 1]!, t[i + 2]!];
  }
}

/** A copy of one wallet's aggregates, for reading. Money in micro-units. */
export interface WalletBook {
  readonly id: number;
  readonly address: string;
  /** Fills, their usd, and the last fill's time (-1 before any). */
  readonly trades: number;
  readonly volume: number;
  readonly lastTrade: number;
  /** Collateral and shares of buying fills (a MINT sell counted as the buy of the other side). */
  readonly buyUsd: number;
  readonly buyShares: number;
  /** usd of fills settled by MINT or MERGE matches (how the match settled, whoever was on the other side). */
  readonly mintMergeUsd: number;
  /** Collateral of the wallet's own splits and merges (a pair per USD). */
  readonly splitMergeUsd: number;
  /** Rewards and rebates. */
  readonly income: number;
  /** Head of the chain of the wallet's positions in the PositionTable; -1 when none. */
  readonly firstPosition: number;
  readonly positionCount: number;
  readonly days: DayLog;
}

export class WalletTable {
  private data: Float64Array;
  readonly addresses: string[] = [];
  private readonly logs: DayLog[] = [];

  constructor(capacity = 1_024) {
    this.data = new Float64Array(STRIDE * Math.max(1_024, capacity));
  }

  get count(): number {
    return this.addresses.length;
  }

  create(address: string): number {
    const id = this.addresses.length;
    if ((id + 1) * STRIDE > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const o = id * STRIDE;
    this.data[o + LAST_TRADE] = -1;
    this.data[o + FIRST_POSITION] = -1;
    this.data[o + DAY] = -1;
    this.addresses.push(address);
    this.logs.push(new DayLog());
    return id;
  }

  read(id: number): WalletBook {
    this.flushDay(id);
    const d = this.data;
    const o = id * STRIDE;
    return {
      id,
      address: this.addresses[id]!,
      trades: d[o + TRADES]!,
      volume: d[o + VOLUME]!,
      lastTrade: d[o + LAST_TRADE]!,
      buyUsd: d[o + BUY_USD]!,
      buyShares: d[o + BUY_SHARES]!,
      mintMergeUsd: d[o + MINT_MERGE_USD]!,
      splitMergeUsd: d[o + SPLIT_MERGE_USD]!,
      income: d[o + INCOME]!,
      firstPosition: d[o + FIRST_POSITION]!,
      positionCount: d[o + POSITION_COUNT]!,
      days: this.logs[id]!,
    };
  }

  firstPosition(id: number): number {
    return this.data[id * STRIDE + FIRST_POSITION]!;
  }

  addPosition(id: number, position: number): void {
    const o = id * STRIDE;
    this.data[o + FIRST_POSITION] = position;
    this.data[o + POSITION_COUNT] = this.data[o + POSITION_COUNT]! + 1;
  }

  addFill(id: number, usd: number, ts: number, mintOrMerge: boolean): void {
    const d = this.data;
    const o = id * STRIDE;
    d[o + TRADES] = d[o + TRADES]! + 1;
    d[o + VOLUME] = d[o + VOLUME]! + usd;
    if (ts > d[o + LAST_TRADE]!) d[o + LAST_TRADE] = ts;
    if (mintOrMerge) d[o + MINT_MERGE_USD] = d[o + MINT_MERGE_USD]! + usd;
  }

  addBuy(id: number, usd: number, shares: number): void {
    const o = id * STRIDE;
    this.data[o + BUY_USD] = this.data[o + BUY_USD]! + usd;
    this.data[o + BUY_SHARES] = this.data[o + BUY_SHARES]! + shares;
  }

  /** The wallet's own split of `usd` collateral into a pair, or merge of pairs back into `usd`. */
  addSplitMerge(id: number, usd: number): void {
    this.data[id * STRIDE + SPLIT_MERGE_USD] = this.data[id * STRIDE + SPLIT_MERGE_USD]! + usd;
  }

  addIncome(id: number, usd: number): void {
    this.data[id * STRIDE + INCOME] = this.data[id * STRIDE + INCOME]! + usd;
  }

  /** Books a change of settled net P&L and closed positions on the UTC day of `ts`. */
  book(id: number, ts: number, pnl: number, closes: number): void {
    const d = this.data;
    const o = id * STRIDE;
    const day = Math.floor(ts / SECONDS_PER_DAY);
    const current = d[o + DAY]!;
    if (day !== current) {
      if (day < current) {
        this.logs[id]!.book(day, pnl, closes);
        return;
      }
      this.flushDay(id);
      d[o + DAY] = day;
    }
    d[o + DAY_PNL] = d[o + DAY_PNL]! + pnl;
    d[o + DAY_CLOSES] = d[o + DAY_CLOSES]! + closes;
    d[o + DAY_PENDING] = 1;
  }

  private flushDay(id: number): void {
    const d = this.data;
    const o = id * STRIDE;
    if (d[o + DAY_PENDING] === 0) return;
    this.logs[id]!.book(d[o + DAY]!, d[o + DAY_PNL]!, d[o + DAY_CLOSES]!);
    d[o + DAY_PNL] = 0;
    d[o + DAY_CLOSES] = 0;
    d[o + DAY_PENDING] = 0;
  }
}
