/**
 * Issue 5, backfill throughput on SQLite: `fills` and `wallet_activity` lose AUTOINCREMENT. With it, every insert
 * statement reads and rewrites the table's row of `sqlite_sequence`, a second b-tree write per fill (SQLite's own
 * documentation advises against it where not needed). Without it a new row's id is the largest id plus one, which
 * is the same sequence for tables that only ever grow: no fill or activity row is ever deleted, so ids stay
 * increasing and the deriver's `id > cursor` reads see every row once. Each table is rebuilt under the same
 * definition minus the keyword, with its rows (ids kept) and its indexes as they stood: a first sync's deferred
 * fills indexes that were dropped stay dropped. PostgreSQL's bigserial has no such cost.
 */
import { sql, type Kysely } from "kysely";
import type { StoreKind, StoreMigration } from "./column-types.js";

const TABLES = ["fills", "wallet_activity"] as const;

export const plainRowIds: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    if (kind !== "sqlite") return;
    for (const table of TABLES) await rebuildWithoutAutoincrement(db, table);
  },
};

async function rebuildWithoutAutoincrement(db: Kysely<unknown>, table: string): Promise<void> {
  const schema = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = ${table} order by type desc`.execute(db);
  const definition = schema.rows.find((r) => r.type === "table")?.sql;
  if (!definition || !/\bautoincrement\b/i.test(definition)) return;
  // The unique constraints' automatic indexes (sql null) come back with the table's definition.
  const indexes = schema.rows.filter((r) => r.type === "index" && r.sql !== null).map((r) => r.sql as string);
  const rebuilt = `${table}_rebuilt`;
  const renamed = definition
    .replace(/\bautoincrement\b/i, "")
    .replace(/^create table\s+("?)[a-z_]+\1/i, `create table "${rebuilt}"`);
  await sql.raw(renamed).execute(db);
  await sql`insert into ${sql.id(rebuilt)} select * from ${sql.id(table)} order by id`.execute(db);
  await sql`drop table ${sql.id(table)}`.execute(db);
  await sql`alter table ${sql.id(rebuilt)} rename to ${sql.id(table)}`.execute(db);
  for (const index of indexes) await sql.raw(index).execute(db);
}
