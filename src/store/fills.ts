/**
 * Writing fills and wallet activity: batched, idempotent by natural key (a replayed batch inserts nothing),
 * and fast enough for backfills. Each call returns the rows that were new, so listeners see every row once.
 * SQLite: one prepared statement run per row on the raw handle (measured 1.6x faster than multi-row statements
 * through Kysely, and faster than raw multi-row statements too). PostgreSQL: COPY, straight into the table when
 * no row exists yet (a backfill past its checkpoint), else through a temporary table and
 * INSERT ... SELECT ... ON CONFLICT DO NOTHING (measured 1.4x the former INSERT ... SELECT FROM unnest).
 * Call inside the transaction that also saves the source's checkpoint.
 */
import type { Insertable } from "kysely";
import type pg from "pg";
import type { StoreTransaction } from "./database.js";
import { copyRows, sqlIdentifier } from "./pg-copy.js";
import { preparedStatement } from "./sqlite-statements.js";
import type { FillsTable, WalletActivityTable } from "./schema.js";

export type NewFill = Insertable<FillsTable>;
export type NewActivity = Insertable<WalletActivityTable>;

interface TableSpec {
  table: "fills" | "wallet_activity";
  key: string;
  columns: readonly string[];
}

const FILLS: TableSpec = {
  table: "fills",
  key: "fill_key",
  columns: [
    "fill_key", "source", "tx_hash", "log_index", "block_number", "order_hash", "wallet", "counterparty", "role", "condition_id",
    "token_id", "outcome_index", "side", "size", "usd", "price", "fee", "ts", "entry_type", "exchange_version",
  ],
};

const ACTIVITY: TableSpec = {
  table: "wallet_activity",
  key: "activity_key",
  columns: [
    "activity_key", "source", "wallet", "type", "condition_id", "token_id", "outcome_index", "size", "usd", "price",
    "ts", "tx_hash", "log_index", "neg_risk_market_id", "index_set", "fee",
  ],
};

/** SQLite runs this many rows, then lets the event loop breathe (the driver is synchronous). */
const SQLITE_ROWS_PER_SLICE = 10_000;
const UNIQUE_VIOLATION = "23505";

async function insertIgnoringDuplicates<R extends Record<string, unknown>>(tx: StoreTransaction, spec: TableSpec, rows: readonly R[]): Promise<R[]> {
  if (rows.length === 0) return [];
  if (tx.raw.kind === "sqlite") {
    const statement = preparedStatement(
      tx.raw.handle,
      `insert into ${spec.table} (${spec.columns.join(", ")}) values (${spec.columns.map(() => "?").join(", ")}) on conflict (${spec.key}) do nothing`,
    );
    const fresh: R[] = [];
    for (let start = 0; start < rows.length; start += SQLITE_ROWS_PER_SLICE) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      const end = Math.min(rows.length, start + SQLITE_ROWS_PER_SLICE);
      for (let i = start; i < end; i++) {
        const row = rows[i] as R;
        if (statement.run(spec.columns.map((c) => row[c] ?? null)).changes > 0) fresh.push(row);
      }
    }
    return fresh;
  }
  return postgresInsert(tx.raw.client, spec, rows);
}

async function postgresInsert<R extends Record<string, unknown>>(client: pg.PoolClient, spec: TableSpec, rows: readonly R[]): Promise<R[]> {
  const columns = spec.columns.map(sqlIdentifier).join(", ");
  await client.query("savepoint bulk_insert");
  try {
    await copyRows(client, `copy ${spec.table} (${columns}) from stdin`, spec.columns, rows);
    await client.query("release savepoint bulk_insert");
    return [...rows];
  } catch (error) {
    await client.query("rollback to savepoint bulk_insert");
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
  }
  const staging = `${spec.table}_incoming`;
  await client.query(`create temp table if not exists ${staging} (like ${spec.table} including defaults) on commit delete rows`);
  await client.query(`truncate ${staging}`);
  await copyRows(client, `copy ${staging} (${columns}) from stdin`, spec.columns, rows);
  const result = await client.query<{ key: string }>(
    `insert into ${spec.table} (${columns}) select ${columns} from ${staging} on conflict (${spec.key}) do nothing returning ${spec.key} as key`,
  );
  // A key repeated within the batch is inserted once and reported once.
  const inserted = new Set(result.rows.map((r) => r.key));
  return rows.filter((row) => inserted.delete(row[spec.key] as string));
}

/** Inserts fills, skipping those whose `fill_key` is already stored; returns the new ones. */
export function insertFills(tx: StoreTransaction, fills: readonly NewFill[]): Promise<NewFill[]> {
  return insertIgnoringDuplicates(tx, FILLS, fills as ReadonlyArray<NewFill & Record<string, unknown>>);
}

/** Inserts activity rows, skipping those whose `activity_key` is already stored; returns the new ones. */
export function insertActivity(tx: StoreTransaction, rows: readonly NewActivity[]): Promise<NewActivity[]> {
  return insertIgnoringDuplicates(tx, ACTIVITY, rows as ReadonlyArray<NewActivity & Record<string, unknown>>);
}
