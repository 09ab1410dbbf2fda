/**
 * The daily position snapshots stored as runs of days (src/store/position-snapshots.ts, migration 0046): whatever
 * order days are taken, taken again and forgotten in, `position_snapshots` reads each taken day's rows as written,
 * and unchanged positions share one run. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { insertSnapshotRowsBefore0065 } from "../../test/support/earlier-layout.js";
import type { Store } from "./database.js";
import { migrateStore } from "./migrate.js";
import { deleteAllSnapshots, pruneSnapshots, replaceSnapshot } from "./position-snapshots.js";
import type { PositionSnapshotsTable } from "./schema.js";

const DAY = 86_400;
const WALLETS = [`0x${"a".repeat(40)}`, `0x${"b".repeat(40)}`];
const MARKETS = [`0x${"1".repeat(64)}`, `0x${"2".repeat(64)}`, `0x${"3".repeat(64)}`];

type Values = Pick<PositionSnapshotsTable, "yes_shares" | "yes_cost" | "no_shares" | "no_cost">;
const positionOf = (v: number): Values => ({
  yes_shares: v * 2,
  yes_cost: v / 4,
  no_shares: 0,
  no_cost: v === 2 ? 0.5 : 0,
});

/** A day's rows: for each (wallet, market), no position or one of two. */
const dayRows = fc.array(fc.constantFrom(0, 1, 2), {
  minLength: WALLETS.length * MARKETS.length,
  maxLength: WALLETS.length * MARKETS.length,
});

type Operation = { kind: "take"; day: number; positions: number[] } | { kind: "prune"; day: number };
const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("take" as const),
      day: fc.integer({ min: 1, max: 8 }),
      positions: dayRows,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("prune" as const), day: fc.integer({ min: 1, max: 8 }) }) },
);

function rowsOf(day: number, positions: readonly number[]): PositionSnapshotsTable[] {
  const rows: PositionSnapshotsTable[] = [];
  positions.forEach((v, i) => {
    if (v === 0) return;
    const wallet = WALLETS[Math.floor(i / MARKETS.length)]!;
    rows.push({ day: day * DAY, wallet, condition_id: MARKETS[i % MARKETS.length]!, ...positionOf(v) });
  });
  return rows;
}

const byKey = (a: PositionSnapshotsTable, b: PositionSnapshotsTable) =>
  a.day - b.day || a.wallet.localeCompare(b.wallet) || a.condition_id.localeCompare(b.condition_id);

async function storedSnapshots(store: Store): Promise<PositionSnapshotsTable[]> {
  const rows = await store.db.selectFrom("position_snapshots").selectAll().execute();
  return rows
    .map((r) => ({ ...r, day: Number(r.day), yes_shares: Number(r.yes_shares), no_shares: Number(r.no_shares) }))
    .sort(byKey);
}

async function runCount(store: Store): Promise<number> {
  const [row] = await store.db
    .selectFrom("position_snapshot_runs")
    .select((e) => e.fn.countAll<number>().as("n"))
    .execute();
  return Number(row!.n);
}

describe.each(storeBackends)("position snapshots stored as runs, on $kind", (backend) => {
  it("read back every taken day as written, whatever order days are taken, taken again and forgotten in", async () => {
    const { store, dispose } = await backend.open();
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (operations) => {
          await store.transaction(deleteAllSnapshots);
          const expected = new Map<number, PositionSnapshotsTable[]>();
          for (const op of operations) {
            if (op.kind === "take") {
              const rows = rowsOf(op.day, op.positions);
              await store.transaction((tx) => replaceSnapshot(tx, { day: op.day * DAY, rows }));
              expected.set(op.day, rows);
            } else {
              await store.transaction((tx) => pruneSnapshots(tx, op.day * DAY));
              for (const day of expected.keys()) if (day < op.day) expected.delete(day);
            }
            expect(await storedSnapshots(store)).toEqual([...expected.values()].flat().sort(byKey));
          }
          const taken = await store.db.selectFrom("position_snapshot_days").select("day").orderBy("day").execute();
          expect(taken.map((r) => Number(r.day))).toEqual(
            [...expected.keys()].sort((a, b) => a - b).map((d) => d * DAY),
          );
        }),
        { numRuns: backend.kind === "sqlite" ? 60 : 12 },
      );
    } finally {
      await dispose();
    }
  });

  it("keep a position unchanged from day to day as one run, and start a run where it changes", async () => {
    const { store, dispose } = await backend.open();
    try {
      // Wallet a holds market 1 the same on days 1-5 and changes it on day 4; wallet b holds market 2 on days 1-5.
      for (let day = 1; day <= 5; day++) {
        const positions = [day === 4 ? 2 : 1, 0, 0, 0, 1, 0];
        await store.transaction((tx) => replaceSnapshot(tx, { day: day * DAY, rows: rowsOf(day, positions) }));
      }
      expect(await storedSnapshots(store)).toHaveLength(10);
      // a/1: days 1-3, day 4, day 5; b/2: days 1-5.
      expect(await runCount(store)).toBe(4);
      // Taking day 4 again with the position of its neighbours joins a/1's three runs into one; b/2's stays one.
      await store.transaction((tx) => replaceSnapshot(tx, { day: 4 * DAY, rows: rowsOf(4, [1, 0, 0, 0, 1, 0]) }));
      expect(await runCount(store)).toBe(2);
      expect(await storedSnapshots(store)).toEqual([1, 2, 3, 4, 5].flatMap((d) => rowsOf(d, [1, 0, 0, 0, 1, 0])));
    } finally {
      await dispose();
    }
  });

  it("are the rows of every day stored before migration 0046, after it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(dayRows, { minLength: 1, maxLength: 8 }), async (days) => {
        const { store, dispose } = await backend.open({ migrations: migrationsBefore("0046_snapshot_runs") });
        try {
          // Days 1, 2, 3, ... with a missing one after the third: a run does not go on over a day not taken.
          const rows = days.flatMap((positions, i) => rowsOf(i < 3 ? i + 1 : i + 2, positions));
          await insertSnapshotRowsBefore0065(store, rows);
          const before = await storedSnapshots(store);
          expect(before).toEqual([...rows].sort(byKey));
          await migrateStore(store);
          expect(await storedSnapshots(store)).toEqual(before);
          expect(await runCount(store)).toBeLessThanOrEqual(rows.length);
        } finally {
          await dispose();
        }
      }),
      { numRuns: backend.kind === "sqlite" ? 15 : 4 },
    );
  });
});
