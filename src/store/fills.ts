/**
 * Writing fills and wallet activity: batched, idempotent by natural key (a replayed batch inserts nothing),
 * and fast enough for backfills. SQLite: one prepared statement run per row on the raw handle (measured 1.6x
 * faster than multi-row statements through Kysely). PostgreSQL: one INSERT ... SELECT FROM unnest(arrays) per chunk.
 * Call inside the transaction that also saves the source's checkpoint.
 */
import type { Statement } from "better-sqlite3";
import { sql, type Insertable, type Kysely, type Transaction } from "kysely";
import type { Store } from "./database.js";
import type { Database, FillsTable, WalletActivityTable } from "./schema.js";

export type NewFill = Insertable<FillsTable>;
export type NewActivity = Insertable<WalletActivityTable>;
type Db = Kysely<Database> | Transaction<Database>;

interface TableSpec {
  table: "fills" | "wallet_activity";
  key: string;
  /** Column name and its PostgreSQL array element type. */
  columns: ReadonlyArray<readonly [string, string]>;
}

const FILLS: TableSpec = {
  table: "fills",
  key: "fill_key",
  columns: [
    ["fill_key", "text"], ["source", "text"], ["tx_hash", "text"], ["log_index", "bigint"], ["block_number", "bigint"],
    ["order_hash", "text"], ["wallet", "text"], ["counterparty", "text"], ["role", "text"], ["condition_id", "text"],
    ["token_id", "text"], ["outcome_index", "bigint"], ["side", "text"], ["size", "bigint"], ["usd", "bigint"],
    ["price", "double precision"], ["fee", "bigint"], ["ts", "bigint"], ["entry_type", "text"], ["exchange_version", "bigint"],
  ],
};

const ACTIVITY: TableSpec = {
  table: "wallet_activity",
  key: "activity_key",
  columns: [
    ["activity_key", "text"], ["source", "text"], ["wallet", "text"], ["type", "text"], ["condition_id", "text"],
    ["token_id", "text"], ["outcome_index", "bigint"], ["size", "bigint"], ["usd", "bigint"], ["price", "double precision"],
    ["ts", "bigint"], ["tx_hash", "text"], ["log_index", "bigint"],
  ],
};

const PG_ROWS_PER_STATEMENT = 10_000;
const statements = new WeakMap<object, Map<string, Statement>>();

function sqliteInsert(store: Store, spec: TableSpec): Statement {
  const handle = store.sqlite!;
  let cache = statements.get(handle);
  if (!cache) statements.set(handle, (cache = new Map()));
  let statement = cache.get(spec.table);
  if (!statement) {
    const names = spec.columns.map(([c]) => c);
    statement = handle.prepare(
      `insert into ${spec.table} (${names.join(", ")}) values (${names.map(() => "?").join(", ")}) on conflict (${spec.key}) do nothing`,
    );
    cache.set(spec.table, statement);
  }
  return statement;
}

async function insertIgnoringDuplicates(store: Store, db: Db, spec: TableSpec, rows: ReadonlyArray<Record<string, unknown>>): Promise<number> {
  if (rows.length === 0) return 0;
  if (store.kind === "sqlite") {
    const statement = sqliteInsert(store, spec);
    let inserted = 0;
    for (const row of rows) inserted += statement.run(spec.columns.map(([c]) => row[c] ?? null)).changes;
    return inserted;
  }
  let inserted = 0;
  for (let start = 0; start < rows.length; start += PG_ROWS_PER_STATEMENT) {
    const part = rows.slice(start, start + PG_ROWS_PER_STATEMENT);
    const arrays = spec.columns.map(([column, type]) => sql`${part.map((row) => row[column] ?? null)}::${sql.raw(type)}[]`);
    const result = await sql`
      insert into ${sql.table(spec.table)} (${sql.join(spec.columns.map(([c]) => sql.id(c)))})
      select * from unnest(${sql.join(arrays)})
      on conflict (${sql.id(spec.key)}) do nothing`.execute(db);
    inserted += Number(result.numAffectedRows ?? 0);
  }
  return inserted;
}

/**
 * Inserts fills, skipping those whose `fill_key` is already stored; returns how many were new.
 * `db` is the transaction to write in (or the store's db); on SQLite the rows go through the same connection.
 */
export function insertFills(store: Store, db: Db, fills: readonly NewFill[]): Promise<number> {
  return insertIgnoringDuplicates(store, db, FILLS, fills as ReadonlyArray<Record<string, unknown>>);
}

/** Inserts activity rows, skipping those whose `activity_key` is already stored; returns how many were new. */
export function insertActivity(store: Store, db: Db, rows: readonly NewActivity[]): Promise<number> {
  return insertIgnoringDuplicates(store, db, ACTIVITY, rows as ReadonlyArray<Record<string, unknown>>);
}
