/**
 * One day of planned work, replayed in time order: match slots and non-trade operations share a timeline so
 * that every balance check sees exactly the transactions before it. Items are columnar and reused across days.
 */
import { BLOCK_TIME_SECONDS, alignUp } from "./chain.js";
import type { Rng } from "./random.js";

export const ITEM_MATCH = 0;
export const ITEM_SPLIT = 1;
export const ITEM_MERGE = 2;
export const ITEM_CONVERT = 3;
export const ITEM_REWARD = 4;
export const ITEM_RESOLVE = 5;
export const ITEM_REDEEM = 6;
export const ITEM_SWEEP = 7;
/** One order of an informed bet (informed-trading.ts). */
export const ITEM_INFORMED_BET = 8;

export interface PlannedItem {
  ts: number;
  kind: number;
  a: number;
  b: number;
  x: number;
  y: number;
}

export class DayItems {
  count = 0;
  ts = new Uint32Array(1024);
  kind = new Uint8Array(1024);
  /** Wallet or market (per kind). */
  a = new Int32Array(1024);
  /** Market or event (per kind). */
  b = new Int32Array(1024);
  /** Amounts (per kind). */
  x = new Float64Array(1024);
  y = new Float64Array(1024);
  private keys = new Float64Array(1024);

  clear(): void {
    this.count = 0;
  }

  push(ts: number, kind: number, a: number, b = 0, x = 0, y = 0): void {
    if (this.count === this.ts.length) this.grow();
    const i = this.count++;
    this.ts[i] = ts;
    this.kind[i] = kind;
    this.a[i] = a;
    this.b[i] = b;
    this.x[i] = x;
    this.y[i] = y;
  }

  /** Item indexes in time order (ties keep the order of pushing). */
  order(dayStart: number): Int32Array {
    const n = this.count;
    const keys = this.keys.subarray(0, n);
    // Sorting plain numbers is fast: key = block slot within the day, then the push order.
    for (let i = 0; i < n; i++) keys[i] = Math.floor((this.ts[i]! - dayStart) / BLOCK_TIME_SECONDS) * 4_194_304 + i;
    keys.sort();
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = keys[i]! % 4_194_304;
    return out;
  }

  private grow(): void {
    const cap = this.ts.length * 2;
    const g = <T extends Uint32Array | Uint8Array | Int32Array | Float64Array>(a: T): T => {
      const next = new (a.constructor as new (n: number) => T)(cap);
      next.set(a);
      return next;
    };
    this.ts = g(this.ts);
    this.kind = g(this.kind);
    this.a = g(this.a);
    this.b = g(this.b);
    this.x = g(this.x);
    this.y = g(this.y);
    this.keys = new Float64Array(cap);
  }
}

/** A uniformly random block instant in [lo, hi), or -1 when the window holds none. */
export function randomInstant(rng: Rng, lo: number, hi: number): number {
  const first = alignUp(lo);
  if (first >= hi) return -1;
  const slots = Math.floor((hi - 1 - first) / BLOCK_TIME_SECONDS) + 1;
  return first + BLOCK_TIME_SECONDS * rng.int(slots);
}
