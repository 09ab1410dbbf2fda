/**
 * The fills writer (src/store/fill-rows.ts) since migration 0052, which dropped the index on a chain fill's key: a
 * chain fill is stored once however often it comes, found among the stored fills of its time's spans, whatever the
 * batches, their order and the fills' times (fast-check); each new fill comes back once, with the id it was stored
 * under. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { chainFillKey } from "./fill-layout.js";
import { SPAN_SECONDS } from "./fill-spans.js";
import { insertFills, type NewFill } from "./fills.js";
import { indexPresent } from "./migrations/0014_drilldown_fill_indexes.js";
import { queryRows } from "./raw-sql.js";
import { newFill } from "./testing/new-fill.js";

const T0 = 1_770_000_000 - (1_770_000_000 % SPAN_SECONDS);

/** Fills at places 0..n-1 of the chain (ten a block), at times spread over a few hours in any order. */
const fillsAt = (seconds: readonly number[]): NewFill[] =>
  seconds.map((offset, place) => {
    const [block, log] = [80_000_000 + Math.floor(place / 10), place % 10];
    return newFill({
      fill_key: chainFillKey(block, log),
      block_number: block,
      log_index: log,
      tx_hash: `0x${(place + 1).toString(16).padStart(64, "0")}`,
      ts: T0 + offset,
    });
  });

/** Fills, and batches of them: each batch some fills (repeats and earlier ones included) in any order. */
const batches = fc.array(fc.integer({ min: 0, max: 4 * 3_600 }), { minLength: 1, maxLength: 60 }).chain((seconds) => {
  const fills = fillsAt(seconds);
  const place = fc.integer({ min: 0, max: fills.length - 1 });
  return fc
    .array(fc.array(place, { minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 8 })
    .map((picks) => ({ fills, batches: picks.map((batch) => batch.map((i) => fills[i]!)) }));
});

describe.each(storeBackends)("the fills writer on $kind", (backend) => {
  it("stores a chain fill once however often and whenever it comes, and returns each new one once with its id", async () => {
    await fc.assert(
      fc.asyncProperty(batches, async ({ batches }) => {
        const { store, dispose } = await backend.open();
        try {
          const returned: NewFill[] = [];
          for (const batch of batches)
            returned.push(...(await store.transaction((tx) => insertFills(tx, structuredClone(batch)))));
          const given = new Set(batches.flat().map((f) => f.fill_key));
          expect(returned.map((f) => f.fill_key).sort()).toEqual([...given].sort());
          const rows = await queryRows<{ id: number; fill_key: string }>(
            store.db,
            store.kind,
            "select id, fill_key from fills order by id",
          );
          expect(rows.map((r) => r.fill_key).sort()).toEqual([...given].sort());
          const ids = new Map(rows.map((r) => [r.fill_key, Number(r.id)]));
          for (const fill of returned) expect(fill.id).toBe(ids.get(fill.fill_key));
        } finally {
          await dispose();
        }
      }),
      { numRuns: backend.kind === "sqlite" ? 40 : 10 },
    );
  });

  it("stores a Data API fill once by its own key, and keeps no index on a chain fill's key", async () => {
    const { store, dispose } = await backend.open();
    try {
      const fill = newFill({ fill_key: "data:0xabc:7", ts: T0 });
      const stored = await store.transaction((tx) => insertFills(tx, [fill, { ...fill }]));
      expect(stored).toHaveLength(1);
      expect(await store.transaction((tx) => insertFills(tx, [{ ...fill }]))).toEqual([]);
      expect(await indexPresent(store.db, store.kind, "fill_rows_chain_key")).toBe(false);
    } finally {
      await dispose();
    }
  });
});
