/**
 * The in-process answer caches' storage: a Map bounded by its entry count and by bytes (the size each entry is
 * charged when stored), that drops expired entries as it goes. Every write also looks at a few entries in turn
 * (a cursor that wraps around the map), so an entry nobody asks for again leaves within one pass over the map
 * after it expires, not only when it is read. Past either bound the oldest entry goes first: the least recently
 * stored, or the least recently used when reads `refresh` their entry.
 */

/** What a map may hold: entries at most, and bytes at most (0 for either keeps nothing). */
export interface MapBounds {
  maxEntries: number;
  maxBytes: number;
}

/**
 * Bytes charged on top of a key and its value for a Map slot and the entry objects (measured 100 to 140 bytes per
 * entry on Node 20, rounded up, so that many small entries stay within the bound too).
 */
const ENTRY_OVERHEAD_BYTES = 160;

/** Entries each write looks at in turn for expiry: two, so the sweep outpaces the one entry a write adds. */
const SWEEP_PER_WRITE = 2;

const MIB = 1024 * 1024;

/** A budget setting in MiB as bytes. */
export const mebibytes = (mb: number): number => mb * MIB;

interface Slot<V> {
  value: V;
  bytes: number;
  expiresAt: number;
}

/** Calls `visit` on up to `count` entries of `map` in turn, resuming where the last call stopped. */
export class SweepCursor<K, V> {
  private iterator: Iterator<[K, V]> | undefined;

  constructor(private readonly map: Map<K, V>) {}

  /** `visit` may delete the entry it is given (a Map iterator survives it). */
  step(count: number, visit: (key: K, value: V) => void): void {
    const n = Math.min(count, this.map.size);
    for (let i = 0; i < n; i++) {
      let next = (this.iterator ??= this.map.entries()).next();
      if (next.done) {
        this.iterator = this.map.entries();
        next = this.iterator.next();
        if (next.done) return;
      }
      visit(next.value[0], next.value[1]);
    }
  }
}

export class BoundedMap<V> {
  private readonly slots = new Map<string, Slot<V>>();
  private readonly cursor = new SweepCursor(this.slots);
  private totalBytes = 0;

  constructor(private readonly bounds: MapBounds) {}

  get size(): number {
    return this.slots.size;
  }

  /** Bytes charged for the entries held. */
  get bytes(): number {
    return this.totalBytes;
  }

  /** The value of a live entry; an expired one is dropped. `refresh` makes it the most recently used. */
  get(key: string, now: number, refresh = false): V | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    if (slot.expiresAt <= now) {
      this.delete(key);
      return undefined;
    }
    if (refresh) {
      this.slots.delete(key);
      this.slots.set(key, slot);
    }
    return slot.value;
  }

  /**
   * Keeps `value` until `expiresAt` (same unit as `now`; Infinity: until dropped), charged `valueBytes` plus its key
   * and the entry overhead. Returns false when the entry alone exceeds the byte bound (it is not kept).
   */
  set(key: string, value: V, valueBytes: number, expiresAt: number, now: number): boolean {
    this.delete(key);
    this.sweep(now, SWEEP_PER_WRITE);
    const bytes = key.length + valueBytes + ENTRY_OVERHEAD_BYTES;
    if (this.bounds.maxEntries <= 0 || bytes > this.bounds.maxBytes) return false;
    while (this.slots.size >= this.bounds.maxEntries || this.totalBytes + bytes > this.bounds.maxBytes) {
      this.delete(this.slots.keys().next().value!);
    }
    this.slots.set(key, { value, bytes, expiresAt });
    this.totalBytes += bytes;
    return true;
  }

  delete(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    this.slots.delete(key);
    this.totalBytes -= slot.bytes;
  }

  clear(): void {
    this.slots.clear();
    this.totalBytes = 0;
  }

  /** Looks at up to `count` entries in turn and drops the expired ones. */
  sweep(now: number, count: number): void {
    this.cursor.step(count, (key, slot) => {
      if (slot.expiresAt <= now) this.delete(key);
    });
  }
}
