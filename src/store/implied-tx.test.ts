/**
 * Fills' transaction hashes stored once per run of a transaction's fills (migration 0048, `fillsWithImpliedTx` and
 * `fillTxHashSql` in src/store/fill-layout.ts): every fill reads back its own hash through the view, whatever
 * batches and order the fills came in; the hashes left out are those the rule names; and migrating a store whose
 * fills all hold their hash leaves out the same ones. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { fillRowsAsBefore0050, insertFillsBefore0051 } from "../../test/support/earlier-layout.js";
import type { Store } from "./database.js";
import { chainFillKey, fillsWithImpliedTx, IMPLIED_TX_REACH } from "./fill-layout.js";
import { insertFills, type NewFill } from "./fills.js";
import { migrateStore } from "./migrate.js";
import { queryRows } from "./raw-sql.js";
import { newFill } from "./testing/new-fill.js";

const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const BLOCK_SECONDS = 2;

/**
 * A chain's fills: per block a few transactions, each a run of consecutive logs holding one to four fills (some
 * logs of a block are not fills: the log index skips); a Data API fill now and then, keyed by its own text.
 */
const chainFills = fc
  .array(fc.array(fc.record({ fills: fc.integer({ min: 1, max: 4 }), gap: fc.nat(2) }), { maxLength: 4 }), {
    minLength: 1,
    maxLength: 6,
  })
  .map((blocks) => {
    const fills: NewFill[] = [];
    let tx = 0;
    blocks.forEach((transactions, b) => {
      const block = 70_000_000 + b;
      let log = 0;
      for (const { fills: count, gap } of transactions) {
        tx += 1;
        log += gap;
        for (let i = 0; i < count; i++) {
          const fill = fillAt(block, log++, hash(tx), 1_770_000_000 + b * BLOCK_SECONDS);
          // Now and then a whale-size maker fill, which keeps its hash.
          fills.push(log % 7 === 3 ? { ...fill, role: "maker", usd: 600_000_000, size: 1_000_000_000 } : fill);
        }
        if (tx % 5 === 0) fills.push({ ...fillAt(block, 0, hash(tx), 1_770_000_000), fill_key: `data:${tx}` });
      }
    });
    return fills;
  });

function fillAt(block: number, log: number, tx: string, ts: number): NewFill {
  return newFill({ fill_key: chainFillKey(block, log), tx_hash: tx, log_index: log, block_number: block, ts });
}

/** The fills cut into batches at the given points, the batches (and maybe the fills of each) in reverse order. */
const batched = chainFills.chain((fills) =>
  fc
    .tuple(fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, fills.length - 1) })), fc.boolean(), fc.boolean())
    .map(([cuts, reversed, backwards]) => {
      const edges = [0, ...cuts.filter((c) => c < fills.length).sort((a, b) => a - b), fills.length];
      const batches = edges.slice(1).map((end, i) => fills.slice(edges[i], end));
      const ordered = backwards ? batches.map((batch) => [...batch].reverse()) : batches;
      return { fills, batches: reversed ? ordered.reverse() : ordered };
    }),
);

describe("the fills whose transaction hash is left out", () => {
  it("are the chain fills stored just after a fill of the same transaction, block and time, but whale-size makers'", () => {
    const [a, b, c] = [hash(1), hash(2), hash(3)];
    const fills = [
      fillAt(9, 3, a, 100),
      fillAt(9, 4, a, 100), // left out
      fillAt(9, 6, a, 100), // left out: the log index may skip
      fillAt(9, 7, b, 100), // another transaction: kept
      fillAt(10, 0, b, 102), // another block: kept
      { ...fillAt(9, 8, b, 100), fill_key: "data:1" }, // a Data API fill: kept
      fillAt(9, 9, "0xNotCanonical", 100),
      fillAt(9, 10, "0xNotCanonical", 100), // written as text: kept
      fillAt(11, 0, c, 104),
      fillAt(11, 1, c, 106), // another time: kept
      fillAt(12, 0, c, 108),
      { ...fillAt(12, 1, c, 108), role: "maker" as const, usd: 500_000_000, size: 1_000_000_000 }, // whale-size maker: kept
      fillAt(12, 2, c, 108), // left out: the whale maker's hash is stored just before
      fillAt(12, 4, c, 108), // left out
      fillAt(12, 3, c, 108), // an earlier log than the fill stored before it: kept
    ];
    expect([...fillsWithImpliedTx(fills)]).toEqual([fills[1], fills[2], fills[12], fills[13]]);
    expect(fillsWithImpliedTx([...fills].reverse()).size).toBe(1);
  });

  it(`store the hash again after ${IMPLIED_TX_REACH - 1} left out, so that the view finds it within its reach`, () => {
    const run = Array.from({ length: 2 * IMPLIED_TX_REACH + 1 }, (_, log) => fillAt(9, log, hash(1), 100));
    const implied = fillsWithImpliedTx(run);
    const kept = run.filter((fill) => !implied.has(fill)).map((fill) => fill.log_index);
    expect(kept).toEqual([0, IMPLIED_TX_REACH, 2 * IMPLIED_TX_REACH]);
  });
});

describe.each(storeBackends)("fills' transaction hashes on $kind", (backend) => {
  const viewHashes = async (store: Store) =>
    new Map(
      (
        await queryRows<{ fill_key: string; tx_hash: string }>(
          store.db,
          store.kind,
          "select fill_key, tx_hash from fills",
        )
      ).map((r) => [r.fill_key, r.tx_hash]),
    );
  const leftOut = async (store: Store) =>
    Number(
      (
        await queryRows<{ n: number }>(
          store.db,
          store.kind,
          "select count(*) as n from fill_rows where tx_hash is null",
        )
      )[0]!.n,
    );

  it("read back as written whatever the batches and their order, each batch storing a run's hash once", async () => {
    await fc.assert(
      fc.asyncProperty(batched, async ({ fills, batches }) => {
        const { store, dispose } = await backend.open();
        try {
          for (const batch of batches) await store.transaction((tx) => insertFills(tx, batch));
          // A batch replayed whole, and one fill of it alone: nothing changes.
          await store.transaction((tx) => insertFills(tx, batches[0]!));
          await store.transaction((tx) => insertFills(tx, batches[0]!.slice(-1)));
          const read = await viewHashes(store);
          expect(read.size).toBe(new Set(fills.map((f) => f.fill_key)).size);
          for (const fill of fills) expect(read.get(fill.fill_key)).toBe(fill.tx_hash);
          const expected = batches.reduce((n, batch) => n + fillsWithImpliedTx(batch).size, 0);
          expect(await leftOut(store)).toBe(expected);
        } finally {
          await dispose();
        }
      }),
      { numRuns: backend.kind === "sqlite" ? 40 : 12 },
    );
  });

  it("are left out by migration 0048 where the writer would leave them out, and read back as before", async () => {
    const whaleRun = [0, 1, 2].map((log) => fillAt(80_000_000, log, hash(999), 1_780_000_000));
    whaleRun[1] = { ...whaleRun[1]!, role: "maker", usd: 600_000_000, size: 1_000_000_000 };
    const fills = [...fc.sample(chainFills, { numRuns: 1, seed: 48 })[0]!, ...whaleRun];
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0048_implied_tx_hashes") });
    try {
      // One fill a batch: every fill stores its hash, as before 0048.
      for (const fill of fills) await insertFillsBefore0051(store, [fill]);
      await fillRowsAsBefore0050(store);
      expect(await leftOut(store)).toBe(0);
      await migrateStore(store);
      expect(await leftOut(store)).toBe(fillsWithImpliedTx(fills).size);
      expect(fillsWithImpliedTx(fills).size).toBeGreaterThan(0);
      const read = await viewHashes(store);
      for (const fill of fills) expect(read.get(fill.fill_key)).toBe(fill.tx_hash);
    } finally {
      await dispose();
    }
  });

  it("are stored again by migration 0052 where the run's fills were stored out of log order, and read back as before", async () => {
    // Stored last log first, one fill a batch: 0048 leaves out each run's later hashes by log index, which the ids
    // before them (later logs, stored earlier) do not hold.
    const fills = fc.sample(chainFills, { numRuns: 1, seed: 52 })[0]!.reverse();
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0048_implied_tx_hashes") });
    try {
      for (const fill of fills) await insertFillsBefore0051(store, [fill]);
      await fillRowsAsBefore0050(store);
      await migrateStore(store, migrationsBefore("0052_no_chain_key_index"));
      const before = await leftOut(store);
      expect(before).toBeGreaterThan(0);
      expect(await viewHashes(store)).toEqual(new Map(fills.map((f) => [f.fill_key, f.tx_hash])));
      await migrateStore(store);
      // Those kept out read a whale-size maker's hash, stored just before them.
      expect(await leftOut(store)).toBeLessThan(before);
      expect(await viewHashes(store)).toEqual(new Map(fills.map((f) => [f.fill_key, f.tx_hash])));
    } finally {
      await dispose();
    }
  });
});
