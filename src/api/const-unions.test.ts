import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { constUnionsAsTypes } from "./const-unions.js";
import { Nullable } from "./nullable.js";
import { roundingSerializers } from "./compiled-schemas.js";

const Result = Type.Union([Type.Literal("win"), Type.Literal("loss"), Type.Literal("even")]);
const Row = Type.Object({
  result: Result,
  side: Nullable(Type.Union([Type.Literal("YES"), Type.Literal("NO")]), "the side, once known"),
  level: Type.Union([Type.Literal(1), Type.Literal(2)]),
  where: Type.Union([Type.Object({ x: Type.Number() }), Type.Object({ y: Type.String() })]),
  name: Type.Union([Type.String(), Type.Null()], { description: "written by hand" }),
});

describe("unions of constants for the serializer", () => {
  it("become lists of types with their values, nested anywhere; other unions stay", () => {
    const out = constUnionsAsTypes(Type.Object({ rows: Type.Array(Row) })) as unknown as {
      properties: { rows: { items: { properties: Record<string, Record<string, unknown>> } } };
    };
    const fields = out.properties.rows.items.properties;
    expect(fields.result).toMatchObject({ type: "string", enum: ["win", "loss", "even"] });
    expect(fields.result).not.toHaveProperty("anyOf");
    expect(fields.side).toMatchObject({
      type: ["string", "null"],
      enum: ["YES", "NO", null],
      description: "the side, once known",
    });
    expect(fields.level).toMatchObject({ type: "number", enum: [1, 2] });
    expect(fields.where!.anyOf).toHaveLength(2);
    expect(fields.name).toEqual({ type: ["string", "null"], description: "written by hand" });
  });

  it("leave the schema they were given unchanged (the OpenAPI document shows it)", () => {
    const schema = Type.Object({ result: Result });
    const before = JSON.stringify(schema);
    constUnionsAsTypes(schema);
    expect(JSON.stringify(schema)).toBe(before);
  });

  it("are written as JSON.stringify writes them", () => {
    const compile = roundingSerializers({}, {});
    const serialize = compile({ schema: Type.Array(Row), method: "GET", url: "/", httpStatus: "200" } as never);
    const rows = [
      { result: "win", side: "YES", level: 1, where: { x: 1.5 }, name: "a" },
      { result: "even", side: null, level: 2, where: { y: "b" }, name: null },
    ];
    expect(JSON.parse(serialize(rows))).toEqual(rows);
  });
});
