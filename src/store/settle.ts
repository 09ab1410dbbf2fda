/**
 * What a PostgreSQL store needs once a bulk write has filled or rewritten its tables (the Deriver's derivation at
 * its start, after a first sync too; `pelagic rebuild`; a migration of a stored layout) and before it serves:
 * `VACUUM (ANALYZE)` of the store's tables. The vacuum sets the visibility map, without which every index-only scan
 * also reads each entry's heap page (a busy market's whale-trade candidates at 10,000,000 fills, cold: 9,526 pages
 * read for 12,002 index entries, 875 ms, against 75 ms settled); the analyze gives the planner the tables'
 * statistics. Autovacuum gets there at its own pace, or never where it is off. SQLite keeps neither: nothing to do.
 * See docs/decisions.md, "A PostgreSQL store is vacuumed once a bulk write ends".
 */
import { sql } from "kysely";
import type { Store } from "./database.js";
import { sqlIdentifier } from "./pg-copy.js";

/**
 * The PostgreSQL store's own tables in its schema (the connection's search path), by name: partitioned ones as their
 * parent, not their partitions.
 */
export async function storeTableNames(store: Store): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c
    where c.relnamespace = ${store.schema ?? "public"}::regnamespace and c.relkind in ('r', 'p')
      and not c.relispartition
    order by c.relname`.execute(store.db);
  return rows.map((r) => r.name);
}

export async function settleAfterBulkWrite(store: Store): Promise<void> {
  if (store.kind !== "postgres") return;
  const tables = await storeTableNames(store);
  // Outside any transaction (VACUUM refuses to run in one): Kysely runs a lone statement on a pooled connection.
  // A partitioned table is vacuumed through its partitions.
  if (tables.length > 0) await sql.raw(`vacuum (analyze) ${tables.map(sqlIdentifier).join(", ")}`).execute(store.db);
}
