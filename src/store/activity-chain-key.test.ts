/**
 * Migration 0057 (src/store/migrations/0057_no_activity_chain_key_index.ts) drops `activity_rows_chain_key`, the
 * unique index on a chain operation's transaction and log, and the activity writer (src/store/activity-rows.ts) finds
 * a stored chain operation among its wallet's rows of its time: activity written before reads the same after; a chain
 * operation comes back and is stored once however often it comes (alone, among new rows, repeated in one batch, in
 * any batches: fast-check); another log or transaction at the same wallet and time is stored; a Data API row stays
 * held by its key's unique index. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { insertActivityBefore0062 } from "../../test/support/earlier-layout.js";
import type { Store } from "./database.js";
import { insertActivity, type NewActivity } from "./fills.js";
import { migrateStore } from "./migrate.js";
import { queryRows } from "./raw-sql.js";
import { chainSplit, testHash } from "./testing/activity.js";
import { indexNamesOf } from "./testing/index-names.js";

const MIGRATION = "0057_no_activity_chain_key_index";
const T0 = 1_770_000_000;
const WALLETS = ["0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000b2"];

/** A reward as the Data API lists it: keyed by its own text, no log. */
function dataApiReward(wallet: string, ts: number, tx: number): NewActivity {
  return {
    ...chainSplit(wallet, ts, tx, 0),
    activity_key: `data:${testHash(tx)}:${wallet}:REWARD::${tx}:${tx}`,
    source: "data_api",
    type: "REWARD",
    log_index: null,
  };
}

/** Activity of every kind of key: chain operations sharing wallets, times and transactions, rewards, a text hash. */
function someActivity(): NewActivity[] {
  const [a, b] = WALLETS as [string, string];
  return [
    chainSplit(a, T0, 1, 0),
    chainSplit(a, T0, 1, 1), // the same transaction, another log
    chainSplit(b, T0, 2, 0), // the same time, another wallet
    chainSplit(a, T0 + 2, 3, 0),
    chainSplit(b, T0 + 2, 3, 4),
    chainSplit(a, T0 + 4, "0xNotCanonical", 2), // stored with its key's text
    { ...chainSplit(b, T0 + 4, 5, 0), log_index: null, activity_key: "chain:no-log" },
    dataApiReward(a, T0 + 6, 6),
    dataApiReward(b, T0 + 6, 7),
  ];
}

const viewRows = (store: Store) =>
  queryRows<Record<string, unknown>>(store.db, store.kind, "select * from wallet_activity order by id", []);

const storedKeys = async (store: Store) => (await viewRows(store)).map((row) => row.activity_key as string);

const write = (store: Store, rows: readonly NewActivity[]) =>
  store.transaction((tx) => insertActivity(tx, structuredClone(rows)));

const keysOf = (rows: readonly NewActivity[]) => rows.map((row) => row.activity_key);

describe.each(storeBackends)("activity's chain keys since 0057, on $kind", (backend) => {
  it("migration 0057 drops the chain key's index, and the activity written before reads the same after", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore(MIGRATION) });
    try {
      const activity = someActivity();
      expect(keysOf(await insertActivityBefore0062(store, structuredClone(activity)))).toEqual(keysOf(activity));
      expect(await indexNamesOf(store, "activity_rows")).toContain("activity_rows_chain_key");
      const before = await viewRows(store);
      expect(before.map((row) => row.activity_key)).toEqual(keysOf(activity));

      await migrateStore(store);
      expect(await viewRows(store)).toEqual(before);
      const indexes = await indexNamesOf(store, "activity_rows");
      expect(indexes).not.toContain("activity_rows_chain_key");
      expect(indexes).toContain("activity_rows_text_key");
      // SQLite's index on the ids went with 0062 (src/store/activity-ids.test.ts).
      if (store.kind === "postgres") expect(indexes).toContain("activity_rows_wallet_ts");
      // Written before, replayed after: nothing new.
      expect(await write(store, activity)).toEqual([]);
      expect(await viewRows(store)).toEqual(before);
    } finally {
      await dispose();
    }
  });

  it("writes a stored chain operation again never: alone, among new rows, or repeated in one batch", async () => {
    const { store, dispose } = await backend.open();
    try {
      const [a, b] = WALLETS as [string, string];
      const first = [chainSplit(a, T0, 1, 0), chainSplit(b, T0, 2, 0)];
      expect(keysOf(await write(store, first))).toEqual(keysOf(first));
      expect(await write(store, [first[0]!])).toEqual([]);

      const fresh = [chainSplit(a, T0, 3, 0), chainSplit(b, T0 + 2, 4, 1)];
      const mixed = [first[1]!, fresh[0]!, first[0]!, fresh[1]!, fresh[0]!];
      expect(keysOf(await write(store, mixed))).toEqual(keysOf(fresh));

      const twice = chainSplit(a, T0 + 4, 5, 0);
      expect(keysOf(await write(store, [twice, twice, { ...twice }]))).toEqual([twice.activity_key]);
      expect(await storedKeys(store)).toEqual(keysOf([...first, ...fresh, twice]));
    } finally {
      await dispose();
    }
  });

  it("writes another log or another transaction at a stored operation's wallet and time", async () => {
    const { store, dispose } = await backend.open();
    try {
      const [a] = WALLETS as [string];
      const stored = chainSplit(a, T0, 1, 0);
      await write(store, [stored]);
      const neighbours = [chainSplit(a, T0, 1, 1), chainSplit(a, T0, 2, 0), chainSplit(a, T0, 2, 1)];
      expect(keysOf(await write(store, [stored, ...neighbours]))).toEqual(keysOf(neighbours));
      expect(await storedKeys(store)).toEqual(keysOf([stored, ...neighbours]));
    } finally {
      await dispose();
    }
  });

  it("keeps a Data API row (keyed by its text) once, replayed or repeated in one batch", async () => {
    const { store, dispose } = await backend.open();
    try {
      const [a, b] = WALLETS as [string, string];
      const rewards = [dataApiReward(a, T0, 1), dataApiReward(b, T0, 1)];
      expect(keysOf(await write(store, [rewards[0]!, rewards[1]!, rewards[0]!]))).toEqual(keysOf(rewards));
      expect(await write(store, rewards)).toEqual([]);
      // Listed again at another time: still the same row, by its key.
      expect(await write(store, [{ ...rewards[0]!, ts: T0 + 60 }])).toEqual([]);
      expect(await storedKeys(store)).toEqual(keysOf(rewards));
    } finally {
      await dispose();
    }
  });

  it("stores each chain operation once whatever the batches and repeats, and returns each new one once", async () => {
    // Operations at places 0..n-1: two wallets, a few times and transactions, so places share each part.
    const operations = (count: number) =>
      Array.from({ length: count }, (_, i) =>
        chainSplit(WALLETS[i % 2]!, T0 + 2 * ((i >> 1) % 3), 1 + ((i >> 2) % 4), i),
      );
    const batches = fc.integer({ min: 1, max: 30 }).chain((count) =>
      fc
        .array(fc.array(fc.integer({ min: 0, max: count - 1 }), { minLength: 1, maxLength: 12 }), {
          minLength: 1,
          maxLength: 6,
        })
        .map((picks) => picks.map((batch) => batch.map((i) => operations(count)[i]!))),
    );
    await fc.assert(
      fc.asyncProperty(batches, async (batches) => {
        const { store, dispose } = await backend.open();
        try {
          const returned: string[] = [];
          for (const batch of batches) returned.push(...keysOf(await write(store, batch)));
          const given = [...new Set(keysOf(batches.flat()))];
          expect(returned).toEqual(given);
          expect(await storedKeys(store)).toEqual(given);
        } finally {
          await dispose();
        }
      }),
      { numRuns: backend.kind === "sqlite" ? 30 : 8 },
    );
  });
});
