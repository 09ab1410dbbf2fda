/**
 * Every wallet's fills in (wallet id, ts, id) order on SQLite, a page at a time, as ids and numbers packed in one
 * Float64Array: what the rebuild's replay streams. The page is read where `readFillPage` runs (the read thread of
 * replay-reads.ts, or the caller's thread for a store in memory) and turned into rows with the dictionaries' texts
 * by `FillPageDecoder` on the replay's thread, so the replay's thread spends no time in SQLite's page reads (each
 * wallet's fills are rows scattered over a table stored in time order) and creates no string a dictionary holds.
 */
import type SqliteDatabase from "better-sqlite3";
import { FILL_CODES_COLUMN, unpackFillCode } from "../store/fill-codes.js";
import { FILL_CODES, FILL_DICTIONARIES, FILL_ROWS, fillKeySql, fillPriceSql } from "../store/fill-layout.js";
import { FILL_ROLES } from "../store/schema.js";
import { DictionaryTexts } from "../store/dictionaries.js";
import { preparedStatement } from "../store/sqlite-statements.js";
import type { StoredFill } from "./stored-events.js";

/** The rows a page holds, and their time bounds. */
export interface FillPagePlan {
  readonly pageRows: number;
  /** Only rows strictly before this time. */
  readonly before?: number;
  /** Only rows at or after this time. */
  readonly from?: number;
  /** Natural keys are read only for rows with a higher id. */
  readonly keysAbove: number;
}

/** The last row a page ended with: the next page starts after it. */
export interface FillPageCursor {
  readonly walletId: number;
  readonly ts: number;
  readonly id: number;
}

/** A page: `rows` rows of PACKED_COLUMNS.length numbers each (null as NaN), and the natural keys read. */
export interface FillPage {
  readonly values: Float64Array;
  readonly rows: number;
  /** The row's index in the page, then its natural key. */
  readonly keys: Array<[number, string]>;
}

/** The packed columns, each with its SQL over `fill_rows` f. */
const PACKED_COLUMNS = [
  ["id", "f.id"],
  ["wallet_id", "f.wallet_id"],
  ["counterparty_id", "f.counterparty_id"],
  ["condition_ref", "f.condition_ref"],
  ["token_ref", "f.token_ref"],
  ["codes", `f.${FILL_CODES_COLUMN}`],
  ["outcome_index", "f.outcome_index"],
  ["size", "f.size"],
  ["usd", "f.usd"],
  ["price", fillPriceSql("f")],
  ["fee", "f.fee"],
  ["ts", "f.ts"],
  ["log_index", "f.log_index"],
] as const;

const WIDTH = PACKED_COLUMNS.length;
const at = Object.fromEntries(PACKED_COLUMNS.map(([name], i) => [name, i])) as Record<
  (typeof PACKED_COLUMNS)[number][0],
  number
>;

/**
 * The statement for rows after `cursor`: the rest of its wallet (`same`), or the wallets after it (`later`). Two seeks:
 * one condition with an OR would scan the wallet's rows from its first for each page. The address dictionary in id
 * order drives the outer loop (CROSS JOIN keeps it outside) and each wallet's fills in the time range come from
 * `fills_wallet_ts`, so the order needs no sort (`fill_rows` ordered by wallet id alone was read through `fills_ts`
 * and sorted). Wallets come in the order of their ids: the order of the derived tables' keys.
 */
function pageSql(plan: FillPagePlan, after: "first" | "same" | "later", limit: number): string {
  const { addresses } = FILL_DICTIONARIES;
  const select = [...PACKED_COLUMNS.map(([, sql]) => sql), `case when f.id > ? then ${fillKeySql("sqlite", "f")} end`];
  const where: string[] = [];
  if (after === "same") where.push("w.id = ? and (f.ts, f.id) > (?, ?)");
  if (after === "later") where.push("w.id > ?");
  if (plan.before !== undefined) where.push("f.ts < ?");
  if (plan.from !== undefined) where.push("f.ts >= ?");
  return `select ${select.join(", ")} from ${addresses.table} w cross join ${FILL_ROWS} f on f.wallet_id = w.id${
    where.length ? ` where ${where.join(" and ")}` : ""
  } order by w.id, f.ts, f.id limit ${limit}`;
}

/** The statement's parameters in the order `pageSql` places them. */
function boundParams(plan: FillPagePlan, keyset: unknown[]): unknown[] {
  return [
    plan.keysAbove,
    ...keyset,
    ...(plan.before !== undefined ? [plan.before] : []),
    ...(plan.from !== undefined ? [plan.from] : []),
  ];
}

/** The page after `cursor` (the first page without one): fewer than `plan.pageRows` rows when the last. */
export function readFillPage(
  handle: SqliteDatabase.Database,
  plan: FillPagePlan,
  cursor: FillPageCursor | null,
): FillPage {
  const read = (after: "first" | "same" | "later", keyset: unknown[], limit: number) =>
    preparedStatement(handle, pageSql(plan, after, limit))
      .raw(true)
      .all(boundParams(plan, keyset)) as unknown[][];
  let rows: unknown[][];
  if (cursor === null) rows = read("first", [], plan.pageRows);
  else {
    rows = read("same", [cursor.walletId, cursor.ts, cursor.id], plan.pageRows);
    if (rows.length < plan.pageRows) rows = rows.concat(read("later", [cursor.walletId], plan.pageRows - rows.length));
  }
  const values = new Float64Array(rows.length * WIDTH);
  const keys: Array<[number, string]> = [];
  rows.forEach((row, r) => {
    for (let c = 0; c < WIDTH; c++) values[r * WIDTH + c] = (row[c] as number | null) ?? Number.NaN;
    const key = row[WIDTH] as string | null;
    if (key !== null) keys.push([r, key]);
  });
  return { values, rows: rows.length, keys };
}

/** Each row's wallet id. */
export function pageWalletIds(page: FillPage): number[] {
  const ids = new Array<number>(page.rows);
  for (let r = 0; r < page.rows; r++) ids[r] = page.values[r * WIDTH + at.wallet_id]!;
  return ids;
}

/** Where the page after `page` starts (null when `page` is empty). */
export function pageCursor(page: FillPage): FillPageCursor | null {
  if (page.rows === 0) return null;
  const last = (page.rows - 1) * WIDTH;
  return {
    walletId: page.values[last + at.wallet_id]!,
    ts: page.values[last + at.ts]!,
    id: page.values[last + at.id]!,
  };
}

/** A page's rows by index, each decoded as it is asked for. */
export interface DecodedFillPage {
  readonly length: number;
  row(index: number): StoredFill & { id: number };
}

const nullable = (value: number): number | null => (Number.isNaN(value) ? null : value);

/** Turns pages into rows with the dictionaries' texts (the dictionaries read once, from the caller's connection). */
export class FillPageDecoder {
  readonly addresses: DictionaryTexts;
  readonly conditions: DictionaryTexts;
  readonly tokens: DictionaryTexts;

  constructor(handle: SqliteDatabase.Database) {
    this.addresses = new DictionaryTexts(handle, FILL_DICTIONARIES.addresses);
    this.conditions = new DictionaryTexts(handle, FILL_DICTIONARIES.conditions);
    this.tokens = new DictionaryTexts(handle, FILL_DICTIONARIES.tokens);
  }

  /**
   * The page's rows, each turned into an object when asked for: a page's rows made at once outlive the young
   * generation while the replay works through them, and every page's would be garbage for the old one.
   */
  rows(page: FillPage): DecodedFillPage {
    const keys = new Map(page.keys);
    return { length: page.rows, row: (r) => this.row(page.values, r, keys.get(r) ?? "") };
  }

  private row(v: Float64Array, r: number, key: string): StoredFill & { id: number } {
    const o = r * WIDTH;
    const counterparty = nullable(v[o + at.counterparty_id]!);
    const codes = v[o + at.codes]!;
    const role = unpackFillCode(codes, "role");
    const entryType = unpackFillCode(codes, "entry_type");
    return {
      id: v[o + at.id]!,
      fill_key: key,
      wallet: this.addresses.text(v[o + at.wallet_id]!),
      counterparty: counterparty === null ? null : this.addresses.text(counterparty),
      role: role === null ? null : FILL_ROLES[role]!,
      condition_id: this.conditions.text(v[o + at.condition_ref]!),
      token_id: this.tokens.text(v[o + at.token_ref]!),
      outcome_index: v[o + at.outcome_index]!,
      side: FILL_CODES.side[unpackFillCode(codes, "side")!]!,
      size: v[o + at.size]!,
      usd: v[o + at.usd]!,
      price: v[o + at.price]!,
      fee: nullable(v[o + at.fee]!),
      ts: v[o + at.ts]!,
      log_index: nullable(v[o + at.log_index]!),
      entry_type: entryType === null ? null : FILL_CODES.entry_type[entryType]!,
    };
  }
}
