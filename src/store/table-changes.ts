/** The change counters of tables (migration 0026): a stamp that moves with every write to any of them. */
import type { Store } from "./database.js";
import type { CountedTable } from "./migrations/0026_table_changes.js";

export type { CountedTable };

export async function tableChangesStamp(store: Store, tables: readonly CountedTable[]): Promise<string> {
  const rows = await store.db
    .selectFrom("table_changes")
    .select(["name", "n"])
    .where("name", "in", tables)
    .orderBy("name")
    .execute();
  return rows.map((r) => `${r.name}=${Number(r.n)}`).join(",");
}
