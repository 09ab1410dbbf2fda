/**
 * Unions of constants written as lists of types, for the serializer only: `anyOf: [{const: "win"}, {const: "loss"},
 * {type: "null"}]` becomes `{type: ["string", "null"], enum: ["win", "loss", null]}`. fast-json-stringify writes a
 * list of types by `typeof`, but checks an `anyOf` value against each branch with Ajv validators it compiles on first
 * use (15-20 ms of the first closed-positions answer went to compiling them) and runs on every value after. A union
 * of one plain type and null is listed the same way (as `Nullable`, src/api/nullable.ts, writes it in the first
 * place). The OpenAPI document keeps the schemas as written.
 */
import { withNullType } from "./nullable.js";

type Schema = Record<string, unknown>;

const PRIMITIVES: Record<string, string> = { string: "string", number: "number", boolean: "boolean" };

/** A branch's constants: `{const}`, `{type: "null"}`, or an enumeration already rewritten; null for anything else. */
function constantsOf(branch: unknown): unknown[] | null {
  if (typeof branch !== "object" || branch === null) return null;
  const b = branch as Schema;
  const plain = (keys: string[]) => Object.keys(b).every((k) => keys.includes(k) || k === "description");
  if (b.type === "null" && plain(["type"])) return [null];
  if ("const" in b && PRIMITIVES[typeof b.const] !== undefined && plain(["const", "type"])) return [b.const];
  if (Array.isArray(b.enum) && plain(["enum", "type"]) && b.enum.every((v) => v === null || PRIMITIVES[typeof v]))
    return b.enum;
  return null;
}

function constUnion(branches: unknown[]): Schema | null {
  const values: unknown[] = [];
  for (const branch of branches) {
    const constants = constantsOf(branch);
    if (constants === null) return null;
    values.push(...constants);
  }
  const types = [...new Set(values.map((v) => (v === null ? "null" : PRIMITIVES[typeof v]!)))];
  return types.length > 0 ? { type: types.length === 1 ? types[0] : types, enum: values } : null;
}

/** `anyOf: [T, {type: "null"}]` (either order) where T is one plain type: T with a list of types. */
function nullableUnion(branches: unknown[]): Schema | null {
  if (branches.length !== 2) return null;
  const isNull = (b: unknown) => {
    const constants = constantsOf(b);
    return constants?.length === 1 && constants[0] === null;
  };
  const other = isNull(branches[0]) ? branches[1] : isNull(branches[1]) ? branches[0] : undefined;
  return typeof other === "object" && other !== null ? withNullType(other as Schema) : null;
}

const rewritten = new WeakMap<object, unknown>();

/** The schema with every union of constants (and null) rewritten as above; other parts as they were. */
export function constUnionsAsTypes<T>(schema: T): T {
  if (typeof schema !== "object" || schema === null) return schema;
  const known = rewritten.get(schema);
  if (known !== undefined) return known as T;
  let out: unknown;
  if (Array.isArray(schema)) {
    out = schema.map((s) => constUnionsAsTypes(s));
  } else {
    const copy: Schema = {};
    for (const [key, value] of Object.entries(schema as Schema))
      copy[key] = typeof value === "object" && value !== null ? constUnionsAsTypes(value) : value;
    const union = Array.isArray(copy.anyOf) ? (constUnion(copy.anyOf) ?? nullableUnion(copy.anyOf)) : null;
    if (union) delete copy.anyOf;
    out = union ? { ...copy, ...union, ...("description" in copy ? { description: copy.description } : {}) } : copy;
  }
  rewritten.set(schema, out);
  return out as T;
}
