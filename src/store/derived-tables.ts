/**
 * Bulk writes of the derived tables (what `src/derive/` computes, and the venue's positions and P&L points a wallet
 * sync replaces; the P&L series: src/store/pnl-series.ts) inside a transaction. SQLite: one prepared statement run per row on the transaction's connection.
 * PostgreSQL: COPY, straight into the table after it was emptied, else through a temporary table and INSERT ... ON
 * CONFLICT DO UPDATE (which replaces a row's values, or, for a table of sums, adds to them). An id-keyed table
 * (src/store/id-keyed.ts) is written to its rows table, each wallet and market as its id, each column it codes
 * (`codedColumns`, since 0056) as its code, and each it codes exactly (`exactCodes`, since 0061) as its codes or
 * itself (`storedExactly`).
 */
import type { StoreTransaction } from "./database.js";
import {
  ID_COLUMNS,
  ID_KEYED,
  INSIDER_SCORE_COLUMNS,
  MARKET_DAILY_PRICE_COLUMNS,
  POSITION_COLUMNS,
  VENUE_CLOSED_POSITION_COLUMNS,
  VENUE_POSITION_COLUMNS,
  codedColumns,
  exactCodes,
  idsOf,
  isIdKeyed,
  storedColumn,
} from "./id-keyed.js";
import type { ColumnCode } from "./coded-columns.js";
import { type ExactCode, exactCodeColumns, storedExactly } from "./exact-codes.js";
import { addToDictionarySql, type DictionaryIdCache, dictionaryIds } from "./dictionaries.js";
import { copyRows, sqlIdentifier } from "./pg-copy.js";
import { inSlices, placeholders, queryRows } from "./raw-sql.js";
import type { Database } from "./schema.js";
import { preparedStatement } from "./sqlite-statements.js";
import { MARKET_STATS_COLUMNS, WALLET_STATS_COLUMNS } from "./stats-columns.js";
import { LAST_MOVE_COLUMNS } from "./wallet-last-moves.js";
import { yieldToLoop } from "../platform/yield-to-loop.js";

export type DerivedTable =
  | "positions"
  | "wallet_stats"
  | "market_stats"
  | "position_snapshots"
  | "position_snapshot_runs"
  | "wallet_fees"
  | "wallet_daily_fills"
  | "market_daily_prices"
  | "wallet_last_moves"
  | "venue_positions"
  | "venue_closed_positions"
  | "insider_scores";

/** Each derived table's columns and primary key. */
export const DERIVED_TABLES: {
  readonly [T in DerivedTable]: {
    readonly columns: readonly (keyof Database[T] & string)[];
    readonly key: readonly (keyof Database[T] & string)[];
    /**
     * Columns that describe one row of the sums (the latest by `order`) rather than add up: adding rows keeps the
     * stored values or takes the incoming ones, whichever come later by `order` (both of its columns among them).
     */
    readonly latest?: {
      readonly columns: readonly (keyof Database[T] & string)[];
      readonly order: readonly [string, string];
    };
  };
} = {
  positions: { columns: POSITION_COLUMNS, key: ["wallet", "token_id"] },
  wallet_stats: { columns: WALLET_STATS_COLUMNS, key: ["wallet"] },
  market_stats: { columns: MARKET_STATS_COLUMNS, key: ["condition_id"] },
  position_snapshots: {
    columns: ["day", "wallet", "condition_id", "yes_shares", "yes_cost", "no_shares", "no_cost"],
    key: ["day", "wallet", "condition_id"],
  },
  position_snapshot_runs: {
    columns: ["wallet", "condition_id", "from_day", "until_day", "yes_shares", "yes_cost", "no_shares", "no_cost"],
    key: ["wallet", "condition_id", "from_day"],
  },
  wallet_fees: {
    columns: ["wallet", "month", "entry_type", "role", "fees", "volume", "fills", "charged"],
    key: ["wallet", "month", "entry_type", "role"],
  },
  wallet_daily_fills: { columns: ["wallet", "day", "fills", "usd"], key: ["wallet", "day"] },
  market_daily_prices: {
    columns: MARKET_DAILY_PRICE_COLUMNS,
    key: ["condition_id", "day"],
    latest: { columns: ["close_ts", "close_id", "close_yes"], order: ["close_ts", "close_id"] },
  },
  venue_positions: { columns: VENUE_POSITION_COLUMNS, key: ["wallet", "token_id"] },
  venue_closed_positions: { columns: VENUE_CLOSED_POSITION_COLUMNS, key: ["wallet", "token_id"] },
  insider_scores: { columns: INSIDER_SCORE_COLUMNS, key: ["wallet", "condition_id", "outcome_index"] },
  // Nothing to add up: adding rows keeps, per wallet and market, the later fill.
  wallet_last_moves: {
    columns: LAST_MOVE_COLUMNS,
    key: ["wallet", "condition_id"],
    latest: { columns: LAST_MOVE_COLUMNS.slice(2), order: ["ts", "fill_id"] },
  },
};

/** SQLite runs this many rows, then lets the event loop breathe (the driver is synchronous). */
const SQLITE_ROWS_PER_SLICE = 10_000;

/**
 * Rows one SQLite insert carries: a statement a row spent a third of a large write on each statement's own stepping
 * (500,000 P&L points: 0.69 s a row at a time, 0.47 s fifty at a time).
 */
const SQLITE_ROWS_PER_INSERT = 50;

type Row = Record<string, unknown>;

/** Into an emptied table; replacing rows with the same key; adding to their values (a table of sums). */
type WriteMode = "insert" | "replace" | "add";

/** Where a table's rows are written: the table, or an id-keyed table's rows table with its ids for its texts. */
function target(table: DerivedTable): { name: string; columns: readonly string[]; key: readonly string[] } {
  const { columns, key } = DERIVED_TABLES[table];
  if (!isIdKeyed(table)) return { name: table, columns, key };
  const codes = codedColumns(table);
  const stored = (c: string) => codes[c]?.storedAs ?? storedColumn(c);
  return { name: ID_KEYED[table].rows, columns: writtenColumns(table).map(stored), key: key.map(stored) };
}

/** A table's exactly coded columns, each with its code (none unless id-keyed and so coded). */
function exactOf(table: DerivedTable): Readonly<Record<string, ExactCode>> {
  return isIdKeyed(table) ? exactCodes(table) : {};
}

/** The columns a row is written with: the table's, then the codes of its exactly coded columns (`asWritten`). */
function writtenColumns(table: DerivedTable): readonly string[] {
  return [...DERIVED_TABLES[table].columns, ...exactCodeColumns(exactOf(table))];
}

/** A row as written: its exactly coded columns as stored (the row itself for a table with none). */
function asWritten(table: DerivedTable): (row: Row) => Row {
  const exact = exactOf(table);
  return Object.keys(exact).length === 0 ? (row) => row : (row) => storedExactly(exact, row);
}

/** The columns of a table written as ids (none unless id-keyed). */
function idColumns(table: DerivedTable): readonly string[] {
  return isIdKeyed(table) ? DERIVED_TABLES[table].columns.filter((c) => ID_COLUMNS[c]) : [];
}

/** The columns of a table written as codes, each with its code (none unless id-keyed and coded). */
function codesOf(table: DerivedTable): [string, ColumnCode][] {
  return isIdKeyed(table) ? Object.entries(codedColumns(table)) : [];
}

/** The ON CONFLICT clause of a mode (empty for "insert"). */
function onConflict(table: DerivedTable, mode: WriteMode, quote: (c: string) => string = (c) => c): string {
  if (mode === "insert") return "";
  const { latest } = DERIVED_TABLES[table];
  const { name, columns, key } = target(table);
  const stored = (c: string) => `${name}.${quote(c)}`;
  const incoming = (c: string) => `excluded.${quote(c)}`;
  const later = latest
    ? `${incoming(latest.order[0])} > ${stored(latest.order[0])} or (${incoming(latest.order[0])} = ${stored(latest.order[0])} and ${incoming(latest.order[1])} > ${stored(latest.order[1])})`
    : "";
  const updates = columns
    .filter((c) => !key.includes(c))
    .map((c) => {
      if (mode === "replace") return `${quote(c)} = ${incoming(c)}`;
      if (latest?.columns.includes(c as never))
        return `${quote(c)} = case when ${later} then ${incoming(c)} else ${stored(c)} end`;
      return `${quote(c)} = ${stored(c)} + ${incoming(c)}`;
    });
  return ` on conflict (${key.map(quote).join(", ")}) do update set ${updates.join(", ")}`;
}

async function sqliteWrite(
  tx: StoreTransaction & { raw: { kind: "sqlite" } },
  table: DerivedTable,
  rows: Iterable<Row>,
  mode: WriteMode,
  ids?: DictionaryIdCache,
): Promise<void> {
  const { columns } = DERIVED_TABLES[table];
  const { name, columns: stored } = target(table);
  // Rows in one statement are inserted in their order, each conflict resolved as a statement of its own would.
  const insertOf = (count: number) =>
    preparedStatement(
      tx.raw.handle,
      `insert into ${name} (${stored.join(", ")}) values ${Array.from({ length: count }, () => placeholders(stored.length)).join(", ")}${onConflict(table, mode)}`,
    );
  const idsOf = idColumns(table).map((c) => ({
    at: columns.indexOf(c as never),
    column: c,
    idOf: dictionaryIds(tx.raw.handle, ID_COLUMNS[c]!.dictionary, ids?.of(ID_COLUMNS[c]!.dictionary)),
  }));
  const codes = codesOf(table).map(([c, code]) => ({ at: columns.indexOf(c as never), column: c, code }));
  const fullInsert = insertOf(SQLITE_ROWS_PER_INSERT);
  const [written, writable] = [writtenColumns(table), asWritten(table)];
  const width = written.length;
  const values = new Array<unknown>(width * SQLITE_ROWS_PER_INSERT);
  let buffered = 0;
  let inSlice = 0;
  for (const given of rows) {
    if (inSlice++ === SQLITE_ROWS_PER_SLICE) {
      await yieldToLoop();
      inSlice = 1;
    }
    const row = writable(given);
    const at = buffered * width;
    for (let c = 0; c < width; c++) values[at + c] = row[written[c]!] ?? null;
    for (const id of idsOf) values[at + id.at] = id.idOf(row[id.column] as string);
    for (const coded of codes) values[at + coded.at] = coded.code.stored(row[coded.column], row);
    if (++buffered < SQLITE_ROWS_PER_INSERT) continue;
    fullInsert.run(values);
    buffered = 0;
  }
  if (buffered > 0) insertOf(buffered).run(values.slice(0, buffered * width));
}

/** Past this many rows a staging table is truncated after use rather than emptied by the next write's delete. */
const STAGING_DELETE_ROWS = 5_000;

async function postgresWrite(
  tx: StoreTransaction & { raw: { kind: "postgres" } },
  table: DerivedTable,
  rows: readonly Row[],
  mode: WriteMode,
): Promise<void> {
  const { columns } = DERIVED_TABLES[table];
  const client = tx.raw.client;
  const ids = idColumns(table);
  const codes = new Map(codesOf(table));
  const written = writtenColumns(table);
  const exactColumns = written.slice(columns.length);
  if (mode === "insert" && ids.length === 0 && codes.size === 0 && exactColumns.length === 0) {
    await copyRows(client, table, columns, rows);
    return;
  }
  // Exact codes are staged beside the view's columns, under a name of their own: a session that wrote the table
  // before 0061 keeps the staging table it made then, without them.
  const staging = exactColumns.length > 0 ? `${table}_exact_incoming` : `${table}_derived_incoming`;
  const stagedCodes = exactColumns.map((c) => `, ${sqlIdentifier(c)} bigint`).join("");
  await client.query(
    `create temp table if not exists ${staging} (like ${table} including defaults${stagedCodes}) on commit delete rows`,
  );
  // Emptied by a delete, which a small staging table takes in microseconds; a truncate changes the catalog (about
  // a millisecond, paid per wallet by the wallet sync). A large batch is truncated after its insert, so that no
  // later write in the transaction scans its dead rows.
  await client.query(`delete from ${staging}`);
  await copyRows(client, staging, written, exactColumns.length > 0 ? rows.map(asWritten(table)) : rows);
  const { name, columns: stored } = target(table);
  let select = `select ${written.map(sqlIdentifier).join(", ")} from ${staging}`;
  if (ids.length > 0 || codes.size > 0) {
    const joins: string[] = [];
    for (const [i, c] of ids.entries()) {
      const dictionary = ID_COLUMNS[c]!.dictionary;
      await client.query(addToDictionarySql(dictionary, `select distinct ${c} as v from ${staging}`));
      joins.push(`join ${dictionary.table} d${i} on d${i}.${dictionary.column} = s.${c}`);
    }
    // The staging table is like the view: a coded column holds its text, turned into its code on the way.
    const value = (c: string) =>
      ids.includes(c) ? `d${ids.indexOf(c)}.id` : (codes.get(c)?.codeSql("s") ?? `s.${sqlIdentifier(c)}`);
    select = `select ${written.map(value).join(", ")} from ${staging} s ${joins.join(" ")}`;
  }
  await client.query(
    `insert into ${name} (${stored.map(sqlIdentifier).join(", ")}) ${select}${onConflict(table, mode, sqlIdentifier)}`,
  );
  if (rows.length > STAGING_DELETE_ROWS) await client.query(`truncate ${staging}`);
}

function write(
  tx: StoreTransaction,
  table: DerivedTable,
  rows: readonly Row[],
  mode: WriteMode,
  ids?: DictionaryIdCache,
): Promise<void> {
  if (rows.length === 0) return Promise.resolve();
  return tx.raw.kind === "sqlite"
    ? sqliteWrite(tx as StoreTransaction & { raw: { kind: "sqlite" } }, table, rows, mode, ids)
    : postgresWrite(tx as StoreTransaction & { raw: { kind: "postgres" } }, table, rows, mode);
}

/**
 * Inserts rows; a row with the same primary key as a stored one replaces its values, or, for a table of sums
 * (`"add"`), adds to them.
 */
export function upsertRows<T extends DerivedTable>(
  tx: StoreTransaction,
  table: T,
  rows: readonly Database[T][],
  onKey: "replace" | "add" = "replace",
): Promise<void> {
  return write(tx, table, rows as unknown as Row[], onKey);
}

/**
 * Inserts rows into a table (or part of one) the caller has just emptied; `ids`: the dictionary ids of a piece of
 * work that fails whole (SQLite).
 */
export function insertRows<T extends DerivedTable>(
  tx: StoreTransaction,
  table: T,
  rows: readonly Database[T][],
  ids?: DictionaryIdCache,
): Promise<void> {
  return write(tx, table, rows as unknown as Row[], "insert", ids);
}

/** Rows gathered into chunks of `size` (the last one shorter), each built as it is asked for. */
export function* rowChunks<R>(rows: Iterable<R>, size: number): Generator<R[]> {
  let chunk: R[] = [];
  for (const row of rows) {
    chunk.push(row);
    if (chunk.length < size) continue;
    yield chunk;
    chunk = [];
  }
  if (chunk.length > 0) yield chunk;
}

/** PostgreSQL copies a stream of rows in chunks of this many. */
const POSTGRES_ROWS_PER_COPY = 50_000;

/**
 * Inserts rows into a table the caller has just emptied, as `rows` makes them: on SQLite each row is bound as it
 * comes, so that none outlives its insert (rows gathered in chunks outlived the young generation, and V8 then made
 * every later row of the same literal in the old one: half a gigabyte of P&L points at 10,000,000 fills); on
 * PostgreSQL in chunks, each copied.
 */
export async function insertRowStream<T extends DerivedTable>(
  tx: StoreTransaction,
  table: T,
  rows: Iterable<Database[T]>,
  ids?: DictionaryIdCache,
): Promise<void> {
  if (tx.raw.kind === "sqlite")
    return sqliteWrite(
      tx as StoreTransaction & { raw: { kind: "sqlite" } },
      table,
      rows as Iterable<Row>,
      "insert",
      ids,
    );
  for (const chunk of rowChunks(rows as Iterable<Row>, POSTGRES_ROWS_PER_COPY))
    await postgresWrite(tx as StoreTransaction & { raw: { kind: "postgres" } }, table, chunk, "insert");
}

/** Deletes the rows whose `column` is one of `values` (and that match `extra`, e.g. `resolution = 'day'`). */
export async function deleteWhereIn(
  tx: StoreTransaction,
  table: DerivedTable,
  column: string,
  values: readonly unknown[],
  extra = "",
): Promise<void> {
  const { name } = target(table);
  const byId = idColumns(table).includes(column);
  const code = codesOf(table).find(([c]) => c === column)?.[1];
  const stored = code ? values.map((v) => code.stored(v)) : values;
  await inSlices(stored, (slice) => {
    const list = placeholders(slice.length);
    const where = byId ? `${storedColumn(column)} in ${idsOf(column, list)}` : `${column} in ${list}`;
    return queryRows(tx.db, tx.kind, `delete from ${name} where ${where}${extra ? ` and ${extra}` : ""}`, slice);
  });
}

/**
 * Empties a table, or the part of it matching `where` (which names no wallet or market, nor a coded column's text:
 * an id-keyed table stores ids and codes).
 */
export async function deleteAll(
  tx: StoreTransaction,
  table: DerivedTable,
  where = "",
  params: readonly unknown[] = [],
): Promise<void> {
  await queryRows(tx.db, tx.kind, `delete from ${target(table).name}${where ? ` where ${where}` : ""}`, params);
}

export type RankColumns = Pick<
  Database["wallet_stats"],
  "wallet" | "rank_pnl" | "rank_winrate" | "rank_volume" | "rank_profit_factor"
>;

const RANK_COLUMNS = ["rank_pnl", "rank_winrate", "rank_volume", "rank_profit_factor"] as const;

/** Sets the rank columns of existing wallet_stats rows. */
export async function updateRanks(tx: StoreTransaction, rows: readonly RankColumns[]): Promise<void> {
  if (rows.length === 0) return;
  if (tx.raw.kind === "sqlite") {
    const statement = preparedStatement(
      tx.raw.handle,
      `update wallet_stats set ${RANK_COLUMNS.map((c) => `${c} = ?`).join(", ")} where wallet = ?`,
    );
    for (const row of rows) statement.run([...RANK_COLUMNS.map((c) => row[c]), row.wallet]);
    return;
  }
  const client = tx.raw.client;
  const columns = ["wallet", ...RANK_COLUMNS];
  await client.query(
    "create temp table if not exists wallet_ranks_incoming (wallet text, rank_pnl bigint, rank_winrate bigint, rank_volume bigint, rank_profit_factor bigint) on commit delete rows",
  );
  await client.query("truncate wallet_ranks_incoming");
  await copyRows(client, "wallet_ranks_incoming", columns, rows as unknown as Row[]);
  await client.query(
    `update wallet_stats s set ${RANK_COLUMNS.map((c) => `${c} = i.${c}`).join(", ")} from wallet_ranks_incoming i where s.wallet = i.wallet`,
  );
}
