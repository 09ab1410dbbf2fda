/**
 * A Shape is a TypeBox schema of one venue payload plus its compiled validator. Schemas allow extra
 * properties (the venue adds fields without notice) but check the type of every field they name.
 */
import { PelagicError } from "../../errors/index.js";
import { Type, type Static, type TSchema } from "typebox";
import { Compile, type Validator } from "typebox/compile";

export interface ShapeIssue {
  /** JSON pointer of the offending value, "" for the root. */
  readonly path: string;
  readonly message: string;
}

/** A payload from the venue that does not have the shape the venue documents. */
export class VenueShapeError extends PelagicError {
  constructor(
    /** Where the payload came from, e.g. "data-api /trades row 17". */
    readonly source: string,
    readonly issues: readonly ShapeIssue[],
  ) {
    super(
      "VENUE_SHAPE_UNEXPECTED",
      `${source}: unexpected payload shape: ${issues
        .slice(0, 3)
        .map((i) => `${i.path || "/"} ${i.message}`)
        .join("; ")}`,
    );
  }
}

export interface Shape<S extends TSchema> {
  readonly name: string;
  readonly schema: S;
  is(value: unknown): value is Static<S>;
  issues(value: unknown): ShapeIssue[];
  /** The value, typed, or a VenueShapeError naming `source`. */
  parse(value: unknown, source?: string): Static<S>;
}

export function defineShape<S extends TSchema>(name: string, schema: S): Shape<S> {
  let compiled: Validator | undefined;
  // Compiled on first use, so importing every shape costs nothing until it is needed.
  const validator = (): Validator => (compiled ??= Compile(schema) as unknown as Validator);
  const shape: Shape<S> = {
    name,
    schema,
    is: (value: unknown): value is Static<S> => validator().Check(value),
    issues: (value) =>
      validator()
        .Errors(value)
        .map((e) => ({ path: e.instancePath, message: e.message })),
    parse(value, source = name) {
      if (validator().Check(value)) return value as Static<S>;
      throw new VenueShapeError(source, shape.issues(value));
    },
  };
  return shape;
}

/** A row of a list payload that failed its shape: skipped, with enough context to log and count. */
export interface RejectedRow {
  readonly source: string;
  readonly index: number;
  readonly issues: readonly ShapeIssue[];
  readonly raw: unknown;
}

/** A record the venue sent that cannot be used: skipped whole, logged with where it came from, and counted. */
export interface SkippedRecord {
  /** Where it came from, e.g. "data-api /trades offset 2000 row 17". */
  readonly origin: string;
  readonly reason: string;
}

/** The skipped records of a list payload's rejected rows, each with its first three issues. */
export function skippedRows(rejected: readonly RejectedRow[]): SkippedRecord[] {
  return rejected.map((r) => ({
    origin: `${r.source} row ${r.index}`,
    reason: r.issues
      .slice(0, 3)
      .map((i) => `${i.path || "/"} ${i.message}`)
      .join("; "),
  }));
}

/**
 * Splits a list payload into the rows that have the shape and the rows that do not, so one malformed
 * record is skipped instead of failing its whole page. A payload that is not an array at all throws.
 */
export function partitionRows<S extends TSchema>(
  shape: Shape<S>,
  payload: unknown,
  source: string,
): { rows: Static<S>[]; rejected: RejectedRow[] } {
  if (!Array.isArray(payload)) {
    throw new VenueShapeError(source, [{ path: "", message: "expected an array" }]);
  }
  const rows: Static<S>[] = [];
  const rejected: RejectedRow[] = [];
  payload.forEach((raw, index) => {
    if (shape.is(raw)) rows.push(raw);
    else rejected.push({ source, index, issues: shape.issues(raw), raw });
  });
  return { rows, rejected };
}

// Building blocks shared by the payload schemas.

export const HexAddress = Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" });
export const Hex32 = Type.String({ pattern: "^0x[0-9a-fA-F]{64}$" });
export const HexData = Type.String({ pattern: "^0x(?:[0-9a-fA-F]{2})*$" });
export const HexQuantity = Type.String({ pattern: "^0x[0-9a-fA-F]+$" });
/** A uint256 token id written in decimal, as the venue's JSON APIs write outcome token ids. */
export const DecimalTokenId = Type.String({ pattern: "^[0-9]{1,78}$" });
export const NumericString = Type.String({ pattern: "^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$" });
export const Side = Type.Union([Type.Literal("BUY"), Type.Literal("SELL")]);

/** An optional field that the venue sometimes sends as null. */
export function Maybe<T extends TSchema>(schema: T) {
  return Type.Optional(Type.Union([schema, Type.Null()]));
}

/** Parses a JSON-encoded array of strings such as "[\"Yes\", \"No\"]"; null when it is not one. */
export function parseJsonStringArray(text: string): string[] | null {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((v) => typeof v === "string") ? value : null;
  } catch {
    return null;
  }
}

/**
 * A string field that carries a JSON-encoded array of strings (Gamma's `outcomes`, `outcomePrices`,
 * `clobTokenIds`). A real array in its place is a shape error: the venue sends a string.
 */
export function JsonStringArray(description: string, itemPattern?: RegExp) {
  return Type.Refine(
    Type.String({ description }),
    (text: string) => {
      const items = parseJsonStringArray(text);
      return items !== null && (itemPattern === undefined || items.every((item) => itemPattern.test(item)));
    },
    () => `must be a JSON-encoded array of strings (${description})`,
  );
}
