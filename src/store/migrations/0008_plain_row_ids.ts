/**
 * Issue 5, backfill throughput on SQLite: `fills` and `wallet_activity` lose AUTOINCREMENT. With it, every insert
 * statement reads and rewrites the table's row of `sqlite_sequence`, a second b-tree write per fill (SQLite's own
 * documentation advises against it where not needed). Without it a new row's id is the largest id plus one, which
 * is the same sequence for tables that only ever grow: no fill or activity row is ever deleted, so ids stay
 * increasing and the deriver's `id > cursor` reads see every row once. Each table is rebuilt under the same
 * definition minus the keyword, with its rows (ids kept) and its indexes as they stood: a first sync's deferred
 * fills indexes that were dropped stay dropped. PostgreSQL's bigserial has no such cost.
 */
import type { Kysely } from "kysely";
import { rebuildSqliteTable } from "./sqlite-rebuild.js";
import type { StoreKind, StoreMigration } from "./column-types.js";

const TABLES = ["fills", "wallet_activity"] as const;

export const plainRowIds: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    if (kind !== "sqlite") return;
    for (const table of TABLES) await rebuildWithoutAutoincrement(db, table);
  },
};

function rebuildWithoutAutoincrement(db: Kysely<unknown>, table: string): Promise<void> {
  return rebuildSqliteTable(
    db,
    table,
    (definition) => (/\bautoincrement\b/i.test(definition) ? definition.replace(/\bautoincrement\b/i, "") : null),
    { order: "id" },
  );
}
