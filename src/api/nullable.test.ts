import build from "fast-json-stringify";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { Nullable } from "./nullable.js";

describe("Nullable", () => {
  it("lists the types of a plain type, keeps anyOf for constants and unions", () => {
    expect(Nullable(Type.Number(), "usd")).toMatchObject({ type: ["number", "null"], description: "usd" });
    expect(Nullable(Type.Object({ a: Type.Integer() }))).toMatchObject({ type: ["object", "null"] });
    expect(Nullable(Type.Literal("YES"))).toHaveProperty("anyOf");
    expect(Nullable(Type.Union([Type.String(), Type.Integer()]))).toHaveProperty("anyOf");
  });

  it("serializes values and nulls as JSON.stringify does, objects and arrays included", () => {
    const Body = Type.Object({
      n: Nullable(Type.Number()),
      s: Nullable(Type.String()),
      o: Nullable(Type.Object({ a: Type.Integer(), b: Nullable(Type.String()) })),
      l: Nullable(Type.Array(Type.Number())),
      side: Nullable(Type.Literal("YES")),
    });
    const serialize = build(Body as never);
    for (const value of [
      { n: 1.5, s: "x", o: { a: 1, b: null }, l: [1, 2], side: "YES" },
      { n: null, s: null, o: null, l: null, side: null },
      { n: 0, s: "", o: { a: 0, b: 'q"' }, l: [], side: "YES" },
    ])
      expect(JSON.parse(serialize(value))).toEqual(value);
  });
});
