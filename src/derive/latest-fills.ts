/**
 * The latest fill per key in (ts, id) order, kept as fills are counted: a market's close of the day
 * (market-daily-prices.ts), a wallet's last move in a market (wallet-last-moves.ts). A fill read from the store has
 * its id; a batch's fill, handed over as inserted, does not: the fills of a key's latest second stay candidates
 * until `withIds` gives them theirs (read by their fill keys before the write).
 */

interface Candidate<V> {
  id: number | null;
  readonly fillKey: string;
  readonly value: V;
}

interface Latest<V> {
  ts: number;
  /** The fills at `ts`: one when every id is known, else each (the highest id wins). */
  candidates: Candidate<V>[];
}

export interface LatestFill<V> {
  readonly ts: number;
  readonly id: number;
  readonly value: V;
}

export class LatestFills<V> {
  private readonly latest = new Map<string, Latest<V>>();

  constructor(private readonly table: string) {}

  get size(): number {
    return this.latest.size;
  }

  add(key: string, ts: number, id: number | null, fillKey: string, value: V): void {
    const candidate: Candidate<V> = { id, fillKey, value };
    const entry = this.latest.get(key);
    if (!entry) this.latest.set(key, { ts, candidates: [candidate] });
    else if (ts > entry.ts) {
      entry.ts = ts;
      entry.candidates = [candidate];
    } else if (ts === entry.ts) {
      const only = entry.candidates.length === 1 ? entry.candidates[0]! : null;
      if (id !== null && only?.id != null) {
        if (id > only.id) entry.candidates[0] = candidate;
      } else entry.candidates.push(candidate);
    }
  }

  /** The fill keys of the candidates whose ids are not known yet. */
  missingIds(): string[] {
    const keys: string[] = [];
    for (const entry of this.latest.values()) for (const c of entry.candidates) if (c.id === null) keys.push(c.fillKey);
    return keys;
  }

  /** Gives the candidates their ids (by fill key). */
  withIds(ids: ReadonlyMap<string, number>): void {
    for (const entry of this.latest.values())
      for (const c of entry.candidates) if (c.id === null) c.id = ids.get(c.fillKey) ?? null;
  }

  /** The latest fill of `key` (each candidate's id known: see `withIds`). */
  get(key: string): LatestFill<V> | undefined {
    const entry = this.latest.get(key);
    if (!entry) return undefined;
    let latest = entry.candidates[0]!;
    for (const c of entry.candidates) if ((c.id ?? -1) > (latest.id ?? -1)) latest = c;
    if (latest.id === null) throw new Error(`${this.table}: no id for the fill ${latest.fillKey}`);
    return { ts: entry.ts, id: latest.id, value: latest.value };
  }

  /** Every key with its latest fill. */
  entries(): Array<[string, LatestFill<V>]> {
    return [...this.latest.keys()].map((key) => [key, this.get(key)!]);
  }

  clear(): void {
    this.latest.clear();
  }
}
