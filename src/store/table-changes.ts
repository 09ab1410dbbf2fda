/** The change counters of tables (migration 0026): a stamp that moves with every write to any of them. */
import type { CountedTable } from "./migrations/0026_table_changes.js";
import type { Store } from "./database.js";
import { placeholders } from "./raw-sql.js";
import { stampRows } from "./stamp-reads.js";

/** Read as a stamp (remembered on SQLite while the store is unchanged: src/store/stamp-reads.ts). */
export async function tableChangesStamp(store: Store, tables: readonly CountedTable[]): Promise<string> {
  const rows = await stampRows<{ name: string; n: number }>(
    store,
    `select name, n from table_changes where name in ${placeholders(tables.length)} order by name`,
    tables,
  );
  return rows.map((r) => `${r.name}=${Number(r.n)}`).join(",");
}
