/**
 * Each wallet's MINT, MERGE, maker and total volume over a sliding window of its own fills: the fills with
 * ts in (end - window, end], the end moved by `advance` (the clock of a rebuild or refresh). Fills are added
 * once each, as they come (as market totals are), so the stream of a rebuild and the batches of the incremental
 * path give the same sums. The fills still inside the window are kept (compactly, by hour) to be taken out when
 * the window passes them; fills after asOf wait for the next `advance`.
 */
import type { EntryType } from "../store/schema.js";

export interface WindowVolumes {
  /** Micro-units. */
  readonly mint: number;
  readonly merge: number;
  readonly maker: number;
  readonly total: number;
}

const MINT = 1;
const MERGE = 2;
const MAKER = 4;
const HOUR = 3_600;

/** Fills of one hour: wallet id, ts, usd and kind flags, four numbers per fill. */
type Bucket = number[];

export class RecentVolumes {
  private readonly ids = new Map<string, number>();
  private readonly addresses: string[] = [];
  private mint: number[] = [];
  private merge: number[] = [];
  private maker: number[] = [];
  private total: number[] = [];
  /** Counted fills by hour of ts. */
  private readonly buckets = new Map<number, Bucket>();
  /** Fills after asOf, not counted yet. */
  private ahead: Bucket = [];
  private asOf = Number.NEGATIVE_INFINITY;
  private readonly changed = new Set<number>();

  constructor(private readonly windowSeconds: number) {}

  private get lower(): number {
    return this.asOf - this.windowSeconds;
  }

  add(wallet: string, ts: number, role: "maker" | "taker" | null, entryType: EntryType | null, usd: number): void {
    if (ts <= this.lower) return;
    let id = this.ids.get(wallet);
    if (id === undefined) {
      id = this.addresses.length;
      this.ids.set(wallet, id);
      this.addresses.push(wallet);
      this.mint.push(0);
      this.merge.push(0);
      this.maker.push(0);
      this.total.push(0);
    }
    const kind = (entryType === "MINT" ? MINT : entryType === "MERGE" ? MERGE : 0) | (role === "maker" ? MAKER : 0);
    if (ts > this.asOf) this.ahead.push(id, ts, usd, kind);
    else this.count(id, ts, usd, kind);
  }

  /**
   * Moves the window to end at `asOf` (never back); returns the wallets whose sums changed since the last call.
   */
  advance(asOf: number): string[] {
    if (asOf > this.asOf) {
      this.asOf = asOf;
      const lower = this.lower;
      for (const [hour, bucket] of this.buckets) {
        if (hour * HOUR + HOUR - 1 > lower) continue;
        for (let i = 0; i < bucket.length; i += 4) this.take(bucket[i]!, -bucket[i + 2]!, bucket[i + 3]!);
        this.buckets.delete(hour);
      }
      const edge = this.buckets.get(Math.floor(lower / HOUR));
      if (edge) {
        const kept: Bucket = [];
        for (let i = 0; i < edge.length; i += 4) {
          if (edge[i + 1]! <= lower) this.take(edge[i]!, -edge[i + 2]!, edge[i + 3]!);
          else kept.push(edge[i]!, edge[i + 1]!, edge[i + 2]!, edge[i + 3]!);
        }
        this.buckets.set(Math.floor(lower / HOUR), kept);
      }
      const ahead = this.ahead;
      this.ahead = [];
      for (let i = 0; i < ahead.length; i += 4) {
        const ts = ahead[i + 1]!;
        if (ts <= lower) continue;
        if (ts > asOf) this.ahead.push(ahead[i]!, ts, ahead[i + 2]!, ahead[i + 3]!);
        else this.count(ahead[i]!, ts, ahead[i + 2]!, ahead[i + 3]!);
      }
    }
    const out = [...this.changed].map((id) => this.addresses[id]!);
    this.changed.clear();
    return out;
  }

  of(wallet: string): WindowVolumes {
    const id = this.ids.get(wallet);
    if (id === undefined) return { mint: 0, merge: 0, maker: 0, total: 0 };
    return { mint: this.mint[id]!, merge: this.merge[id]!, maker: this.maker[id]!, total: this.total[id]! };
  }

  private count(id: number, ts: number, usd: number, kind: number): void {
    const hour = Math.floor(ts / HOUR);
    let bucket = this.buckets.get(hour);
    if (!bucket) this.buckets.set(hour, (bucket = []));
    bucket.push(id, ts, usd, kind);
    this.take(id, usd, kind);
  }

  /** Adds `usd` (negative: takes it out) to the wallet's sums. */
  private take(id: number, usd: number, kind: number): void {
    this.total[id]! += usd;
    if (kind & MINT) this.mint[id]! += usd;
    if (kind & MERGE) this.merge[id]! += usd;
    if (kind & MAKER) this.maker[id]! += usd;
    this.changed.add(id);
  }
}
