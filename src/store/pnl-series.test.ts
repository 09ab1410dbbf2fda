/**
 * The packed P&L series (src/store/pnl-series.ts and its codec): every point reads back exactly as written, and the
 * writers replace, merge and prune as the row-a-point table did. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { migrateStore } from "./migrate.js";
import { decodeSeries, encodeSeries, mergeSeries, packedPointsAt } from "./pnl-series-codec.js";
import {
  deletePnlSeries,
  mergePnlPoints,
  pointAt,
  prunePnlSeries,
  replacePnlPoints,
  seriesPointsAt,
  seriesPointsAtEach,
  walletSeries,
} from "./pnl-series.js";
import { queryRows } from "./raw-sql.js";
import { storedPnlPoints, storedVenuePnlPoints } from "./testing/pnl-points.js";
import { replaceVenuePnlPoints } from "./wallet-cache.js";

const A = `0x${"a".repeat(40)}`;
const B = `0x${"b".repeat(40)}`;

/** Points at increasing integer times, with values of every kind the codec writes differently. */
const series = fc
  .array(
    fc.tuple(
      fc.integer({ min: 1, max: 10_000_000 }),
      fc.oneof(
        fc.double(),
        fc.integer({ min: -1e12, max: 1e12 }).map((micro) => micro / 1e6),
        fc.constantFrom(0, -0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_VALUE),
      ),
    ),
    { maxLength: 60 },
  )
  .map((steps) => {
    let t = 1_700_000_000;
    return steps.map(([step, pnl]) => ({ t: (t += step), pnl }));
  });

describe("the P&L series codec", () => {
  it("reads every point back as written, at both scales", () => {
    fc.assert(
      fc.property(series, fc.constantFrom(1e6, 1), (points, scale) => {
        const decoded = decodeSeries(encodeSeries(points, scale), scale);
        expect(decoded.length).toBe(points.length);
        decoded.forEach((p, i) => {
          expect(p.t).toBe(points[i]!.t);
          expect(Object.is(p.pnl, points[i]!.pnl)).toBe(true);
        });
      }),
    );
  });

  it("reads back a value whose step from the last scaled one is past what a double's zigzag holds", () => {
    // fast-check's counterexample: -(2^52 + 1) at scale 1, a safe integer whose zigzag (2^53 + 1) is not.
    const points = [
      { t: 1_700_000_001, pnl: -4_503_599_627_370_497 },
      { t: 1_700_000_002, pnl: 4_503_599_627_370_497 },
      { t: 1_700_000_003, pnl: 7 },
    ];
    expect(decodeSeries(encodeSeries(points, 1), 1)).toEqual(points);
  });

  it("finds the point at each instant as a scan of the decoded points does", () => {
    const instant = fc.integer({ min: 1_700_000_000, max: 1_700_000_000 + 60 * 10_000_000 });
    fc.assert(
      fc.property(series, fc.array(instant, { minLength: 1, maxLength: 3 }), (points, instants) => {
        const expected = instants.map((at) => [...points].reverse().find((p) => p.t <= at));
        expect(packedPointsAt(encodeSeries(points, 1e6), 1e6, instants)).toEqual(expected);
        expect(instants.map((at) => pointAt(points, at))).toEqual(expected);
      }),
    );
  });

  it("packs a day's hourly valuations and a daily curve in a few bytes a point", () => {
    // Hand-made: 24 hours, a third unchanged; 60 days of micro-USD amounts.
    const hours = Array.from({ length: 24 }, (_, h) => ({ t: 3_600 * h, pnl: h % 3 === 0 ? 1 / 3 : h * 101.25 }));
    for (let h = 1; h < 24; h += 3) hours[h] = { t: 3_600 * h, pnl: hours[h - 1]!.pnl };
    expect(encodeSeries(hours, 1e6).length).toBeLessThan(24 * 8);
    const days = Array.from({ length: 60 }, (_, d) => ({ t: 86_400 * d, pnl: 1_000_000 * d * d - 7 }));
    expect(encodeSeries(days, 1).length).toBeLessThanOrEqual(60 * 7);
  });

  it("refuses times that do not increase", () => {
    expect(() =>
      encodeSeries(
        [
          { t: 10, pnl: 1 },
          { t: 10, pnl: 2 },
        ],
        1,
      ),
    ).toThrow(/does not follow/);
    expect(() => encodeSeries([{ t: 10, pnl: null as unknown as number }], 1)).toThrow(/not a number/);
    expect(() => decodeSeries(Uint8Array.of(0x81), 1)).toThrow(/inside a varint/);
  });

  it("merges a later write over a stored point of the same time", () => {
    expect(
      mergeSeries(
        [
          { t: 1, pnl: 1 },
          { t: 3, pnl: 3 },
        ],
        [
          { t: 3, pnl: 30 },
          { t: 2, pnl: 2 },
        ],
      ),
    ).toEqual([
      { t: 1, pnl: 1 },
      { t: 2, pnl: 2 },
      { t: 3, pnl: 30 },
    ]);
  });
});

describe.each(storeBackends)("the P&L series, on $kind", (backend) => {
  it("merge, replace, prune and delete a wallet's points, each wallet stored once as an id", async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.transaction((tx) =>
        mergePnlPoints(tx, [
          { wallet: A, resolution: "hour", t: 3_600, pnl: 1.5 },
          { wallet: A, resolution: "day", t: 86_400, pnl: -2.25 },
          { wallet: B, resolution: "hour", t: 3_600, pnl: 10 },
        ]),
      );
      // Replacing a time's value, and adding a point.
      await store.transaction((tx) =>
        mergePnlPoints(tx, [
          { wallet: B, resolution: "hour", t: 7_200, pnl: 13 },
          { wallet: B, resolution: "hour", t: 3_600, pnl: 12 },
        ]),
      );
      expect(await storedPnlPoints(store)).toEqual([
        { wallet: A, resolution: "day", t: 86_400, pnl: -2.25 },
        { wallet: A, resolution: "hour", t: 3_600, pnl: 1.5 },
        { wallet: B, resolution: "hour", t: 3_600, pnl: 12 },
        { wallet: B, resolution: "hour", t: 7_200, pnl: 13 },
      ]);
      const ids = await queryRows<{ address: string }>(store.db, store.kind, "select address from address_ids");
      expect(ids.map((r) => r.address).sort()).toEqual([A, B]);
      expect(await walletSeries(store, B, "hour")).toEqual([
        { t: 3_600, pnl: 12 },
        { t: 7_200, pnl: 13 },
      ]);
      expect(await seriesPointsAt(store, "hour", "all", 5_000)).toEqual(
        new Map([
          [A, { t: 3_600, pnl: 1.5 }],
          [B, { t: 3_600, pnl: 12 }],
        ]),
      );

      expect(await seriesPointsAtEach(store, "hour", [A, B, `0x${"c".repeat(40)}`], [0, 7_200])).toEqual(
        new Map([
          [A, [undefined, { t: 3_600, pnl: 1.5 }]],
          [B, [undefined, { t: 7_200, pnl: 13 }]],
        ]),
      );
      // B has no daily points: replacing them writes its new ones and leaves its hourly ones.
      await store.transaction((tx) =>
        replacePnlPoints(tx, "day", [B], [{ wallet: B, resolution: "day", t: 86_400, pnl: 4 }]),
      );
      expect(await storedPnlPoints(store, { wallet: B })).toHaveLength(3);
      await store.transaction((tx) => prunePnlSeries(tx, "hour", 7_200));
      expect((await storedPnlPoints(store)).map((r) => [r.wallet, r.resolution, r.t])).toEqual([
        [A, "day", 86_400],
        [B, "day", 86_400],
        [B, "hour", 7_200],
      ]);
      await store.transaction((tx) => deletePnlSeries(tx, ["hour", "day"], [A]));
      expect(new Set((await storedPnlPoints(store)).map((r) => r.wallet))).toEqual(new Set([B]));
      await store.transaction((tx) => replacePnlPoints(tx, "both", "all", []));
      expect(await storedPnlPoints(store)).toEqual([]);
    } finally {
      await dispose();
    }
  });

  it("write a stream of wallets' points a few hundred wallets at a time", async () => {
    const { store, dispose } = await backend.open();
    try {
      const wallets = Array.from({ length: 1_201 }, (_, i) => `0x${i.toString(16).padStart(40, "0")}`);
      function* rows() {
        for (const [i, wallet] of wallets.entries()) {
          yield { wallet, resolution: "day" as const, t: 86_400, pnl: i };
          yield { wallet, resolution: "hour" as const, t: 3_600, pnl: i / 4 };
          yield { wallet, resolution: "hour" as const, t: 7_200, pnl: i / 2 };
        }
        // The first wallet's hourly series met again after the others: merged over what was written of it.
        yield { wallet: wallets[0]!, resolution: "hour" as const, t: 10_800, pnl: 5 };
        yield { wallet: wallets[0]!, resolution: "hour" as const, t: 3_600, pnl: 7 };
      }
      await store.transaction((tx) => replacePnlPoints(tx, "both", "all", rows()));
      const stored = await storedPnlPoints(store);
      expect(stored).toHaveLength(3 * wallets.length + 1);
      expect(stored.reduce((sum, r) => sum + r.pnl, 0)).toBe(((1_200 * 1_201) / 2) * (1 + 1 / 4 + 1 / 2) + 5 + 7);
      expect(await walletSeries(store, wallets[0]!, "hour")).toEqual([
        { t: 3_600, pnl: 7 },
        { t: 7_200, pnl: 0 },
        { t: 10_800, pnl: 5 },
      ]);
      expect(await walletSeries(store, wallets[1_200]!, "hour")).toEqual([
        { t: 3_600, pnl: 300 },
        { t: 7_200, pnl: 600 },
      ]);
    } finally {
      await dispose();
    }
  });

  it("replace the venue's curve of a wallet whole, a time listed twice kept once", async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.transaction((tx) =>
        replaceVenuePnlPoints(tx, A, [
          { wallet: A, t: 10, pnl: 5_000_000 },
          { wallet: A, t: 20, pnl: 6_000_000 },
          { wallet: A, t: 20, pnl: 6_000_000 },
        ]),
      );
      await store.transaction((tx) => replaceVenuePnlPoints(tx, B, [{ wallet: B, t: 10, pnl: 1 }]));
      await store.transaction((tx) => replaceVenuePnlPoints(tx, A, [{ wallet: A, t: 30, pnl: 7_000_000 }]));
      expect(await storedVenuePnlPoints(store)).toEqual([
        { wallet: A, t: 30, pnl: 7_000_000 },
        { wallet: B, t: 10, pnl: 1 },
      ]);
      await store.transaction((tx) => replaceVenuePnlPoints(tx, B, []));
      expect(await storedVenuePnlPoints(store)).toEqual([{ wallet: A, t: 30, pnl: 7_000_000 }]);
      // Our series and the venue's are apart: the venue's is not ours.
      expect(await storedPnlPoints(store)).toEqual([]);
    } finally {
      await dispose();
    }
  });

  it("are the points stored a row a point before migration 0047, after it", async () => {
    await fc.assert(
      fc.asyncProperty(series, series, series, async (hourly, daily, venue) => {
        const { store, dispose } = await backend.open({ migrations: migrationsBefore("0047_packed_pnl_series") });
        try {
          await queryRows(store.db, store.kind, "insert into address_ids (address) values (?), (?)", [A, B]);
          const id = async (wallet: string) =>
            (
              await queryRows<{ id: number }>(store.db, store.kind, "select id from address_ids where address = ?", [
                wallet,
              ])
            )[0]!.id;
          const insert = async (table: string, columns: string, rows: unknown[][]) => {
            for (const row of rows)
              await queryRows(
                store.db,
                store.kind,
                `insert into ${table} (${columns}) values (${row.map(() => "?").join(", ")})`,
                row,
              );
          };
          // Values a column of each table holds: doubles for ours (not NaN: SQL has none), integers for the venue's.
          const finite = (points: typeof hourly) => points.filter((p) => Number.isFinite(p.pnl));
          await insert("pnl_point_rows", "wallet_id, resolution, t, pnl", [
            ...finite(hourly).map((p) => [1, "hour", p.t, p.pnl]),
            ...finite(daily).map((p) => [1, "day", p.t, p.pnl]),
            ...finite(daily).map((p) => [2, "day", p.t, -p.pnl]),
          ]);
          const micro = venue.map((p, i) => {
            const rounded = Math.round(p.pnl);
            return { t: p.t, pnl: Number.isSafeInteger(rounded) ? rounded : i };
          });
          await insert(
            "venue_pnl_point_rows",
            "wallet_id, t, pnl",
            micro.map((p) => [2, p.t, p.pnl]),
          );
          expect(await id(B)).toBe(2);
          await migrateStore(store);
          const rows = (wallet: string, resolution: "hour" | "day", points: typeof hourly, sign = 1) =>
            finite(points).map((p) => ({ wallet, resolution, t: p.t, pnl: sign * p.pnl + 0 }));
          const stored = (await storedPnlPoints(store)).map((r) => ({ ...r, pnl: r.pnl + 0 }));
          expect(stored).toEqual([...rows(A, "day", daily), ...rows(A, "hour", hourly), ...rows(B, "day", daily, -1)]);
          expect(await storedVenuePnlPoints(store)).toEqual(micro.map((p) => ({ wallet: B, ...p, pnl: p.pnl + 0 })));
        } finally {
          await dispose();
        }
      }),
      { numRuns: backend.kind === "sqlite" ? 15 : 4 },
    );
  });
});
