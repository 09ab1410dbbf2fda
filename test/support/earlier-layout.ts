/**
 * A store as an earlier layout holds it, for the migration tests: what today's code wrote into a store with every
 * migration, copied into a store migrated only so far, table by table from the same-named table or view (the
 * columns both have, ids kept; the P&L series, packed today, as their points). Tables its triggers have filled already, and SQLite's FTS5 tables, are left as the
 * triggers and the index's own writer keep them. PostgreSQL's sequences are moved past the copied ids.
 */
import { type Kysely, sql } from "kysely";
import type { Store, StoreTransaction } from "../../src/store/database.js";
import { FILL_CODES_COLUMN, fillCodeSql, type PackedFillCode } from "../../src/store/fill-codes.js";
import { FILL_SPANS } from "../../src/store/fill-spans.js";
import { addToDictionarySql } from "../../src/store/dictionaries.js";
import { ID_COLUMNS, idOf } from "../../src/store/id-keyed.js";
import { SNAPSHOT_STAGE } from "../../src/store/position-snapshots.js";
import { insertActivity, insertFills, type NewActivity, type NewFill } from "../../src/store/fills.js";
import { createFillSpansTable } from "../../src/store/migrations/0051_fill_spans.js";
import { startActivityCounter } from "../../src/store/migrations/0062_activity_ids_from_counter.js";
import { rebuildSqliteTable } from "../../src/store/migrations/sqlite-rebuild.js";
import { FILL_ROLES, type InsiderScoresTable, type PositionSnapshotsTable } from "../../src/store/schema.js";
import { queryRows } from "../../src/store/raw-sql.js";
import { ROW_COUNTERS } from "../../src/store/row-counters.js";
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
export async function columnsOf(store: Pick<Store, "db" | "kind">, relation: string): Promise<string[]> {
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
    const stored = await insertFillsBefore0059In(tx, fills);
    await sql.raw(`drop table ${FILL_SPANS}`).execute(tx.db);
    return stored;
  });
}

/** Fills written by today's writer into a store migrated only to before 0059 (see `insertFillsBefore0059In`). */
export async function insertFillsBefore0059(store: Store, fills: readonly NewFill[]): Promise<NewFill[]> {
  return store.transaction((tx) => insertFillsBefore0059In(tx, fills));
}

/** The five columns 0059 packs, each as it stood from 0050 to 0059 (the version less one), from `codes`. */
const UNPACKED_CODES: Readonly<Record<PackedFillCode, string>> = {
  side: fillCodeSql("side", ""),
  entry_type: fillCodeSql("entry_type", ""),
  role: fillCodeSql("role", ""),
  exchange_version: `${fillCodeSql("exchange_version", "")} - 1`,
  source: fillCodeSql("source", ""),
};

/**
 * Today's writer packs a fill's five codes into `codes` (src/store/fill-codes.ts); before 0059 `fill_rows` held them
 * as five columns. For the write the table takes a `codes` column (its source and side may be null meanwhile), then
 * the codes written are put in the five columns and the table is given back its own columns: on SQLite rebuilt twice
 * (the view dropped meanwhile and made again as it was), on PostgreSQL altered. Does nothing but write on a store of
 * today's layout.
 */
async function insertFillsBefore0059In(tx: StoreTransaction, fills: readonly NewFill[]): Promise<NewFill[]> {
  if ((await columnsOf(tx, "fill_rows")).includes(FILL_CODES_COLUMN)) return insertFills(tx, fills);
  const run = (text: string) => sql.raw(text).execute(tx.db);
  const db = tx.db as unknown as Kysely<unknown>;
  const unpack = `update fill_rows set ${Object.entries(UNPACKED_CODES)
    .map(([column, value]) => `${column} = ${value}`)
    .join(", ")} where ${FILL_CODES_COLUMN} is not null`;
  if (tx.kind === "postgres") {
    await run(`alter table fill_rows add column ${FILL_CODES_COLUMN} smallint,
      alter column source drop not null, alter column side drop not null`);
    const stored = await insertFills(tx, fills);
    await run(unpack);
    await run(`alter table fill_rows drop column ${FILL_CODES_COLUMN},
      alter column source set not null, alter column side set not null`);
    return stored;
  }
  const [view] = await queryRows<{ sql: string }>(tx.db, tx.kind, "select sql from sqlite_master where name = 'fills'");
  const [table] = await queryRows<{ sql: string }>(
    tx.db,
    tx.kind,
    "select sql from sqlite_master where type = 'table' and name = 'fill_rows'",
  );
  const columns = await columnsOf(tx, "fill_rows");
  await run("drop view fills");
  const widened = (definition: string) =>
    definition.replace(/("(source|side)" \w+) not null/gi, "$1").replace(/\)\s*$/, `, "${FILL_CODES_COLUMN}" integer)`);
  await rebuildSqliteTable(db, "fill_rows", widened, { order: "id", select: `*, null as ${FILL_CODES_COLUMN}` });
  const stored = await insertFills(tx, fills);
  await run(unpack);
  await rebuildSqliteTable(db, "fill_rows", () => table!.sql, { order: "id", select: columns.join(", ") });
  await run(view!.sql);
  return stored;
}

/**
 * A view of an id-keyed table turned back into the table of texts it reads (its columns and values), its rows table
 * dropped: the table as it stood before the migration that moved it.
 */
export async function viewAsTableOfTexts(store: Store, view: string, rows: string): Promise<void> {
  for (const statement of [
    `create table ${view}_before as select * from ${view}`,
    `drop view ${view}`,
    `drop table ${rows}`,
    `alter table ${view}_before rename to ${view}`,
  ])
    await sql.raw(statement).execute(store.db);
}

/**
 * Activity written by today's writer into a store migrated only to before 0062, whose SQLite has no `row_counters`:
 * the writer's counter is started for the write (as 0062 starts it, at the largest stored id) and dropped after, as
 * such a store holds none. Nothing but the write on PostgreSQL or a store of today's layout.
 */
export async function insertActivityBefore0062(store: Store, rows: readonly NewActivity[]): Promise<NewActivity[]> {
  return store.transaction(async (tx) => {
    const counted =
      tx.kind !== "sqlite" ||
      (await queryRows(tx.db, tx.kind, "select 1 from sqlite_master where name = ?", [ROW_COUNTERS])).length > 0;
    if (counted) return insertActivity(tx, rows);
    await startActivityCounter(tx.db as unknown as Kysely<unknown>);
    const stored = await insertActivity(tx, rows);
    await sql.raw(`drop table ${ROW_COUNTERS}`).execute(tx.db);
    return stored;
  });
}

/**
 * A day's snapshot rows written into a store migrated only to before 0065 (from 0036 on), whose staged rows have no
 * prices: today's writer stores a cost as its price (src/store/snapshot-costs.ts), so the rows are written with their
 * costs as they are, each wallet and market by its id (added to its dictionary first).
 */
export async function insertSnapshotRowsBefore0065(
  store: Store,
  rows: readonly PositionSnapshotsTable[],
): Promise<void> {
  await store.transaction(async (tx) => {
    for (const column of ["wallet", "condition_id"] as const) {
      const { dictionary } = ID_COLUMNS[column]!;
      for (const row of rows)
        await queryRows(tx.db, tx.kind, addToDictionarySql(dictionary, "select ? as v"), [row[column]]);
    }
    for (const r of rows)
      await queryRows(
        tx.db,
        tx.kind,
        `insert into ${SNAPSHOT_STAGE} (day, wallet_id, condition_ref, yes_shares, yes_cost, no_shares, no_cost)
          values (?, ${idOf("wallet")}, ${idOf("condition_id")}, ?, ?, ?, ?)`,
        [r.day, r.wallet, r.condition_id, r.yes_shares, r.yes_cost, r.no_shares, r.no_cost],
      );
  });
}

/**
 * Scored bets in the columns `insider_score_rows` had before 0061 (ids, the facts as text, every number as it is),
 * which 0061 keeps for a value its integers do not give (so also 0061's and 0062's layout), their wallets and
 * markets added to the dictionaries first.
 */
export async function insertScoredBetsBefore0061(store: Store, bets: readonly InsiderScoresTable[]): Promise<void> {
  const run = (text: string, params: readonly unknown[]) => queryRows(store.db, store.kind, text, params);
  for (const [table, column, values] of [
    ["address_ids", "address", bets.map((b) => b.wallet)],
    ["condition_ids", "condition_id", bets.map((b) => b.condition_id)],
  ] as const)
    for (const value of new Set(values))
      await run(`insert into ${table} (${column}) values (?) on conflict do nothing`, [value]);
  for (const b of bets)
    await run(
      `insert into insider_score_rows (wallet_id, condition_ref, outcome_index, score, confidence, bet_usd, avg_price,
        first_ts, last_ts, cluster_id, computed_at, facts)
        values ((select id from address_ids where address = ?), (select id from condition_ids where condition_id = ?),
        ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        b.wallet,
        b.condition_id,
        b.outcome_index,
        b.score,
        b.confidence,
        b.bet_usd,
        b.avg_price,
        b.first_ts,
        b.last_ts,
        b.cluster_id,
        b.computed_at,
        b.facts,
      ],
    );
}
