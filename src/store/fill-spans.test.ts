/**
 * `fill_spans` (src/store/fill-spans.ts, migration 0051): where each few minutes' fills lie among `fill_rows`' ids.
 * The rule alone: every fill in exactly one span of its own bucket, a bucket's spans disjoint, whatever the order
 * fills come in (fast-check). On each store: the writer keeps the spans in its transactions, a window's id ranges
 * give exactly the window's fills, the store's first and last times read from them, and migration 0051 makes the
 * spans of a store written before it and drops `fills_ts`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { insertFillsBefore0051 } from "../../test/support/earlier-layout.js";
import type { Store } from "./database.js";
import { chainFillKey } from "./fill-layout.js";
import {
  bucketOf,
  extendFillSpans,
  type FillSpan,
  inFillWindow,
  SPAN_ID_GAP,
  SPAN_SECONDS,
  spanIdRanges,
} from "./fill-spans.js";
import { FILL_ENDS, insertFills, type NewFill } from "./fills.js";
import { migrateStore } from "./migrate.js";
import { indexPresent } from "./migrations/0014_drilldown_fill_indexes.js";
import { queryRows } from "./raw-sql.js";
import { newFill } from "./testing/new-fill.js";

const T0 = 1_770_000_000 - (1_770_000_000 % SPAN_SECONDS);

/** Checks the invariant over fills given as (id, ts). */
function expectSpansHold(spans: readonly FillSpan[], fills: ReadonlyArray<{ id: number; ts: number }>): void {
  for (const { id, ts } of fills) {
    const holding = spans.filter((s) => s.bucket === bucketOf(ts) && s.firstId <= id && id <= s.lastId);
    expect(holding).toHaveLength(1);
    expect(holding[0]!.minTs).toBeLessThanOrEqual(ts);
    expect(holding[0]!.maxTs).toBeGreaterThanOrEqual(ts);
  }
  const ranges = spanIdRanges(spans);
  for (const { id } of fills) expect(ranges.filter(([a, b]) => a <= id && id <= b)).toHaveLength(1);
}

describe("fill spans, the rule", () => {
  it("buckets start at multiples of five minutes, negative times included", () => {
    expect(bucketOf(T0)).toBe(T0);
    expect(bucketOf(T0 + 299)).toBe(T0);
    expect(bucketOf(T0 + 300)).toBe(T0 + 300);
    expect(bucketOf(-1)).toBe(-300);
  });

  it("keeps one span a bucket for fills in time order, and starts another for a fill stored far apart", () => {
    const latest = new Map<number, FillSpan>();
    const inOrder = Array.from({ length: 900 }, (_, i) => ({ id: i + 1, ts: T0 + i }));
    extendFillSpans(latest, inOrder);
    expect([...latest.values()].map((s) => [s.bucket, s.firstId, s.lastId])).toEqual([
      [T0, 1, 300],
      [T0 + 300, 301, 600],
      [T0 + 600, 601, 900],
    ]);
    // A late fill of the first bucket, its id far past the bucket's last: a span of its own.
    const late = { id: 300 + SPAN_ID_GAP + 1, ts: T0 + 5 };
    const [made] = extendFillSpans(latest, [late]);
    expect(made).toEqual({ bucket: T0, firstId: late.id, lastId: late.id, minTs: T0 + 5, maxTs: T0 + 5 });
    // One near enough joins the bucket's latest span.
    const near = { id: late.id + 10, ts: T0 + 1 };
    expect(extendFillSpans(latest, [near])).toEqual([{ ...made, lastId: near.id, minTs: T0 + 1 }]);
  });

  it("holds every fill in one span of its bucket, whatever the times and batches", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 40 * SPAN_SECONDS }), { maxLength: 60 }), { maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 3 * SPAN_ID_GAP }), { maxLength: 12 }),
        (batches, gaps) => {
          const latest = new Map<number, FillSpan>();
          const spans = new Map<string, FillSpan>();
          const fills: Array<{ id: number; ts: number }> = [];
          let id = 0;
          batches.forEach((times, b) => {
            id += gaps[b] ?? 0; // ids other tables' rollbacks or PostgreSQL's sequence skipped
            const batch = times.map((t) => ({ id: ++id, ts: T0 + t }));
            fills.push(...batch);
            for (const span of extendFillSpans(latest, batch)) spans.set(`${span.bucket}:${span.firstId}`, span);
          });
          expectSpansHold([...spans.values()], fills);
        },
      ),
    );
  });
});

/** `count` chain fills, one a block, `step` seconds apart from `from`. */
const fillsFrom = (from: number, count: number, step: number, block = 1): NewFill[] =>
  Array.from({ length: count }, (_, i) =>
    newFill({
      fill_key: chainFillKey(block + i, 0),
      block_number: block + i,
      ts: from + Math.floor(i * step),
      usd: 1_000 + i,
    }),
  );

const storedSpans = async (store: Store): Promise<FillSpan[]> =>
  (
    await queryRows<Record<string, number>>(
      store.db,
      store.kind,
      "select bucket, first_id, last_id, min_ts, max_ts from fill_spans order by bucket, first_id",
    )
  ).map((r) => ({
    bucket: Number(r.bucket),
    firstId: Number(r.first_id),
    lastId: Number(r.last_id),
    minTs: Number(r.min_ts),
    maxTs: Number(r.max_ts),
  }));

const storedFills = async (store: Store) =>
  (await queryRows<{ id: number; ts: number }>(store.db, store.kind, "select id, ts from fill_rows order by id")).map(
    (r) => ({ id: Number(r.id), ts: Number(r.ts) }),
  );

/** The ids of the fills with `after < ts <= upTo`, read by the window's id ranges. */
const windowIds = async (store: Store, after: number, upTo: number) =>
  (
    await inFillWindow(store, after, upTo, (first, last) =>
      queryRows<{ id: number }>(
        store.db,
        store.kind,
        "select id from fills where id between ? and ? and ts > ? and ts <= ?",
        [first, last, after, upTo],
      ),
    )
  )
    .map((r) => Number(r.id))
    .sort((a, b) => a - b);

describe.each(storeBackends)("fill spans, on $kind", (backend) => {
  it("are kept by the writer: a window's id ranges give exactly its fills, late ones included", async () => {
    const { store, dispose } = await backend.open();
    try {
      // Three hours of fills in chain order, in batches, one replayed; then a wallet's late history in between.
      const chain = fillsFrom(T0, 1_080, 10);
      for (let i = 0; i < chain.length; i += 250)
        await store.transaction((tx) => insertFills(tx, chain.slice(i, i + 250)));
      await store.transaction((tx) => insertFills(tx, chain.slice(0, 250)));
      const late = fillsFrom(T0 + 7, 40, 97, 500_000);
      await store.transaction((tx) => insertFills(tx, late));
      const fills = await storedFills(store);
      expect(fills).toHaveLength(chain.length + late.length);
      const spans = await storedSpans(store);
      expectSpansHold(spans, fills);
      // Chain order: a bucket's fills one span (36 buckets); the late ones, stored within SPAN_ID_GAP of the last, join.
      expect(spans.length).toBeLessThanOrEqual(36 + late.length);
      for (const [after, upTo] of [
        [T0 - 1, T0 + 10_800],
        [T0 + 1_234, T0 + 4_321],
        [T0 + 299, T0 + 300],
        [T0 + 20_000, T0 + 30_000],
      ] as const) {
        const expected = fills.filter((f) => f.ts > after && f.ts <= upTo).map((f) => f.id);
        expect(await windowIds(store, after, upTo)).toEqual(expected);
      }
      const [ends] = await queryRows<{ latest: number; earliest: number }>(
        store.db,
        store.kind,
        `select ${FILL_ENDS.latestTs} as latest, ${FILL_ENDS.earliestTs} as earliest`,
      );
      expect([Number(ends!.earliest), Number(ends!.latest)]).toEqual([
        Math.min(...fills.map((f) => f.ts)),
        Math.max(...fills.map((f) => f.ts)),
      ]);
    } finally {
      await dispose();
    }
  });

  it("make a second writer wait for the first's commit, so that ids come in the order the spans are kept", async () => {
    const { store, dispose } = await backend.open();
    try {
      // The wallet, market and token in the dictionaries first (adding them would make the writers wait anyway).
      await store.transaction((tx) => insertFills(tx, fillsFrom(T0 - 3_600, 1, 1, 900)));
      const order: string[] = [];
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const first = store.transaction(async (tx) => {
        await insertFills(tx, fillsFrom(T0, 100, 3, 1_000_000));
        order.push("first wrote");
        await gate;
      });
      while (order.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const second = store
        .transaction((tx) => insertFills(tx, fillsFrom(T0 + 1, 10, 7, 2_000_000)))
        .then(() => order.push("second committed"));
      await new Promise((resolve) => setTimeout(resolve, 200));
      order.push("first released");
      release();
      await Promise.all([first, second]);
      expect(order).toEqual(["first wrote", "first released", "second committed"]);
      const fills = await storedFills(store);
      expect(fills).toHaveLength(111);
      expectSpansHold(await storedSpans(store), fills);
    } finally {
      await dispose();
    }
  });

  it("are made by migration 0051 for a store written before it, which drops the fills' time index", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0051_fill_spans") });
    try {
      await insertFillsBefore0051(store, fillsFrom(T0, 600, 7));
      await insertFillsBefore0051(store, fillsFrom(T0 + 3, 30, 113, 900_000));
      await migrateStore(store);
      const fills = await storedFills(store);
      expectSpansHold(await storedSpans(store), fills);
      expect(await windowIds(store, T0 + 100, T0 + 2_000)).toEqual(
        fills.filter((f) => f.ts > T0 + 100 && f.ts <= T0 + 2_000).map((f) => f.id),
      );
      expect(await indexPresent(store.db, store.kind, "fills_ts")).toBe(false);
    } finally {
      await dispose();
    }
  });
});
