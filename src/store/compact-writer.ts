/**
 * Rows written into a compact table (fills, src/store/fill-layout.ts; activity, src/store/activity-layout.ts; the
 * funding transfers, src/store/funding-layout.ts): each
 * row's addresses, markets and tokens replaced by their dictionary ids (new values added to the dictionaries in the
 * same transaction), the rest as the layout's `compact` gives it. Idempotent by natural key: a replayed row inserts
 * nothing and is not returned.
 * SQLite: one prepared statement run per row on the raw handle with one reused values array, ids looked up once per
 * value and call (a call is one transaction, so no id outlives a rollback): measured 1.6x faster than multi-row
 * statements through Kysely, and faster than raw multi-row statements too (300,000 fills, 91,000 against 77,000 rows
 * per CPU second for 200 rows per statement with `returning`). PostgreSQL: the rows COPY'd into a temporary table,
 * then set-based statements add the new dictionary values and move the rows over with their ids, in input order.
 */
import type SqliteDatabase from "better-sqlite3";
import type pg from "pg";
import type { StoreTransaction } from "./database.js";
import { addToDictionarySql, dictionaryIds, type Dictionary } from "./dictionaries.js";
import { copyRows } from "./pg-copy.js";
import { lastId, recordLastId } from "./row-counters.js";
import { rowBinder } from "./row-values.js";
import { preparedStatement } from "./sqlite-statements.js";
import { yieldToLoop } from "../platform/yield-to-loop.js";

/** A column stored as a dictionary id: the id column, the column that holds the text in `compact`'s row. */
export interface DictionaryRef {
  readonly id: string;
  readonly text: string;
  readonly dictionary: Dictionary;
}

export interface CompactTable<R> {
  readonly table: string;
  /** The columns written as `compact` gives them (the dictionary refs aside). */
  readonly stored: readonly string[];
  readonly refs: readonly DictionaryRef[];
  /** The row's stored values and its refs' texts (an object of a fixed shape: per-row code). */
  compact(row: R): Record<string, unknown>;
  /** The row's natural key, and the same over the table in SQL (PostgreSQL's `returning`). */
  key(row: R): string;
  keySql: string;
  /** PostgreSQL: a row's id as `returning` reports it; the table's `id` unless told (`null`: a table without). */
  readonly idSql?: string;
  /**
   * SQLite: an id column the writer numbers, for a table whose rows are not keyed by it: each new row the next after
   * the last handed out, which the table's counter keeps (src/store/row-counters.ts; no index holds the ids).
   */
  readonly numbered?: string;
  /** PostgreSQL: the temporary table's definition, the stored columns and refs' texts with their types, and `ord`. */
  readonly staging: { readonly name: string; readonly definition: string };
  /** PostgreSQL: done before the rows are moved (fills: the months' partitions). */
  prepare?(client: pg.PoolClient, rows: readonly R[]): Promise<void>;
}

/**
 * PostgreSQL: waits until the other writers that take `lock` (an advisory lock held to the commit) have committed, so
 * that a writer's look for stored rows sees every row stored before its own. SQLite's transactions already take turns.
 */
export async function takeWriteTurn(tx: StoreTransaction, lock: number): Promise<void> {
  if (tx.raw.kind === "postgres") await tx.raw.client.query("select pg_advisory_xact_lock($1)", [lock]);
}

/**
 * The rows less those whose natural key no unique index holds (a chain fill's or chain operation's place, `places[i]`;
 * null for a row whose key an index holds) and that are `stored` already, or repeat an earlier row of the batch: each
 * place once, the first given.
 */
export function withoutStoredPlaces<R>(
  rows: readonly R[],
  places: readonly (string | null)[],
  stored: Iterable<string>,
): R[] {
  const seen = new Set(stored);
  return rows.filter((_, i) => {
    const place = places[i] ?? null;
    if (place === null) return true;
    if (seen.has(place)) return false;
    seen.add(place);
    return true;
  });
}

/** SQLite runs this many rows, then lets the event loop breathe (the driver is synchronous). */
const SQLITE_ROWS_PER_SLICE = 10_000;

/** Told each row stored, with the id the table gave it. */
export type OnStored<R> = (id: number, row: R) => void;

/**
 * Inserts rows, skipping those whose natural key is already stored; returns the new ones, in input order, each also
 * told to `onStored` with its id.
 */
export function insertCompactRows<R>(
  tx: StoreTransaction,
  layout: CompactTable<R>,
  rows: readonly R[],
  onStored?: OnStored<R>,
): Promise<R[]> {
  if (rows.length === 0) return Promise.resolve([]);
  return tx.raw.kind === "sqlite"
    ? sqliteInsert(tx.raw.handle, layout, rows, onStored)
    : postgresInsert(tx.raw.client, layout, rows, onStored);
}

async function sqliteInsert<R>(
  handle: SqliteDatabase.Database,
  layout: CompactTable<R>,
  rows: readonly R[],
  onStored: OnStored<R> | undefined,
): Promise<R[]> {
  const columns = [...layout.stored, ...layout.refs.map((r) => r.id), ...(layout.numbered ? [layout.numbered] : [])];
  const statement = preparedStatement(
    handle,
    `insert into ${layout.table} (${columns.join(", ")}) values (${columns.map(() => "?").join(", ")}) on conflict do nothing`,
  );
  const ids = layout.refs.map((ref) => ({ ref, of: dictionaryIds(handle, ref.dictionary) }));
  const first = layout.numbered ? lastId(handle, layout.table) + 1 : 0;
  let next = first;
  const bind = rowBinder(columns);
  const values = new Array<unknown>(columns.length);
  const fresh: R[] = [];
  for (let start = 0; start < rows.length; start += SQLITE_ROWS_PER_SLICE) {
    if (start > 0) await yieldToLoop();
    const end = Math.min(rows.length, start + SQLITE_ROWS_PER_SLICE);
    for (let i = start; i < end; i++) {
      const row = rows[i] as R;
      const compact = layout.compact(row);
      for (const { ref, of } of ids) {
        const text = compact[ref.text] as string | null | undefined;
        compact[ref.id] = text == null ? null : of(text);
      }
      if (layout.numbered) compact[layout.numbered] = next;
      bind(compact, values);
      const result = statement.run(values);
      if (result.changes > 0) {
        fresh.push(row);
        onStored?.(Number(result.lastInsertRowid), row);
        next++;
      }
    }
  }
  if (layout.numbered && next > first) recordLastId(handle, layout.table, next - 1);
  return fresh;
}

async function postgresInsert<R>(
  client: pg.PoolClient,
  layout: CompactTable<R>,
  rows: readonly R[],
  onStored: OnStored<R> | undefined,
): Promise<R[]> {
  await layout.prepare?.(client, rows);
  const { name: staging, definition } = layout.staging;
  await client.query(definition);
  await client.query(`truncate ${staging}`);
  const texts = [...new Set(layout.refs.map((r) => r.text))];
  await copyRows(client, staging, [...layout.stored, ...texts], rows.map(layout.compact));
  const dictionaries = [...new Set(layout.refs.map((r) => r.dictionary))];
  for (const dictionary of dictionaries) {
    const values = layout.refs
      .filter((r) => r.dictionary === dictionary)
      .map((r) => `select ${r.text} as v from ${staging}`)
      .join(" union ");
    await client.query(addToDictionarySql(dictionary, values));
  }
  const joins = layout.refs.map(
    (r, i) => `left join ${r.dictionary.table} r${i} on r${i}.${r.dictionary.column} = s.${r.text}`,
  );
  const result = await client.query<{ key: string; id: string }>(
    `insert into ${layout.table} (${[...layout.stored, ...layout.refs.map((r) => r.id)].join(", ")})
    select ${[...layout.stored.map((c) => `s.${c}`), ...layout.refs.map((_, i) => `r${i}.id`)].join(", ")}
    from ${staging} s
    ${joins.join("\n    ")}
    order by s.ord
    on conflict do nothing
    returning ${layout.keySql} as key, ${layout.idSql ?? `${layout.table}.id`} as id`,
  );
  // A key repeated within the batch is inserted once and reported once.
  const inserted = new Map(result.rows.map((r) => [r.key, Number(r.id)]));
  return rows.filter((row) => {
    const key = layout.key(row);
    const id = inserted.get(key);
    if (id === undefined) return false;
    inserted.delete(key);
    onStored?.(id, row);
    return true;
  });
}
