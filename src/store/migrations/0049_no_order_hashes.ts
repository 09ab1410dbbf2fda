/**
 * Issue 49: `fill_rows` no longer stores a fill's order hash. No answer serves it and no statement reads it: a fill
 * is found by its natural key (block and log index on chain, which also find its log, order hash included), and the
 * ledger, the statistics and the pages read amounts, ids and times. On a store a sync wrote, every chain fill held
 * it as 32 bytes (33 with its record header byte on SQLite): after 0048, more than the row's transaction hash. The
 * bench worlds were always written without it, so their bytes per fill stay; a synced store's come down to theirs.
 *
 * Where no row holds one (a bench world, a store without chain fills) the columns are dropped in place. Else the
 * table is written afresh: SQLite rebuilds it (packed pages, its indexes made again as they stood); PostgreSQL drops
 * the columns, a catalog change that leaves their bytes in the rows, then rewrites every partition once by giving
 * the log index a computed value of the same type (`log_index + 0`: a plain column would be a no-op), which writes
 * the rows without the dropped columns' values.
 */
import { sql, type Kysely } from "kysely";
import { FILL_ROWS, fillsViewSql } from "../fill-layout.js";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { rebuildSqliteTable, sqliteColumns } from "./sqlite-rebuild.js";

const ORDER_COLUMNS = ["order_hash", "order_text"] as const;

export const noOrderHashes: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const run = (text: string) => sql.raw(text).execute(db);
    await run("drop view fills");
    const held = await sql<{ held: number }>`select case when exists (
        select 1 from ${sql.table(FILL_ROWS)} where order_hash is not null or order_text is not null
      ) then 1 else 0 end as held`.execute(db);
    const rewrite = Number(held.rows[0]?.held) === 1;
    if (kind === "sqlite" && rewrite) await rebuildSqliteWithout(db);
    else for (const column of ORDER_COLUMNS) await run(`alter table ${FILL_ROWS} drop column ${column}`);
    if (kind === "postgres" && rewrite) {
      await run(`alter table ${FILL_ROWS} alter column log_index type integer using log_index + 0`);
      await run(`analyze ${FILL_ROWS}`);
    }
    await run(fillsViewSql(kind, "implied-tx"));
  },
};

async function rebuildSqliteWithout(db: Kysely<unknown>): Promise<void> {
  const kept = (await sqliteColumns(db, FILL_ROWS)).filter(
    (name) => !(ORDER_COLUMNS as readonly string[]).includes(name),
  );
  const dropped = (definition: string) =>
    ORDER_COLUMNS.reduce(
      (text, column) => text.replace(new RegExp(`,\\s*"?${column}"?\\s+[a-z]+`, "i"), ""),
      definition,
    );
  await rebuildSqliteTable(db, FILL_ROWS, dropped, { order: "id", select: kept.join(", ") });
}
