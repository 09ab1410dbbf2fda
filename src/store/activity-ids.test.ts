/**
 * Migration 0062 (src/store/migrations/0062_activity_ids_from_counter.ts) drops SQLite's index on the activity ids:
 * the writer numbers new rows from `row_counters` (src/store/row-counters.ts) and the Deriver's watermark reads it
 * (`storedWatermarks`). Activity written before reads the same after, the watermark is the one read before (the
 * largest id), and new rows go on from it; a fresh store numbers from 1; a batch rolled back hands out nothing, and
 * no id is handed out twice, not even after the newest rows are deleted; whatever the batches, replays, rollbacks
 * and deletes, every id stored after a watermark is above it (fast-check). On SQLite, and on PostgreSQL (which keeps
 * its sequence and primary key) with TEST_DATABASE_URL.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { insertActivityBefore0062 } from "../../test/support/earlier-layout.js";
import { storedWatermarks } from "../derive/rebuild.js";
import type { Store } from "./database.js";
import { insertActivity, type NewActivity } from "./fills.js";
import { migrateStore } from "./migrate.js";
import { queryRows } from "./raw-sql.js";
import { ROW_COUNTERS } from "./row-counters.js";
import { chainSplit, testHash } from "./testing/activity.js";
import { indexNamesOf } from "./testing/index-names.js";

const MIGRATION = "0062_activity_ids_from_counter";
const T0 = 1_770_000_000;
const WALLETS = ["0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000b2"];

/** Operation `n`: a split (a reward as the Data API lists it for every third), of one of two wallets. */
function operation(n: number): NewActivity {
  const wallet = WALLETS[n % 2]!;
  // Later operations are not always later in time: the ids follow the writes, not the times.
  const split = chainSplit(wallet, T0 + 10 * (n % 7), n, n % 5, 1_000_000 + n);
  if (n % 3 !== 0) return split;
  return { ...split, activity_key: `data:${testHash(n)}:${wallet}:REWARD`, source: "data_api", type: "REWARD" };
}
const operations = (from: number, count: number) => Array.from({ length: count }, (_, i) => operation(from + i));

const viewRows = (store: Store) =>
  queryRows<Record<string, unknown>>(store.db, store.kind, "select * from wallet_activity order by id", []);

/** Each stored row's id by its key. */
async function storedIds(store: Store): Promise<Map<string, number>> {
  const rows = await queryRows<{ id: number; k: string }>(
    store.db,
    store.kind,
    "select id, activity_key as k from wallet_activity",
  );
  return new Map(rows.map((row) => [row.k, Number(row.id)]));
}

/** The ids the rows of `keys` were stored under, in the keys' order. */
const idsOf = async (store: Store, keys: readonly string[]) => {
  const ids = await storedIds(store);
  return keys.map((key) => ids.get(key));
};

const write = (store: Store, rows: readonly NewActivity[]) =>
  store.transaction((tx) => insertActivity(tx, structuredClone(rows)));

const keysOf = (rows: readonly NewActivity[]) => rows.map((row) => row.activity_key);

const counters = (store: Store) =>
  queryRows<{ name: string; last_id: number }>(store.db, store.kind, `select * from ${ROW_COUNTERS}`);

/** Deletes the `count` newest rows (nothing deletes activity today: the ids must not repeat if something did). */
const deleteNewest = (store: Store, count: number) =>
  queryRows(
    store.db,
    store.kind,
    `delete from activity_rows where id in (select id from activity_rows order by id desc limit ${count})`,
  );

class RolledBack extends Error {}

describe.each(storeBackends)("activity ids since 0062, on $kind", (backend) => {
  it("migration 0062 keeps the rows and the watermark, and new rows are numbered on from the largest id", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore(MIGRATION) });
    try {
      for (const batch of [operations(0, 5), operations(3, 6), operations(20, 1)])
        await insertActivityBefore0062(store, batch);
      const before = await viewRows(store);
      expect(before).toHaveLength(10);
      // SQLite's writer numbered the largest id plus one; PostgreSQL's sequence is also taken by replayed rows.
      if (store.kind === "sqlite") expect(before.map((row) => row.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      // The watermark as read before 0062: the largest id.
      const [read] = await queryRows<{ id: number }>(store.db, store.kind, "select max(id) as id from wallet_activity");
      const largest = Number(read!.id);
      expect(largest).toBe(Number(before.at(-1)!.id));

      await migrateStore(store);
      expect(await viewRows(store)).toEqual(before);
      expect((await storedWatermarks(store)).activity).toBe(largest);
      const indexes = await indexNamesOf(store, "activity_rows");
      expect(indexes.includes("activity_rows_id")).toBe(false);
      expect(indexes).toContain("activity_rows_text_key");
      if (store.kind === "sqlite") expect(await counters(store)).toEqual([{ name: "activity_rows", last_id: 10 }]);

      const fresh = operations(30, 4);
      expect(keysOf(await write(store, [...operations(0, 2), ...fresh]))).toEqual(keysOf(fresh));
      const ids = (await idsOf(store, keysOf(fresh))) as number[];
      if (store.kind === "sqlite") expect(ids).toEqual([11, 12, 13, 14]);
      expect(ids.every((id, i) => id > largest && (i === 0 || id > ids[i - 1]!))).toBe(true);
      expect((await storedWatermarks(store)).activity).toBe(ids.at(-1));
      expect((await viewRows(store)).slice(0, before.length)).toEqual(before);
    } finally {
      await dispose();
    }
  });

  it("numbers a fresh store's rows from 1, its watermark 0 until the first", async () => {
    const { store, dispose } = await backend.open();
    try {
      expect((await storedWatermarks(store)).activity).toBe(0);
      if (store.kind === "sqlite") expect(await counters(store)).toEqual([]);
      await write(store, operations(0, 3));
      expect(await idsOf(store, keysOf(operations(0, 3)))).toEqual([1, 2, 3]);
      expect((await storedWatermarks(store)).activity).toBe(3);
      if (store.kind === "sqlite") expect(await counters(store)).toEqual([{ name: "activity_rows", last_id: 3 }]);
      // A replay hands out nothing.
      expect(await write(store, operations(0, 3))).toEqual([]);
      expect((await storedWatermarks(store)).activity).toBe(3);
    } finally {
      await dispose();
    }
  });

  it("hands out nothing for a batch rolled back, and no id twice after the newest rows are deleted", async () => {
    const { store, dispose } = await backend.open();
    try {
      await write(store, operations(0, 5));
      await expect(
        store.transaction(async (tx) => {
          await insertActivity(tx, operations(10, 3));
          throw new RolledBack();
        }),
      ).rejects.toThrow(RolledBack);
      expect([...(await storedIds(store)).values()].sort()).toEqual([1, 2, 3, 4, 5]);
      expect((await storedWatermarks(store)).activity).toBe(5);
      await deleteNewest(store, 2);
      await write(store, operations(20, 2));
      const ids = (await idsOf(store, keysOf(operations(20, 2)))) as number[];
      // SQLite's counter gives the next ids; PostgreSQL's sequence has moved past the rolled-back batch too.
      if (store.kind === "sqlite") expect(ids).toEqual([6, 7]);
      expect(ids.every((id) => id > 5)).toBe(true);
    } finally {
      await dispose();
    }
  });

  it("stores every row above the watermark read before its batch, whatever the batches, replays, rollbacks and deletes", async () => {
    const step = fc.oneof(
      fc.record({
        write: fc.array(fc.integer({ min: 0, max: 24 }), { minLength: 1, maxLength: 8 }),
        fails: fc.boolean(),
      }),
      fc.record({ deleteNewest: fc.integer({ min: 1, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const { store, dispose } = await backend.open();
        try {
          const handedOut = new Set<number>();
          for (const s of steps) {
            if ("deleteNewest" in s) {
              await deleteNewest(store, s.deleteNewest);
              continue;
            }
            const mark = (await storedWatermarks(store)).activity;
            const stored = await storedIds(store);
            const rows = s.write.map(operation);
            const write = store.transaction(async (tx) => {
              const fresh = await insertActivity(tx, structuredClone(rows));
              if (s.fails) throw new RolledBack();
              return fresh;
            });
            if (s.fails) await expect(write).rejects.toThrow(RolledBack);
            const fresh = s.fails ? [] : await write;
            const ids = await storedIds(store);
            const added = [...ids].filter(([key]) => !stored.has(key));
            expect(added.map(([key]) => key).sort()).toEqual(keysOf(fresh).sort());
            for (const [, id] of added) {
              expect(id).toBeGreaterThan(mark);
              expect(handedOut.has(id)).toBe(false);
              handedOut.add(id);
            }
            // The new rows' ids follow the order they were given in.
            const order = keysOf(fresh).map((key) => ids.get(key)!);
            expect(order).toEqual([...order].sort((a, b) => a - b));
            expect((await storedWatermarks(store)).activity).toBeGreaterThanOrEqual(Math.max(0, ...ids.values()));
          }
        } finally {
          await dispose();
        }
      }),
      { numRuns: backend.kind === "sqlite" ? 30 : 8 },
    );
  });
});
