/**
 * A change counter per table that the market index and the whale book reload from: every insert, update or delete
 * of `markets`, `events`, `market_resolutions` and `market_stats` moves its table's count, in the same transaction,
 * whoever writes it. They compared row counts and sums of update times (in seconds) instead, which missed a second
 * write to a row within the same second, and scanned every row of those tables on each check.
 *
 * SQLite triggers run for each row; PostgreSQL's once per statement (truncation included).
 */
import { sql, type Kysely } from "kysely";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const COUNTED_TABLES = ["markets", "events", "market_resolutions", "market_stats"] as const;
export type CountedTable = (typeof COUNTED_TABLES)[number];

export const tableChanges: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    await db.schema
      .createTable("table_changes")
      .ifNotExists()
      .addColumn("name", t.text, (c) => c.primaryKey())
      .addColumn("n", t.int, (c) => c.notNull().defaultTo(0))
      .execute();
    for (const name of COUNTED_TABLES) {
      await sql`insert into table_changes (name, n) values (${name}, 0) on conflict (name) do nothing`.execute(db);
    }
    if (kind === "postgres") {
      // The schema the trigger fired in, not the session's search path: each store may live in a schema of its own.
      await sql`create or replace function count_table_change() returns trigger language plpgsql as $$
        begin
          execute format('update %I.table_changes set n = n + 1 where name = $1', tg_table_schema) using tg_table_name;
          return null;
        end $$`.execute(db);
      for (const name of COUNTED_TABLES) {
        await sql`drop trigger if exists ${sql.id(`${name}_counted`)} on ${sql.id(name)}`.execute(db);
        await sql`create trigger ${sql.id(`${name}_counted`)}
          after insert or update or delete or truncate on ${sql.id(name)}
          for each statement execute function count_table_change()`.execute(db);
      }
      return;
    }
    for (const name of COUNTED_TABLES) {
      for (const event of ["insert", "update", "delete"]) {
        await sql`create trigger if not exists ${sql.id(`${name}_counted_${event}`)} after ${sql.raw(event)} on ${sql.id(name)}
          begin update table_changes set n = n + 1 where name = ${sql.lit(name)}; end`.execute(db);
      }
    }
  },
};
