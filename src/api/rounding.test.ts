import fc from "fast-check";
import { Type, type TSchema } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp } from "../../test/support/app.js";
import { Nullable } from "./nullable.js";
import { decimalsOf, roundingFor } from "./rounding.js";

const nullables = [
  { form: "anyOf", nullable: <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]) },
  { form: "a list of types", nullable: <T extends TSchema>(schema: T) => Nullable(schema) },
];

describe.each(nullables)("roundingFor, nullable fields as $form", ({ nullable }) => {
  const Row = Type.Object({
    wallet: Type.String(),
    total_pnl: Type.Number(),
    win_rate: nullable(Type.Number()),
    trades: Type.Integer(),
    sparkline: Type.Array(Type.Number()),
  });
  const Body = Type.Object({
    rows: Type.Array(Row),
    best: nullable(Row),
    moves: Type.Record(Type.String(), Type.Object({ usd: Type.Number(), price: Type.Number() })),
    lat: Type.Number(),
  });

  it("rounds the named fields where the schema puts them, copying rather than changing the answer", () => {
    const row = {
      wallet: "0xa",
      total_pnl: 494425.37970567995,
      win_rate: 92.10526315789474,
      trades: 3,
      sparkline: [0.123456, 12.00004],
    };
    const body = {
      rows: [row],
      best: row,
      moves: { "0xc": { usd: 1.0000000000000002, price: 0.41666666666666663 } },
      lat: 48.123456789,
    };
    const rounded = roundingFor(Body)!(body);
    const expectedRow = { wallet: "0xa", total_pnl: 494425.38, win_rate: 92.11, trades: 3, sparkline: [0.1235, 12] };
    expect(rounded).toEqual({
      rows: [expectedRow],
      best: expectedRow,
      moves: { "0xc": { usd: 1, price: 0.4167 } },
      lat: 48.123456789,
    });
    expect(row.total_pnl).toBe(494425.37970567995);
    expect(
      roundingFor({ ...Row, properties: { ...Row.properties, win_rate: Type.Null() } })!({
        win_rate: null,
        total_pnl: 1.005,
      }),
    ).toEqual({ win_rate: null, total_pnl: 1 });
    expect(roundingFor(Type.Object({ lat: Type.Number(), name: Type.String() }))).toBeNull();
  });

  it("moves a number by at most half its last decimal, and rounds once for all", () => {
    const walk = roundingFor(Type.Object({ total_pnl: Type.Number(), avg_price: Type.Number(), size: Type.Number() }))!;
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (x) => {
        const once = walk({ total_pnl: x, avg_price: x, size: x }) as Record<string, number>;
        expect(Math.abs(once.total_pnl! - x)).toBeLessThanOrEqual(0.005 + 1e-9 * Math.abs(x));
        expect(Math.abs(once.avg_price! - x)).toBeLessThanOrEqual(0.00005 + 1e-9 * Math.abs(x));
        expect(walk(once)).toEqual(once);
      }),
    );
  });
});

describe("every number field of the document", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp();
  });
  afterAll(async () => t?.close());

  /**
   * Written as computed: coordinates and distances, durations (days), the thresholds a body echoes, bounds of a
   * range, timings rounded where they are made.
   */
  const AS_IS = new Set([
    "lat",
    "lon",
    "geometry",
    // The territory layers for a map (/api/v2/isw/layers): simplified where they are made (src/isw/layer-shapes.ts).
    "bbox",
    "grid_deg",
    "polygons",
    "buffer_advance_m",
    "closest_distance_m",
    "_elapsed_ms",
    "min",
    "max",
    "farmer",
    "smart",
    "home",
    "ledger",
    "whales",
    "roles",
    "hold_min_positions",
    // Ahead of the news: the windows in force (AHEAD_HOURS_*), settings echoed as set.
    "hours_before",
    "hours_after",
  ]);
  const AS_IS_PATTERN = /^(farmer|skill_min|smart_min|rank_min|min_)|(^|_)days(_|$)/;

  it("has a decided precision, or is written as computed on purpose", async () => {
    const doc = (await t.app.inject({ url: "/api/openapi.json" })).json() as {
      paths: Record<
        string,
        Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
      >;
    };
    const undecided = new Set<string>();
    const walk = (schema: unknown, key?: string): void => {
      if (typeof schema !== "object" || schema === null) return;
      const s = schema as Record<string, unknown>;
      const variants = [
        ...((s.anyOf as unknown[]) ?? []),
        ...((s.oneOf as unknown[]) ?? []),
        ...((s.allOf as unknown[]) ?? []),
      ] as Array<Record<string, unknown>>;
      const numeric =
        s.type === "number" ||
        variants.some((v) => v.type === "number") ||
        (s.type === "array" && (s.items as Record<string, unknown>)?.type === "number");
      if (key && numeric && decimalsOf(key) === undefined && !AS_IS.has(key) && !AS_IS_PATTERN.test(key))
        undecided.add(key);
      for (const [name, property] of Object.entries((s.properties as Record<string, unknown>) ?? {}))
        walk(property, name);
      for (const inner of [
        s.items,
        s.additionalProperties,
        ...Object.values((s.patternProperties as Record<string, unknown>) ?? {}),
        ...variants,
      ])
        walk(inner, key);
    };
    for (const methods of Object.values(doc.paths))
      for (const op of Object.values(methods)) walk(op.responses?.["200"]?.content?.["application/json"]?.schema);
    expect([...undecided].sort()).toEqual([]);
  });
});
