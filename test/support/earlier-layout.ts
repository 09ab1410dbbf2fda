/**
 * A store as an earlier layout holds it, for the migration tests: what today's code wrote into a store with every
 * migration, copied into a store migrated only so far, table by table from the same-named table or view (the
 * columns both have, ids kept; the P&L series, packed today, as their points). Tables its triggers have filled already, and SQLite's FTS5 tables, are left as the
 * triggers and the index's own writer keep them. PostgreSQL's sequences are moved past the copied ids.
 */
import { sql } from "kysely";
import type { Store } from "../../src/store/database.js";
import { FILL_SPANS } from "../../src/store/fill-spans.js";
import { insertFills, type NewFill } from "../../src/store/fills.js";
import { createFillSpansTable } from "../../src/store/migrations/0051_fill_spans.js";
import { FILL_ROLES } from "../../src/store/schema.js";
import { queryRows } from "../../src/store/raw-sql.js";
import { storedPnlPoints, storedVenuePnlPoints } from "../../src/store/testing/pnl-points.js";

const ROWS_PER_INSERT = 200;

async function tablesOf(store: Store): Promise<string[]> {
  const text =
    store.kind === "sqlite"
      ? `select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'
           and sql not like 'create virtual table%' order by name`
      : `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
             and c.relname not like 'kysely_%' order by c.relname`;
  const tables = (await queryRows<{ name: string }>(store.db, store.kind, text)).map((r) => r.name);
  if (store.kind === "postgres") return tables;
  // An FTS5 table's shadow tables are named after it.
  const virtual = await queryRows<{ name: string }>(
    store.db,
    store.kind,
    "select name from sqlite_master where type = 'table' and sql like 'create virtual table%'",
  );
  return tables.filter((t) => !virtual.some((v) => t.startsWith(`${v.name}_`)));
}

/** A table's or view's column names, in their order, on either store. */
export async function columnsOf(store: Store, relation: string): Promise<string[]> {
  const text =
    store.kind === "sqlite"
      ? `select name from pragma_table_info(?)`
      : `select column_name as name from information_schema.columns
           where table_schema = current_schema() and table_name = ? order by ordinal_position`;
  return (await queryRows<{ name: string }>(store.db, store.kind, text, [relation])).map((r) => r.name);
}

/** Tables with triggers first: the tables their triggers fill are then skipped as filled. */
async function inCopyOrder(store: Store, tables: readonly string[]): Promise<string[]> {
  const text =
    store.kind === "sqlite"
      ? "select distinct tbl_name as name from sqlite_master where type = 'trigger'"
      : `select distinct event_object_table as name from information_schema.triggers
           where event_object_schema = current_schema()`;
  const triggered = new Set((await queryRows<{ name: string }>(store.db, store.kind, text)).map((r) => r.name));
  return [...tables.filter((t) => triggered.has(t)), ...tables.filter((t) => !triggered.has(t))];
}

/** Tables today's store keeps packed (src/store/pnl-series.ts), read as the rows an earlier layout held. */
const PACKED: Record<string, (store: Store) => Promise<Record<string, unknown>[]>> = {
  pnl_points: async (store) => (await storedPnlPoints(store)).map((row) => ({ ...row })),
  venue_pnl_points: storedVenuePnlPoints,
};

export async function copyIntoEarlierLayout(current: Store, earlier: Store): Promise<void> {
  for (const table of await inCopyOrder(earlier, await tablesOf(earlier))) {
    const packed = PACKED[table];
    const source = new Set(packed ? Object.keys((await packed(current))[0] ?? {}) : await columnsOf(current, table));
    const columns = (await columnsOf(earlier, table)).filter((c) => source.has(c));
    if (columns.length === 0) continue;
    const [present] = await queryRows<{ n: number }>(earlier.db, earlier.kind, `select count(*) as n from ${table}`);
    if (Number(present?.n) > 0) continue;
    const rows = packed
      ? (await packed(current)).map((row) => Object.fromEntries(columns.map((c) => [c, row[c]])))
      : await queryRows<Record<string, unknown>>(
          current.db,
          current.kind,
          `select ${columns.join(", ")} from ${table}`,
        );
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT)
      await earlier.db
        .insertInto(table as never)
        .values(rows.slice(i, i + ROWS_PER_INSERT) as never)
        .execute();
    if (table === "fill_rows") await fillRowsAsBefore0050(earlier);
    if (earlier.kind === "postgres" && columns.includes("id") && rows.length > 0) {
      const sequence = await queryRows<{ s: string | null }>(
        earlier.db,
        earlier.kind,
        "select pg_get_serial_sequence(?, 'id') as s",
        [table],
      );
      if (sequence[0]?.s)
        await sql`select setval(${sequence[0].s}, (select max(id) from ${sql.table(table)}))`.execute(earlier.db);
    }
  }
}

/**
 * Before migration 0050, `fill_rows` held a fill's role as text and its exchange version as it is: where a store's
 * layout is that old, turns rows today's writer (or a copy) wrote into the codes back into those. Nothing otherwise.
 */
export async function fillRowsAsBefore0050(store: Store): Promise<void> {
  const text =
    store.kind === "sqlite"
      ? "select lower(type) as type from pragma_table_info('fill_rows') where name = 'role'"
      : `select data_type as type from information_schema.columns
           where table_schema = current_schema() and table_name = 'fill_rows' and column_name = 'role'`;
  const [role] = await queryRows<{ type: string }>(store.db, store.kind, text);
  if (role?.type !== "text") return;
  const code = store.kind === "sqlite" ? "cast(role as integer)" : "role::integer";
  await sql
    .raw(`update fill_rows set role = case ${code} ${FILL_ROLES.map((r, i) => `when ${i} then '${r}'`).join(" ")} end,
      exchange_version = exchange_version + 1`)
    .execute(store.db);
}

/**
 * Fills written by today's writer into a store migrated only to before 0051, which has no `fill_spans`: the writer's
 * table is made for the write and dropped after, as such a store holds none (0051 makes the spans of its fills).
 */
export async function insertFillsBefore0051(store: Store, fills: readonly NewFill[]): Promise<NewFill[]> {
  return store.transaction(async (tx) => {
    await createFillSpansTable(tx.db, tx.kind);
    const stored = await insertFills(tx, fills);
    await sql.raw(`drop table ${FILL_SPANS}`).execute(tx.db);
    return stored;
  });
}
