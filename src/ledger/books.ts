/**
 * The ledger's position records and the venue's reference buy and sell (docs/METRICS.md, positions and P&L).
 *
 * Positions live in one Float64Array, a fixed-width record each, found through a small open-addressing
 * table per wallet and chained per wallet and per market. Replaying millions of fills then allocates
 * nothing per fill or per position that the garbage collector has to trace, and a fill touches a few
 * adjacent cache lines instead of scattered objects. Amounts are micro-unit integers (exact in a double
 * up to 2^53).
 */
import { realizedDelta, weightedAveragePrice } from "./fixed-point.js";

export const SECONDS_PER_DAY = 86_400;

/** UTC calendar date of a unix-seconds day number. */
export const isoDay = (day: number): string => new Date(day * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10);

/** Index of a token in the ledger: `conditionIndex * 2 + outcomeIndex`, so `token ^ 1` is the other side. */
export type TokenIndex = number;

// Field offsets of a position record. The fields every fill touches come first.
const SHARES = 0;
const AVG_PRICE = 1;
const TOTAL_BOUGHT = 2;
const REALIZED = 3;
const FEES = 4;
const LAST_TS = 5;
const FILLS = 6;
const VOLUME = 7;
const FLAGS = 8;
const FIRST_TS = 9;
const FIRST_BUY_TS = 10;
const CLOSED_TS = 11;
const WALLET = 12;
const TOKEN = 13;
const NEXT_OF_WALLET = 14;
const NEXT_IN_MARKET = 15;
/** The same wallet's position on the other side of the market; -1 until it exists. */
const SIBLING = 16;
/** The largest balance (smaller side's shares / larger side's) reached while both sides of the market were held. */
const HEDGE = 17;
const STRIDE = 18;

const OPEN = 1;
/** The market's resolution has been applied to this position. */
const RESOLVED = 4;

/** A copy of one position's record, for reading. Money and shares in micro-units. */
export interface Position {
  readonly index: number;
  readonly walletId: number;
  readonly token: TokenIndex;
  readonly conditionIndex: number;
  readonly outcomeIndex: 0 | 1;
  readonly shares: number;
  /** Average entry price, micro-units (0.57 = 570000), truncated as the venue truncates it. */
  readonly avgPrice: number;
  readonly totalBought: number;
  /** Realized P&L before fees: the venue's `realizedPnl`. */
  readonly realizedPnl: number;
  readonly fees: number;
  readonly firstTs: number;
  /** Last event that touched the position (fill, split, merge, conversion, redemption). */
  readonly lastTs: number;
  /** -1 when never bought. */
  readonly firstBuyTs: number;
  /** When the position last stopped being open; -1 while open or never held. */
  readonly closedTs: number;
  /** Holds shares in a market whose resolution has not been applied to it. */
  readonly open: boolean;
  /** The market's resolution has been applied to it. */
  readonly resolved: boolean;
  /** Fills on this token and their usd. */
  readonly fills: number;
  readonly volume: number;
  /** At some moment the wallet held both this token and the other side of its market. */
  readonly heldBothSides: boolean;
  /** The largest balance of the two sides (smaller / larger shares) while both were held; 0 when never. */
  readonly hedge: number;
}

export class PositionTable {
  private data: Float64Array;
  count = 0;
  /**
   * Each wallet finds its positions in its own small open-addressing region of `pool`: slots of
   * [condition, YES position + 1, NO position + 1] (0 for none), so that finding a position also finds the
   * wallet's other side, and a wallet's lookups stay within a few cache lines. `regions` holds per wallet
   * [start slot, size (a power of 2, 0 before the first position), markets used]. A full region moves to a
   * twice larger one at the end of the pool (the old one is left behind: at most half the pool).
   */
  private regions: Int32Array = new Int32Array(3 * 1_024);
  private pool: Int32Array;
  private poolUsed = 0;

  /** `capacity`: positions expected (a rebuild knows roughly), to avoid growing the tables on the way. */
  constructor(capacity = 1_024) {
    const size = Math.max(1_024, capacity);
    this.data = new Float64Array(STRIDE * size);
    this.pool = new Int32Array(3 * 4 * size);
  }

  find(wallet: number, token: TokenIndex): number {
    const at = this.slotOf(wallet, token >> 1);
    return at < 0 ? -1 : this.pool[at + 1 + (token & 1)]! - 1;
  }

  /** Appends an empty position; the caller links it into its wallet and market chains. */
  create(wallet: number, token: TokenIndex, ts: number, nextOfWallet: number, nextInMarket: number): number {
    const index = this.count++;
    if (this.count * STRIDE > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const o = index * STRIDE;
    const d = this.data;
    d[o + FIRST_TS] = ts;
    d[o + LAST_TS] = ts;
    d[o + FIRST_BUY_TS] = -1;
    d[o + CLOSED_TS] = -1;
    d[o + WALLET] = wallet;
    d[o + TOKEN] = token;
    d[o + NEXT_OF_WALLET] = nextOfWallet;
    d[o + NEXT_IN_MARKET] = nextInMarket;
    let at = this.slotOf(wallet, token >> 1);
    if (at < 0) at = this.newSlot(wallet, token >> 1);
    const sibling = this.pool[at + 1 + ((token & 1) ^ 1)]! - 1;
    this.pool[at + 1 + (token & 1)] = index + 1;
    d[o + SIBLING] = sibling;
    if (sibling >= 0) d[sibling * STRIDE + SIBLING] = index;
    return index;
  }

  read(p: number): Position {
    const d = this.data;
    const o = p * STRIDE;
    const token = d[o + TOKEN]!;
    const flags = d[o + FLAGS]!;
    return {
      index: p,
      walletId: d[o + WALLET]!,
      token,
      conditionIndex: token >> 1,
      outcomeIndex: (token & 1) as 0 | 1,
      shares: d[o + SHARES]!,
      avgPrice: d[o + AVG_PRICE]!,
      totalBought: d[o + TOTAL_BOUGHT]!,
      realizedPnl: d[o + REALIZED]!,
      fees: d[o + FEES]!,
      firstTs: d[o + FIRST_TS]!,
      lastTs: d[o + LAST_TS]!,
      firstBuyTs: d[o + FIRST_BUY_TS]!,
      closedTs: d[o + CLOSED_TS]!,
      open: (flags & OPEN) !== 0,
      resolved: (flags & RESOLVED) !== 0,
      fills: d[o + FILLS]!,
      volume: d[o + VOLUME]!,
      heldBothSides: d[o + HEDGE]! > 0,
      hedge: d[o + HEDGE]!,
    };
  }

  shares(p: number): number {
    return this.data[p * STRIDE + SHARES]!;
  }
  avgPrice(p: number): number {
    return this.data[p * STRIDE + AVG_PRICE]!;
  }
  token(p: number): TokenIndex {
    return this.data[p * STRIDE + TOKEN]!;
  }
  walletOf(p: number): number {
    return this.data[p * STRIDE + WALLET]!;
  }
  nextOfWallet(p: number): number {
    return this.data[p * STRIDE + NEXT_OF_WALLET]!;
  }
  sibling(p: number): number {
    return this.data[p * STRIDE + SIBLING]!;
  }
  nextInMarket(p: number): number {
    return this.data[p * STRIDE + NEXT_IN_MARKET]!;
  }
  isOpen(p: number): boolean {
    return (this.data[p * STRIDE + FLAGS]! & OPEN) !== 0;
  }
  isResolved(p: number): boolean {
    return (this.data[p * STRIDE + FLAGS]! & RESOLVED) !== 0;
  }
  markResolved(p: number): void {
    const o = p * STRIDE;
    this.data[o + FLAGS] = this.data[o + FLAGS]! | RESOLVED;
  }

  /** Realized P&L minus fees. */
  net(p: number): number {
    const o = p * STRIDE;
    return this.data[o + REALIZED]! - this.data[o + FEES]!;
  }

  /** The reference buy: the average moves by weight of amounts, truncated; nothing for q <= 0. */
  buy(p: number, price: number, quantity: number, ts: number): void {
    if (quantity <= 0) return;
    const d = this.data;
    const o = p * STRIDE;
    d[o + AVG_PRICE] = weightedAveragePrice(d[o + AVG_PRICE]!, d[o + SHARES]!, price, quantity);
    d[o + SHARES] = d[o + SHARES]! + quantity;
    d[o + TOTAL_BOUGHT] = d[o + TOTAL_BOUGHT]! + quantity;
    if (d[o + FIRST_BUY_TS]! < 0) d[o + FIRST_BUY_TS] = ts;
  }

  /**
   * The reference sell: only shares the ledger knows of can be sold (tokens obtained outside the tracked
   * flows earn no P&L); the average price is unchanged.
   */
  sell(p: number, price: number, quantity: number): void {
    const d = this.data;
    const o = p * STRIDE;
    const held = d[o + SHARES]!;
    const sold = quantity > held ? held : quantity;
    if (sold <= 0) return;
    d[o + REALIZED] = d[o + REALIZED]! + realizedDelta(sold, price - d[o + AVG_PRICE]!);
    d[o + SHARES] = held - sold;
  }

  addFill(p: number, fee: number, usd: number): void {
    const d = this.data;
    const o = p * STRIDE;
    d[o + FEES] = d[o + FEES]! + fee;
    d[o + FILLS] = d[o + FILLS]! + 1;
    d[o + VOLUME] = d[o + VOLUME]! + usd;
  }

  /** When the position last closed (unix seconds); -1 while open, or before its first close. */
  closedAt(p: number): number {
    return this.data[p * STRIDE + CLOSED_TS]!;
  }

  touch(p: number, ts: number): void {
    this.data[p * STRIDE + LAST_TS] = ts;
  }

  /**
   * Records whether the position is open; returns 1 when it just closed (at `ts`), else 0. A position
   * bought only after its market resolved was never open: it counts as closed when first bought.
   */
  setOpen(p: number, open: boolean, ts: number): number {
    const d = this.data;
    const o = p * STRIDE;
    const flags = d[o + FLAGS]!;
    if (((flags & OPEN) !== 0) === open) {
      if (open || d[o + CLOSED_TS]! >= 0 || d[o + TOTAL_BOUGHT] === 0) return 0;
      d[o + CLOSED_TS] = ts;
      return 1;
    }
    d[o + FLAGS] = open ? flags | OPEN : flags & ~OPEN;
    d[o + CLOSED_TS] = open ? -1 : ts;
    return open ? 0 : 1;
  }

  /** Records that both sides were held at once with this balance (smaller / larger shares, 0..1). */
  raiseHedge(p: number, balance: number): void {
    const o = p * STRIDE;
    if (balance > this.data[o + HEDGE]!) this.data[o + HEDGE] = balance;
  }

  /** Offset in `pool` of the wallet's slot for the market, or -1. */
  private slotOf(wallet: number, condition: number): number {
    if (wallet * 3 >= this.regions.length) return -1;
    const size = this.regions[wallet * 3 + 1]!;
    if (size === 0) return -1;
    const start = this.regions[wallet * 3]!;
    const pool = this.pool;
    let h = hashOf(condition) & (size - 1);
    for (;;) {
      const at = (start + h) * 3;
      if (pool[at + 1] === 0 && pool[at + 2] === 0) return -1;
      if (pool[at] === condition) return at;
      h = (h + 1) & (size - 1);
    }
  }

  private newSlot(wallet: number, condition: number): number {
    while (wallet * 3 >= this.regions.length) this.regions = grow(this.regions);
    const r = wallet * 3;
    const used = this.regions[r + 2]! + 1;
    let size = this.regions[r + 1]!;
    if (used * 2 > size) {
      const start = this.regions[r]!;
      const next = Math.max(4, size * 2);
      const nextStart = this.allocate(next);
      for (let i = 0; i < size; i++) {
        const from = (start + i) * 3;
        if (this.pool[from + 1] === 0 && this.pool[from + 2] === 0) continue;
        this.pool.copyWithin(this.emptySlot(nextStart, next, this.pool[from]!), from, from + 3);
      }
      this.regions[r] = nextStart;
      this.regions[r + 1] = size = next;
    }
    this.regions[r + 2] = used;
    const at = this.emptySlot(this.regions[r]!, size, condition);
    this.pool[at] = condition;
    return at;
  }

  private emptySlot(start: number, size: number, condition: number): number {
    let h = hashOf(condition) & (size - 1);
    while (this.pool[(start + h) * 3 + 1] !== 0 || this.pool[(start + h) * 3 + 2] !== 0) h = (h + 1) & (size - 1);
    return (start + h) * 3;
  }

  /** A region of `slots` empty slots at the end of the pool; returns its first slot. */
  private allocate(slots: number): number {
    while ((this.poolUsed + slots) * 3 > this.pool.length) this.pool = grow(this.pool);
    const start = this.poolUsed;
    this.poolUsed += slots;
    return start;
  }
}

function grow(array: Int32Array): Int32Array {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}

function hashOf(condition: number): number {
  const h = Math.imul(condition + 0x7f4a7c15, 0x9e3779b1);
  return (h ^ (h >>> 15)) >>> 0;
}
