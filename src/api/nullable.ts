/**
 * A response field that is `T` or null, as every route's schema writes it. Where `T` is one plain type (a number,
 * a string, an object, an array: no constant, enumeration or union), the schema lists both types
 * (`"type": ["number", "null"]`) instead of `anyOf`: fast-json-stringify writes a list of types by `typeof`, while
 * for an `anyOf` it checks each value against the branches with Ajv validators it compiles on first use (50-80 ms of
 * a market page's first request went to compiling them) and runs on every value after. Other `T` stay an `anyOf`.
 */
import { Type, type Static, type TSchema, type TUnion, type TNull } from "typebox";

const LISTABLE = new Set(["string", "number", "integer", "boolean", "object", "array"]);

export function Nullable<T extends TSchema>(schema: T, description?: string): TUnion<[T, TNull]> {
  const plain = schema as Record<string, unknown>;
  const listable =
    typeof plain.type === "string" &&
    LISTABLE.has(plain.type) &&
    !("const" in plain) &&
    !("enum" in plain) &&
    !("anyOf" in plain);
  if (!listable) return Type.Union([schema, Type.Null()], description ? { description } : {});
  const listed = { ...plain, type: [plain.type, "null"], ...(description ? { description } : {}) };
  // Typed as the union it stands for, so that handlers and the OpenAPI types see `T | null` either way.
  return Type.Unsafe<Static<T> | null>(listed) as unknown as TUnion<[T, TNull]>;
}
