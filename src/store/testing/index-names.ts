import { sql } from "kysely";
import type { Store } from "../database.js";

/** The names of a table's indexes on either store (the migration tests' view of the catalog). */
export async function indexNamesOf(store: Store, table: string): Promise<string[]> {
  const query =
    store.kind === "sqlite"
      ? sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`
      : sql<{ name: string }>`select indexname as name from pg_indexes
          where schemaname = current_schema() and tablename = ${table}`;
  return (await query.execute(store.db)).rows.map((r) => r.name);
}
