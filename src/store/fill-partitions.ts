/**
 * PostgreSQL's fills (`fill_rows` since migration 0029, `fills` before) are range-partitioned by `ts`, one partition
 * a calendar month (UTC), plus a default partition for a row that arrives in a month with no partition yet by a path
 * other than the write path (migration 0016, docs/SCALING.md). The write path (`insertFills`) creates the months of
 * its batch before writing, in the batch's own transaction, so the default partition stays empty. SQLite's fills are
 * one table.
 */
import type pg from "pg";
import { FILL_ROWS } from "./fill-layout.js";

/** The partitioned table: `fill_rows`, or `fills` in the migration (0016) that partitioned the earlier layout. */
export type PartitionedFills = typeof FILL_ROWS | "fills";

export function defaultFillPartition(table: PartitionedFills): string {
  return `${table}_default`;
}

/** The calendar month (UTC) holding `ts`: its bounds in unix seconds and its partition's name. */
export interface FillMonth {
  readonly name: string;
  /** First second of the month (inclusive bound). */
  readonly from: number;
  /** First second of the next month (exclusive bound). */
  readonly to: number;
}

export function fillMonth(ts: number, table: PartitionedFills = FILL_ROWS): FillMonth {
  const day = new Date(ts * 1000);
  const year = day.getUTCFullYear();
  const month = day.getUTCMonth();
  return {
    name: `${table}_p${String(year).padStart(4, "0")}${String(month + 1).padStart(2, "0")}`,
    from: Date.UTC(year, month, 1) / 1000,
    to: Date.UTC(year, month + 1, 1) / 1000,
  };
}

/** Every month from the one holding `first` to the one holding `last`, in order. */
export function fillMonthsBetween(first: number, last: number, table: PartitionedFills = FILL_ROWS): FillMonth[] {
  const months: FillMonth[] = [];
  for (let month = fillMonth(first, table); month.from <= last; month = fillMonth(month.to, table)) months.push(month);
  return months;
}

/** The names of `fill_rows`' partitions in the current schema. */
async function fillPartitionNames(client: pg.PoolClient): Promise<Set<string>> {
  const result = await client.query<{ name: string }>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = to_regclass(current_schema() || '.${FILL_ROWS}')`,
  );
  return new Set(result.rows.map((r) => r.name));
}

/** Serialises partition creation between writers (one ingest process writes fills, but tests and tools may too). */
const PARTITION_LOCK = 0x66696c6c; // "fill"

/**
 * Creates the partitions of the months of `timestamps` that do not exist yet, in the caller's transaction. A month's
 * table is created apart and attached (a lock on the parent that lets its readers and writers go on); any row of that
 * month found in the default partition moves into it first. Attaching locks the default partition until the
 * transaction ends: readers of `fills` that do not rule it out wait for that one batch, once a month of data.
 */
export async function ensureFillPartitions(client: pg.PoolClient, timestamps: Iterable<number>): Promise<void> {
  const months = new Map<string, FillMonth>();
  for (const ts of timestamps) {
    const month = fillMonth(ts);
    months.set(month.name, month);
  }
  let existing = await fillPartitionNames(client);
  if ([...months.keys()].every((name) => existing.has(name))) return;
  await client.query("select pg_advisory_xact_lock($1)", [PARTITION_LOCK]);
  existing = await fillPartitionNames(client);
  for (const month of months.values()) if (!existing.has(month.name)) await createFillPartition(client, month);
}

async function createFillPartition(client: pg.PoolClient, month: FillMonth): Promise<void> {
  const { name, from, to } = month;
  await client.query(`create table ${name} (like ${FILL_ROWS} including defaults)`);
  await client.query(
    `with moved as (delete from ${defaultFillPartition(FILL_ROWS)} where ts >= ${from} and ts < ${to} returning *)
     insert into ${name} select * from moved`,
  );
  await client.query(`alter table ${FILL_ROWS} attach partition ${name} for values from (${from}) to (${to})`);
}
