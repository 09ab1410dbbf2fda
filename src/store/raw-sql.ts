/**
 * Plain SQL text with `?` placeholders on either dialect, through Kysely, so that a read waits for a
 * transaction another part of the process holds on SQLite's single connection instead of reading inside it.
 */
import { CompiledQuery, type Kysely } from "kysely";
import type { StoreKind } from "./database.js";
import type { Database } from "./schema.js";
import { yieldToLoop } from "../platform/yield-to-loop.js";

/** `?` placeholders as PostgreSQL's `$1, $2, ...` (our SQL text holds no `?` inside literals). */
export function dialectText(kind: StoreKind, text: string): string {
  if (kind === "sqlite") return text;
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

export async function queryRows<T>(
  db: Kysely<Database>,
  kind: StoreKind,
  text: string,
  params: readonly unknown[] = [],
): Promise<T[]> {
  const result = await db.executeQuery<T>(CompiledQuery.raw(dialectText(kind, text), [...params]));
  return result.rows as T[];
}

/** The first row of plain SQL text, or undefined: for reads run per request, whose query-builder form costs more to build and compile than the indexed read itself. */
export async function firstRow<T>(
  db: Kysely<Database>,
  kind: StoreKind,
  text: string,
  params: readonly unknown[],
): Promise<T | undefined> {
  return (await queryRows<T>(db, kind, text, params))[0];
}

/** `(?, ?, ...)` for an IN list. */
export function placeholders(count: number): string {
  return `(${new Array<string>(count).fill("?").join(", ")})`;
}

/** The items in consecutive lists of at most `size` (a row-count safe size for `in (...)` lists on both dialects). */
export function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Runs `run` over the values in slices small enough for any dialect's parameter limit; with `yieldBetween`, letting
 * the event loop run between two slices (a read too long to run as one block on SQLite).
 */
export async function inSlices<V, R>(
  values: readonly V[],
  run: (slice: V[]) => Promise<R[]>,
  size = 500,
  yieldBetween = false,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < values.length; i += size) {
    if (yieldBetween && i > 0) await yieldToLoop();
    for (const row of await run(values.slice(i, i + size))) out.push(row);
  }
  return out;
}

/**
 * Runs `run` over the time range (after, upTo] in consecutive slices of `step` seconds, oldest first, letting the
 * event loop run between two: an aggregate over a day of a busy venue's fills reads for tens of milliseconds on
 * SQLite, in one block otherwise. The caller merges what the slices return.
 */
export async function inTimeSlices<R>(
  after: number,
  upTo: number,
  step: number,
  run: (after: number, upTo: number) => Promise<R[]>,
): Promise<R[]> {
  const out: R[] = [];
  for (let from = after; from < upTo; from += step) {
    if (from > after) await yieldToLoop();
    for (const row of await run(from, Math.min(from + step, upTo))) out.push(row);
  }
  return out;
}

/**
 * A table's rows page by page in the order of a text key (`read(after)`: at most `size` rows whose key is after
 * `after`, in key order; "" before the first), letting the event loop run between two pages: a keyset walk of a
 * whole table on SQLite that does not hold every request for its length.
 */
export async function* keysetPages<R>(
  size: number,
  read: (after: string) => Promise<R[]>,
  keyOf: (row: R) => string,
): AsyncGenerator<R[]> {
  for (let after = ""; ; ) {
    const page = await read(after);
    if (page.length > 0) yield page;
    if (page.length < size) return;
    after = keyOf(page[page.length - 1]!);
    await yieldToLoop();
  }
}
