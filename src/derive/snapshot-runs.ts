/**
 * A first derivation's snapshots as runs (src/store/position-snapshots.ts), built as the replay takes the kept days
 * in order instead of merged into the store a day at a time: each (wallet, market) holds an open run while its
 * position stays the same from one taken day to the next; a run is given out when it ends, the open ones at the end.
 * The open runs are kept in columns by slot, a slot reused when its run ends, so that a run living many days is not
 * an object the collector must move and later free (docs/decisions.md, "Snapshots are stored as runs of days").
 */
import { SECONDS_PER_DAY } from "../ledger/index.js";
import type { Store, StoreTransaction } from "../store/database.js";
import { FILL_ENDS } from "../store/fills.js";
import { insertRowStream } from "../store/derived-tables.js";
import type { DictionaryIdCache } from "../store/dictionaries.js";
import {
  deleteAllSnapshots,
  recordSnapshotDays,
  replaceSnapshot,
  snapshotDaysFrom,
} from "../store/position-snapshots.js";
import { queryRows } from "../store/raw-sql.js";
import type { PositionSnapshotRunsTable, PositionSnapshotsTable } from "../store/schema.js";

/** 00:00 UTC of the day containing `t`. */
export const dayStart = (t: number): number => Math.floor(t / SECONDS_PER_DAY) * SECONDS_PER_DAY;

export class SnapshotRunBuilder {
  /** The days taken, in order. */
  readonly days: number[] = [];
  private readonly slots = new Map<string, Map<string, number>>();
  private readonly free: number[] = [];
  private readonly wallet: string[] = [];
  private readonly conditionId: string[] = [];
  private readonly fromDay: number[] = [];
  private readonly yesShares: number[] = [];
  private readonly yesCost: number[] = [];
  private readonly noShares: number[] = [];
  private readonly noCost: number[] = [];
  /** The number of the take that last saw the slot's position. */
  private readonly seen: number[] = [];

  /** Takes a day (later than every day taken before) and gives out the runs it ends. */
  *take(day: number, rows: Iterable<PositionSnapshotsTable>): Generator<PositionSnapshotRunsTable> {
    const previous = this.days.at(-1);
    if (previous !== undefined && day <= previous)
      throw new Error(`snapshot days out of order: ${day} after ${previous}`);
    this.days.push(day);
    const take = this.days.length;
    for (const row of rows) {
      let byMarket = this.slots.get(row.wallet);
      if (!byMarket) {
        byMarket = new Map();
        this.slots.set(row.wallet, byMarket);
      }
      const slot = byMarket.get(row.condition_id);
      if (slot !== undefined) {
        if (this.seen[slot] === take - 1 && this.holds(slot, row)) {
          this.seen[slot] = take;
          continue;
        }
        yield this.run(slot);
        this.open(slot, row, day, take);
        continue;
      }
      const added = this.free.pop() ?? this.seen.length;
      byMarket.set(row.condition_id, added);
      this.open(added, row, day, take);
    }
    for (const [wallet, byMarket] of this.slots) {
      for (const [conditionId, slot] of byMarket) {
        if (this.seen[slot] === take) continue;
        yield this.run(slot);
        byMarket.delete(conditionId);
        this.free.push(slot);
      }
      if (byMarket.size === 0) this.slots.delete(wallet);
    }
  }

  /** The runs still open. */
  *finish(): Generator<PositionSnapshotRunsTable> {
    for (const byMarket of this.slots.values()) for (const slot of byMarket.values()) yield this.run(slot);
    this.slots.clear();
  }

  private holds(slot: number, row: PositionSnapshotsTable): boolean {
    return (
      this.yesShares[slot] === row.yes_shares &&
      this.yesCost[slot] === row.yes_cost &&
      this.noShares[slot] === row.no_shares &&
      this.noCost[slot] === row.no_cost
    );
  }

  private open(slot: number, row: PositionSnapshotsTable, day: number, take: number): void {
    this.wallet[slot] = row.wallet;
    this.conditionId[slot] = row.condition_id;
    this.fromDay[slot] = day;
    this.yesShares[slot] = row.yes_shares;
    this.yesCost[slot] = row.yes_cost;
    this.noShares[slot] = row.no_shares;
    this.noCost[slot] = row.no_cost;
    this.seen[slot] = take;
  }

  /** The slot's run, ending the day after the last day taken that saw it. */
  private run(slot: number): PositionSnapshotRunsTable {
    return {
      wallet: this.wallet[slot]!,
      condition_id: this.conditionId[slot]!,
      from_day: this.fromDay[slot]!,
      until_day: this.days[this.seen[slot]! - 1]! + SECONDS_PER_DAY,
      yes_shares: this.yesShares[slot]!,
      yes_cost: this.yesCost[slot]!,
      no_shares: this.noShares[slot]!,
      no_cost: this.noCost[slot]!,
    };
  }
}

/** What the derivation's one transaction writes of the snapshots: asOf's day's (and a first derivation's open runs). */
export interface PendingSnapshots {
  readonly days: readonly number[];
  write(tx: StoreTransaction, ids: DictionaryIdCache): Promise<void>;
}

/**
 * The snapshots a derivation takes: the kept days (POSITION_SNAPSHOT_DAYS back from the clock's day) the store
 * lacks, from the first day that began after the first stored fill (no position was open at an earlier one), then
 * asOf's day. A past day is final and written as it is taken: merged into the stored runs, or, when the store has
 * taken no kept day (a first derivation), built as runs here.
 */
export class SnapshotTaker {
  private constructor(
    /** The days to take, oldest first, asOf's last. */
    readonly days: readonly number[],
    private readonly runs: SnapshotRunBuilder | null,
  ) {}

  static async open(store: Store, snapshotDays: number, now: number, day: number): Promise<SnapshotTaker> {
    const [first] = await queryRows<{ t: number | null }>(store.db, store.kind, `select ${FILL_ENDS.earliestTs} as t`);
    if (first?.t === null || first?.t === undefined) return new SnapshotTaker([day], null);
    const oldest = Math.max(
      dayStart(now) - snapshotDays * SECONDS_PER_DAY,
      dayStart(Number(first.t)) + SECONDS_PER_DAY,
    );
    const taken = new Set(await snapshotDaysFrom(store, oldest));
    const days: number[] = [];
    for (let d = oldest; d < day; d += SECONDS_PER_DAY) if (!taken.has(d)) days.push(d);
    if (taken.size > 0) return new SnapshotTaker([...days, day], null);
    // Days older than the kept ones are past their keeping: the runs start afresh.
    await store.transaction(deleteAllSnapshots);
    return new SnapshotTaker([...days, day], new SnapshotRunBuilder());
  }

  /** Writes a past day's snapshot, each row made as it is written. */
  async takePast(store: Store, day: number, rows: Iterable<PositionSnapshotsTable>, ids: DictionaryIdCache) {
    const runs = this.runs;
    await store.transaction((tx) =>
      runs
        ? insertRowStream(tx, "position_snapshot_runs", runs.take(day, rows), ids)
        : replaceSnapshot(tx, { day, rows }, ids),
    );
  }

  /** asOf's day's snapshot, for the derivation's transaction. */
  pending(day: number, rows: readonly PositionSnapshotsTable[]): PendingSnapshots {
    const runs = this.runs;
    if (!runs) return { days: [day], write: (tx, ids) => replaceSnapshot(tx, { day, rows }, ids) };
    return {
      days: [day],
      async write(tx, ids) {
        await insertRowStream(tx, "position_snapshot_runs", runs.take(day, rows), ids);
        await insertRowStream(tx, "position_snapshot_runs", runs.finish(), ids);
        await recordSnapshotDays(tx, runs.days);
      },
    };
  }
}
