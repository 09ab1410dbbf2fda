/**
 * A response field that is `T` or null, as every route's schema writes it. Where `T` is one plain type (a number,
 * a string, an object, an array: no constant, enumeration or union), the schema lists both types
 * (`"type": ["number", "null"]`) instead of `anyOf`: fast-json-stringify writes a list of types by `typeof`, while
 * for an `anyOf` it checks each value against the branches with Ajv validators it compiles on first use (50-80 ms of
 * a market page's first request went to compiling them) and runs on every value after. Other `T` stay an `anyOf`.
 * The serializer lists hand-written unions of a plain type and null the same way (src/api/const-unions.ts, through
 * `withNullType`); written here, the OpenAPI document shows the list too, with the field's description beside it.
 */
import { Type, type Static, type TSchema, type TUnion, type TNull } from "typebox";

const LISTABLE = new Set(["string", "number", "integer", "boolean", "object", "array"]);

/** `schema` or null as one schema with a list of types, when `schema` is one plain type; else null. */
export function withNullType(schema: Record<string, unknown>, description?: unknown): Record<string, unknown> | null {
  const listable =
    typeof schema.type === "string" &&
    LISTABLE.has(schema.type) &&
    !("const" in schema) &&
    !("enum" in schema) &&
    !("anyOf" in schema);
  if (!listable) return null;
  return { ...schema, type: [schema.type, "null"], ...(description !== undefined ? { description } : {}) };
}

export function Nullable<T extends TSchema>(schema: T, description?: string): TUnion<[T, TNull]> {
  const listed = withNullType(schema as Record<string, unknown>, description);
  if (!listed) return Type.Union([schema, Type.Null()], description ? { description } : {});
  // Typed as the union it stands for, so that handlers and the OpenAPI types see `T | null` either way.
  return Type.Unsafe<Static<T> | null>(listed) as unknown as TUnion<[T, TNull]>;
}
