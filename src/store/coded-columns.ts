/**
 * Columns of the id-keyed tables (src/store/id-keyed.ts) stored as small integers since migration 0056 (issue 49):
 * `wallet_fees`' month, entry type and role, `wallet_last_moves`' side and entry type; a position's status since
 * 0060. SQLite keeps the integers 0 and 1 in a record's header alone and any other below 32,768 in two bytes, where
 * the texts took 4 to 14 bytes a row and again in every key entry; PostgreSQL stores them as `smallint`. The views by
 * the old names read them back as the texts they were (`idKeyedViewSql`), so no reader changes, except one that
 * filters on a code's text where an index holds the code: the view's text is computed, so it filters on the stored
 * code (a position's status: src/store/position-status.ts). A value's code is its place in its list, and the lists
 * begin with the fills' own (`FILL_CODES`, `FILL_ROLES`), so a statement over `fill_rows` copies a fill's code as it
 * is. Decisions: docs/decisions.md, "Fees and last moves code their enums and months; daily prices store market ids"
 * and "Positions code their status".
 */
import { codeTextSql, FILL_CODES, storedCode, textToCodeSql } from "./fill-layout.js";
import { FILL_ROLES } from "./schema.js";

/** `wallet_fees`' codes: a fill's entry type and role, then the label of a fill without one (`feeEntryType`, `feeRole`). */
export const FEE_CODES = {
  entry_type: [...FILL_CODES.entry_type, "UNCLASSIFIED"],
  role: [...FILL_ROLES, "unknown"],
} as const;

/** `wallet_last_moves`' codes: the fill's own (a last move copies its fill's side and entry type). */
export const LAST_MOVE_CODES = { side: FILL_CODES.side, entry_type: FILL_CODES.entry_type } as const;

/**
 * `position_rows`' status (since 0060): the ledger writes `open` or `closed` (src/derive/ledger-rows.ts). Closed
 * first, so that the codes sort as the texts did (a position's indexes keep their order).
 */
export const POSITION_STATUS_CODES = { status: ["closed", "open"] } as const;

/** A column stored as a small integer: a value's code, and in SQL the code's text and a text's code. */
export interface ColumnCode {
  /**
   * A value as stored (null stays null); a value the code has none for is refused. `row`: the whole row, for a code
   * that depends on another column (a snapshot run's length, src/store/day-numbers.ts).
   */
  stored(value: unknown, row?: Readonly<Record<string, unknown>>): number | null;
  /** The rows table's name for the column, where it differs from the view's (a snapshot run's `day_count`). */
  readonly storedAs?: string;
  /** Read back as a number, not a text (a day in unix seconds): PostgreSQL gives it no collation. */
  readonly number?: true;
  /** SQL: the stored code under alias `alias` read back as its text. */
  textSql(alias: string): string;
  /** SQL: the column's text (under alias `alias`, or unqualified) turned into its code (for the migration, PostgreSQL's staged rows). */
  codeSql(alias?: string): string;
}

/** The code of a column whose values are a list's (`storedCode`, `codeTextSql`, `textToCodeSql` of fill-layout.ts). */
export function listCode<C extends Record<string, readonly string[]>>(codes: C, column: keyof C & string): ColumnCode {
  return {
    stored: (value) => storedCode(codes, column, value as string | null | undefined),
    textSql: (alias) => codeTextSql(codes, column, alias),
    codeSql: (alias) => `(${textToCodeSql(codes, column, alias)})`,
  };
}

/**
 * A UTC month (`YYYY-MM`, `feeMonth`) as stored: months since January 1970 (2026-08 is 679), so the months of
 * fills sort as their texts do, and take two bytes in a SQLite record (`yyyymm` would take three) and a `smallint`
 * on PostgreSQL (up to the year 4700).
 */
export function storedMonth(month: string): number {
  const parts = /^(\d{4})-(\d{2})$/.exec(month);
  const [year, inYear] = parts ? [Number(parts[1]), Number(parts[2])] : [0, 0];
  if (year < 1970 || inYear < 1 || inYear > 12) throw new Error(`store: month ${JSON.stringify(month)} is not YYYY-MM`);
  return (year - 1970) * 12 + inYear - 1;
}

/** SQL: a month's text (`YYYY-MM`) as `storedMonth` stores it; the same text on both stores. */
export function monthCodeSql(text: string): string {
  return `((cast(substr(${text}, 1, 4) as integer) - 1970) * 12 + cast(substr(${text}, 6, 2) as integer) - 1)`;
}

/** SQL: a stored month read back as its text (the same text on both stores: `substr` and integer division alike). */
function monthTextSql(code: string): string {
  return `(cast(1970 + ${code} / 12 as text) || '-' || substr(cast(101 + ${code} % 12 as text), 2))`;
}

/** SQL: a column under alias `alias`, or unqualified. */
export const qualified = (alias: string | undefined, column: string) => (alias ? `${alias}.${column}` : column);

/** `wallet_fees.month`'s code. */
export const MONTH_CODE: ColumnCode = {
  stored: (value) => storedMonth(value as string),
  textSql: (alias) => monthTextSql(`${alias}.month`),
  codeSql: (alias) => monthCodeSql(qualified(alias, "month")),
};
