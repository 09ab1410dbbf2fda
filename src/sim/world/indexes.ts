/**
 * Lazily built group indexes (fills per wallet, matches per market, ...) as compressed rows: one counting sort
 * over the columns on first use, items ascending (chronological) within each group. Items appended later (live
 * mode) are found by scanning the tail, and the index is rebuilt once the tail grows past a sixteenth.
 */

/** Calls emit(group, item) for every item in [from, to) (an item may belong to several groups, or none). */
export type KeyScan = (from: number, to: number, emit: (group: number, item: number) => void) => void;

export class LazyGroupIndex {
  private offsets = new Int32Array(0);
  private items = new Int32Array(0);
  private covered = -1;

  constructor(
    private readonly groups: number,
    private readonly size: () => number,
    private readonly scan: KeyScan,
  ) {}

  /** Items of `group`, ascending. The array is shared: do not modify it. */
  of(group: number): Int32Array {
    if (group < 0 || group >= this.groups) return new Int32Array(0);
    const n = this.size();
    if (this.covered < 0 || n - this.covered > Math.max(4096, this.covered >> 4)) this.build(n);
    const base = this.items.subarray(this.offsets[group]!, this.offsets[group + 1]!);
    if (this.covered === n) return base;
    const tail: number[] = [];
    this.scan(this.covered, n, (g, i) => {
      if (g === group) tail.push(i);
    });
    if (tail.length === 0) return base;
    const out = new Int32Array(base.length + tail.length);
    out.set(base);
    out.set(tail, base.length);
    return out;
  }

  private build(n: number): void {
    const offsets = new Int32Array(this.groups + 1);
    this.scan(0, n, (g) => {
      offsets[g + 1]!++;
    });
    for (let g = 0; g < this.groups; g++) offsets[g + 1]! += offsets[g]!;
    const items = new Int32Array(offsets[this.groups]!);
    const next = offsets.slice(0, this.groups);
    this.scan(0, n, (g, i) => {
      items[next[g]!++] = i;
    });
    this.offsets = offsets;
    this.items = items;
    this.covered = n;
  }
}

/** Index of the first element of a sorted column (within [0, count)) that is >= value. */
export function lowerBound(column: ArrayLike<number>, count: number, value: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((column[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
