/**
 * Rebuilding a SQLite table under a changed definition (SQLite cannot alter a table's storage in place): the table
 * created again as `rewrite` turns its `create table` text, its rows copied (ids kept), the old one dropped, the new
 * one renamed, its indexes and triggers created again as they stood. Nothing happens when `rewrite` returns null (the
 * table is as wanted already) or the table does not exist. `copy` orders the copied rows, and gives the select list
 * that turns an old row into a new one (every column as it is by default).
 */
import { sql, type Kysely } from "kysely";

export async function rebuildSqliteTable(
  db: Kysely<unknown>,
  table: string,
  rewrite: (definition: string) => string | null,
  copy: { order?: string; select?: string } = {},
): Promise<void> {
  const schema = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = ${table} order by type desc`.execute(db);
  const definition = schema.rows.find((r) => r.type === "table")?.sql;
  const rewritten = definition ? rewrite(definition) : null;
  if (!rewritten) return;
  // The unique constraints' automatic indexes (sql null) come back with the table's definition; the indexes and
  // triggers written out go with the dropped table.
  const dependents = schema.rows
    .filter((r) => (r.type === "index" || r.type === "trigger") && r.sql !== null)
    .map((r) => r.sql as string);
  const rebuilt = `${table}_rebuilt`;
  await sql.raw(rewritten.replace(/^create table\s+("?)[a-z_]+\1/i, `create table "${rebuilt}"`)).execute(db);
  const { order, select = "*" } = copy;
  await sql
    .raw(`insert into "${rebuilt}" select ${select} from "${table}"${order ? ` order by ${order}` : ""}`)
    .execute(db);
  await sql`drop table ${sql.id(table)}`.execute(db);
  await sql`alter table ${sql.id(rebuilt)} rename to ${sql.id(table)}`.execute(db);
  for (const dependent of dependents) await sql.raw(dependent).execute(db);
}

/** A table's definition stored in its key's b-tree (WITHOUT ROWID), or null when it is already. */
export function withoutRowidDefinition(definition: string): string | null {
  return /\bwithout rowid\s*$/i.test(definition) ? null : `${definition} without rowid`;
}

/** A SQLite table's column names, in their order. */
export async function sqliteColumns(db: Kysely<unknown>, table: string): Promise<string[]> {
  const columns = await sql<{ name: string }>`select name from pragma_table_info(${table}) order by cid`.execute(db);
  return columns.rows.map((c) => c.name);
}
