/**
 * SQLite: the last id handed out for a table whose writer numbers its rows (`CompactTable.numbered`,
 * src/store/compact-writer.ts), one row a table, named after it (migration 0062: `activity_rows`, whose ids no index
 * holds). The writer reads it for a batch's first id and records the batch's last in the batch's transaction, so a
 * rolled-back batch hands out nothing and a committed one is never numbered again, even if its rows were deleted. A
 * table's row is written with its first id: a store whose table is empty holds none (and a copy of a store's tables
 * into another carries it with the rows).
 */
import type SqliteDatabase from "better-sqlite3";
import { preparedStatement } from "./sqlite-statements.js";

export const ROW_COUNTERS = "row_counters";

export const ROW_COUNTERS_TABLE = `create table ${ROW_COUNTERS} (
  name text primary key, last_id integer not null
) without rowid`;

/** SQL scalar: the last id handed out for `table` (0 before its first row). */
export const lastIdSql = (table: string): string =>
  `coalesce((select c.last_id from ${ROW_COUNTERS} c where c.name = '${table}'), 0)`;

/** The last id handed out for `table` (0 before its first row). */
export function lastId(handle: SqliteDatabase.Database, table: string): number {
  const row = preparedStatement(handle, `select ${lastIdSql(table)} as n`).get() as { n: number };
  return Number(row.n);
}

/** Records `id` as handed out for `table`: a counter only moves up. */
export function recordLastId(handle: SqliteDatabase.Database, table: string, id: number): void {
  preparedStatement(
    handle,
    `insert into ${ROW_COUNTERS} (name, last_id) values (?, ?)
      on conflict (name) do update set last_id = max(last_id, excluded.last_id)`,
  ).run(table, id);
}
