/**
 * An id-keyed table's coded columns (`codedColumns`, src/store/coded-columns.ts) turned from their texts into the
 * small integers they are stored as, for the migrations that code a table's columns (0056, 0060). A view depends on
 * its table's columns, so it is dropped first and made again after, reading the codes back as the texts. SQLite
 * makes the rows table again with the columns as integers (a text column would turn a code back into text), its rows
 * converted and copied in the key's order, and its indexes again from their SQL (so on the integers); PostgreSQL
 * changes the columns to `smallint` in one `alter table`, which makes the indexes holding them again.
 */
import { sql, type Kysely } from "kysely";
import { codedColumns, ID_KEYED, type IdKeyedTable, idKeyedViewSql } from "../id-keyed.js";
import type { StoreKind } from "./column-types.js";
import { rebuildSqliteTable, sqliteColumns } from "./sqlite-rebuild.js";

/** `key`: the rows table's key as stored, which orders SQLite's copy. */
export async function storeCodedColumns(
  db: Kysely<unknown>,
  kind: StoreKind,
  table: IdKeyedTable,
  key: readonly string[],
): Promise<void> {
  await sql.raw(`drop view ${table}`).execute(db);
  if (kind === "sqlite") await rebuildSqlite(db, table, key);
  else await alterPostgres(db, table);
  await sql.raw(idKeyedViewSql(table, kind)).execute(db);
}

async function alterPostgres(db: Kysely<unknown>, table: IdKeyedTable): Promise<void> {
  const alters = Object.entries(codedColumns(table)).map(
    ([column, code]) => `alter column ${column} type smallint using ${code.codeSql()}`,
  );
  await sql.raw(`alter table ${ID_KEYED[table].rows} ${alters.join(", ")}`).execute(db);
}

async function rebuildSqlite(db: Kysely<unknown>, table: IdKeyedTable, key: readonly string[]): Promise<void> {
  const { rows } = ID_KEYED[table];
  const codes = codedColumns(table);
  const columns = await sqliteColumns(db, rows);
  const select = columns.map((c) => (codes[c] ? `${codes[c].codeSql()} as ${c}` : c)).join(", ");
  const integers = (definition: string) =>
    Object.keys(codes).reduce((d, c) => d.replace(new RegExp(`"${c}" text`, "i"), `"${c}" integer`), definition);
  // Ordered by the key's new values: the select list's places of the key's columns.
  const order = key.map((c) => columns.indexOf(c) + 1).join(", ");
  await rebuildSqliteTable(db, rows, integers, { order, select });
}
