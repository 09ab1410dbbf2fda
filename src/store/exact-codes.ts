/**
 * Columns an id-keyed table (src/store/id-keyed.ts) stores as integers where the integers give the value back
 * exactly, and as itself where they cannot (since migration 0061, issue 49): a SQLite record keeps an integer in 1 to
 * 8 bytes by its magnitude (0 and 1 in its header alone) where a fraction takes 8 and a JSON text its length. The
 * column keeps its name and holds the value only where its codes cannot give it back (else null, which a SQLite
 * record keeps in its header alone); the codes are integer columns beside it (null where the column keeps the value).
 * The view by the table's old name reads the value back from whichever holds it (`valueSql`), so no reader changes,
 * and every value reads back as it was written: a code is kept only when the value read back from it is the value
 * itself (a number by `Object.is`, a text byte for byte). Writes code a row in TypeScript (`storedExactly`): the
 * derived tables' writer on both stores, and the migration that codes the rows already stored.
 * Decision: docs/decisions.md, "Scored bets store their facts, confidence and price as integers".
 */
import type { StoreKind } from "./migrations/column-types.js";

export interface ExactCode {
  /** The integer columns that code the value, in their order (a 64-bit `bigint` on PostgreSQL). */
  readonly codes: readonly string[];
  /** Read back as a number, not a text (PostgreSQL gives it no collation). */
  readonly number?: true;
  /**
   * The value as stored: itself where the codes cannot give it back exactly, else null; then each code. `row`: the
   * whole row, for a code read back with another column (a snapshot's cost with its shares, src/store/snapshot-costs.ts).
   */
  stored(value: unknown, row: Readonly<Row>): unknown[];
  /** SQL: the value read back from the row under alias `alias`: the kept value, else the one the codes give. */
  valueSql(alias: string, kind: StoreKind): string;
}

type Row = Record<string, unknown>;

/** A row with its exactly coded columns as stored (`codes`: each column's code): a new row, the given one unchanged. */
export function storedExactly(codes: Readonly<Record<string, ExactCode>>, row: Readonly<Row>): Row {
  // Copied by `Object.assign`: a spread's copy took its new columns ten times slower (13 µs a row, not 1.7).
  const stored: Row = Object.assign({}, row);
  for (const [column, code] of Object.entries(codes)) {
    const values = code.stored(row[column], row);
    stored[column] = values[0];
    code.codes.forEach((name, i) => {
      stored[name] = values[i + 1];
    });
  }
  return stored;
}

/** The integer columns that code a table's exactly coded columns, in the order `storedExactly` writes them. */
export const exactCodeColumns = (codes: Readonly<Record<string, ExactCode>>): string[] =>
  Object.values(codes).flatMap((code) => code.codes);

/** SQL: a term as a double on both stores (SQLite gives a type named `double precision` its REAL affinity). */
export const doubleSql = (term: string): string => `cast(${term} as double precision)`;

/**
 * A number kept to `places` decimal places (a price in micro-units, a ratio in basis points) as the integer count of
 * those units in column `code`: where the count divided by 10^places is the number itself, which both stores compute
 * as JavaScript does (one correctly rounded division of two doubles that hold their integers exactly). Any other
 * number (more places, beyond 2^53 units, -0) is kept as it is.
 */
export function decimalCode(column: string, code: string, places: number): ExactCode {
  const scale = 10 ** places;
  return {
    codes: [code],
    number: true,
    stored(value) {
      // `+ 0` turns a -0 into 0, which then reads back as 0, not the -0 it came from: such a value is kept.
      const units = typeof value === "number" ? Math.round(value * scale) + 0 : Number.NaN;
      return Number.isSafeInteger(units) && Object.is(units / scale, value) ? [null, units] : [value ?? null, null];
    },
    valueSql(alias, kind) {
      const quotient =
        kind === "postgres" ? `cast(${alias}.${code} as double precision) / ${scale}` : `${alias}.${code} / ${scale}.0`;
      return `coalesce(${alias}.${column}, ${quotient})`;
    },
  };
}
