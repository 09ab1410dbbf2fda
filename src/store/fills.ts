/**
 * Writing fills and wallet activity: batched, idempotent by natural key (a replayed batch inserts nothing),
 * and fast enough for backfills. Each call returns the rows that were new, so listeners see every row once.
 * Both go through src/store/compact-writer.ts (fills: src/store/fill-rows.ts; activity: src/store/activity-rows.ts).
 * Call inside the transaction that also saves the source's checkpoint. Also here: the fills indexes a first sync
 * defers.
 */
import type { Insertable } from "kysely";
import type pg from "pg";
import { insertCompactActivity } from "./activity-rows.js";
import { type Store, type StoreKind, type StoreTransaction, withSqliteCacheMb } from "./database.js";
import { FILL_ROWS, FILLS_JOINED, fillSelectSql, textPerStore } from "./fill-layout.js";
import { SPAN_ENDS } from "./fill-spans.js";
import { idOf, storedColumn } from "./id-keyed.js";
import { firstRow } from "./raw-sql.js";
import { insertCompactFills } from "./fill-rows.js";
import type { FillsTable, WalletActivityTable } from "./schema.js";
import { recordWalletsOfFills } from "./wallets.js";
import { createFillIndex } from "./migrations/0014_drilldown_fill_indexes.js";
import { deferredFillIndexes } from "./migrations/0059_packed_fill_codes.js";

export { chainFillKey, CHAIN_KEY_BLOCK_DIGITS, CHAIN_KEY_LOG_DIGITS } from "./fill-layout.js";

export type NewFill = Insertable<FillsTable>;
export type NewActivity = Insertable<WalletActivityTable>;

/**
 * SQL scalar subqueries: the store's last fill id (an end of `fill_rows`' key), and its fills' latest and earliest
 * times (from the newest and oldest of `fill_spans`). Through the view's joins PostgreSQL reads no max from an index
 * end: it scanned every fill (480 ms a read at 1,000,000 fills, paid by every whale alert).
 */
export const FILL_ENDS = {
  lastId: `(select max(id) from ${FILL_ROWS})`,
  ...SPAN_ENDS,
} as const;

/** Inserts fills, skipping those whose `fill_key` is already stored; returns the new ones. */
export function insertFills(tx: StoreTransaction, fills: readonly NewFill[]): Promise<NewFill[]> {
  return insertCompactFills(tx, fills);
}

/**
 * SQL: the latest fill of one wallet or market (a `?` parameter), of all or before a time (`bound`, a second `?`), as
 * the view's columns `names`: `fill_rows` by the dictionary's id (`idOf`), one range of its (key, ts) index read
 * newest first. Through the view PostgreSQL walked every fill's time index backwards until one was the subject's
 * (20 s for a market idle since the 10,000,000-fill world's first days).
 */
export function latestFillSql(
  kind: StoreKind,
  key: "wallet" | "condition_id",
  names: readonly (keyof FillsTable)[],
  bound?: "<" | "<=",
): string {
  const before = bound ? ` and f.ts ${bound} ?` : "";
  return `select ${fillSelectSql(kind, names)} from ${FILLS_JOINED}
  where f.${storedColumn(key)} = ${idOf(key)}${before} order by f.ts desc, f.id desc limit 1`;
}

/** A market's last fill before `before` (Unix seconds): its outcome and price, or undefined. */
export function marketFillBefore(
  store: Pick<Store, "db" | "kind">,
  conditionId: string,
  before: number,
): Promise<{ outcome_index: number; price: number } | undefined> {
  return firstRow(store.db, store.kind, MARKET_FILL_BEFORE[store.kind], [conditionId, before]);
}

const MARKET_FILL_BEFORE = textPerStore((kind) => latestFillSql(kind, "condition_id", ["outcome_index", "price"], "<"));

/** Inserts activity rows, skipping those whose `activity_key` is already stored; returns the new ones. */
export function insertActivity(tx: StoreTransaction, rows: readonly NewActivity[]): Promise<NewActivity[]> {
  return insertCompactActivity(tx, rows);
}

/** Drops the deferred fills indexes (if present), in the caller's transaction. */
export async function dropDeferredFillIndexes(tx: StoreTransaction): Promise<void> {
  for (const index of deferredFillIndexes(tx.kind)) await tx.db.schema.dropIndex(index.name).ifExists().execute();
}

/** Memory of a deferred index build: PostgreSQL's sort memory, and SQLite's page cache meanwhile (it sizes SQLite's sorted runs). */
export interface IndexBuildMemory {
  readonly postgresMb: number;
  readonly sqliteCacheMb: number;
}

/** Creates the deferred fills indexes that are missing, in the caller's transaction, with `memory` when given. */
export async function createDeferredFillIndexes(tx: StoreTransaction, memory?: IndexBuildMemory): Promise<void> {
  const create = async () => {
    for (const index of deferredFillIndexes(tx.kind)) await createFillIndex(tx.db, index, FILL_ROWS);
  };
  if (!memory) return create();
  if (tx.raw.kind === "postgres") {
    await setPostgresBulkMemory(tx.raw.client, memory);
    return create();
  }
  // SQLite sorts an index's keys in runs as large as the page cache (src/store/database.ts).
  await withSqliteCacheMb(tx.raw.handle, memory.sqliteCacheMb, create);
}

/**
 * What the batch that ends a first sync adds when the sync deferred its fills' indexes and wallets: the indexes,
 * then the wallets of all stored fills (over the wallet index). Safe to run when nothing was deferred.
 */
export async function completeDeferredFills(
  tx: StoreTransaction,
  memory: IndexBuildMemory,
  now: number,
): Promise<void> {
  // On PostgreSQL this also sets the transaction's work_mem and JIT for the grouping by wallet that follows.
  await createDeferredFillIndexes(tx, memory);
  await recordWalletsOfFills(tx, now);
}

/**
 * PostgreSQL settings of the transaction that ends a first sync: `memory` for each index build's sort
 * (maintenance_work_mem) and for grouping the fills by wallet (work_mem: at the server's default 4 MB the
 * grouping spilled to disk, 13 s instead of 5-7 at 10,000,000 fills), and no JIT (1-2 s of compiling for
 * statements that run once).
 */
async function setPostgresBulkMemory(client: pg.PoolClient, memory: IndexBuildMemory): Promise<void> {
  const mb = Math.floor(memory.postgresMb);
  await client.query(`set local maintenance_work_mem = '${mb}MB'`);
  await client.query(`set local work_mem = '${mb}MB'`);
  await client.query("set local jit = off");
}

/** Whether every deferred fills index exists. */
export async function deferredFillIndexesPresent(tx: StoreTransaction): Promise<boolean> {
  const names = deferredFillIndexes(tx.kind).map((index) => index.name);
  const found =
    tx.raw.kind === "sqlite"
      ? tx.raw.handle
          .prepare(
            `select name from sqlite_master where type = 'index' and name in (${names.map(() => "?").join(", ")})`,
          )
          .all(...names)
      : (
          await tx.raw.client.query(
            "select indexname from pg_indexes where schemaname = current_schema() and indexname = any($1)",
            [names],
          )
        ).rows;
  return found.length === names.length;
}
