/**
 * Where a time's fills lie among `fill_rows`' ids (issue 49, migration 0051): `fill_spans` holds, per few minutes of
 * fill time (a bucket of `SPAN_SECONDS`), the id ranges its fills were stored in. Fills are stored nearly in time
 * order (a sync follows the chain; the live feed appends the newest), so a bucket's fills are one run of ids, or a
 * few when late fills (a wallet's history from the Data API) came in apart. A read over a window of every wallet's
 * fills (the 24-hour volumes, the unfiltered whale alerts, the rebuild's price window, the store's first and last
 * times) reads those id ranges of the table, instead of an index of every fill by time (`fills_ts`, 14.8 bytes a fill
 * on the 1,000,000-fill world; these rows are a few bytes an hour).
 *
 * Invariant: every fill lies in exactly one span of its own bucket (`bucketOf(ts)`), the spans of one bucket being
 * disjoint. A span's range may hold other buckets' fills: readers keep their own bounds on `ts`.
 */
import type { Store, StoreTransaction } from "./database.js";
import { chunks, inSlices, placeholders, queryRows } from "./raw-sql.js";

export const FILL_SPANS = "fill_spans";

/** A bucket's length in seconds: at the venue's 1.9 million fills a day, about 6,600 fills. */
export const SPAN_SECONDS = 300;

/**
 * A bucket's latest span takes a new fill of the bucket when at most this many ids lie between: more apart (a late
 * fill, stored after others' fills), the fill starts a span of its own, so that no read of the bucket crosses them.
 */
export const SPAN_ID_GAP = 4_096;

export interface FillSpan {
  bucket: number;
  firstId: number;
  lastId: number;
  minTs: number;
  maxTs: number;
}

/** The start of the bucket that holds time `ts`. */
export function bucketOf(ts: number): number {
  return ts - (((ts % SPAN_SECONDS) + SPAN_SECONDS) % SPAN_SECONDS);
}

/**
 * Adds stored fills (id and time, in ascending id order, each id above every span's) to the buckets' latest spans
 * (`latest`, by bucket: updated in place), and returns the spans made or changed.
 */
export function extendFillSpans(
  latest: Map<number, FillSpan>,
  fills: Iterable<{ id: number; ts: number }>,
): FillSpan[] {
  const touched = new Set<FillSpan>();
  for (const { id, ts } of fills) {
    const bucket = bucketOf(ts);
    let span = latest.get(bucket);
    if (span && id - span.lastId <= SPAN_ID_GAP) {
      span.lastId = id;
      if (ts < span.minTs) span.minTs = ts;
      if (ts > span.maxTs) span.maxTs = ts;
    } else {
      span = { bucket, firstId: id, lastId: id, minTs: ts, maxTs: ts };
      latest.set(bucket, span);
    }
    touched.add(span);
  }
  return [...touched];
}

/**
 * Id ranges, ascending and disjoint, that hold every fill of the spans (ranges less than `SPAN_ID_GAP` apart are read
 * as one: the ids between cost less than another query).
 */
export function spanIdRanges(spans: Iterable<Pick<FillSpan, "firstId" | "lastId">>): Array<[number, number]> {
  const sorted = [...spans].sort((a, b) => a.firstId - b.firstId);
  const ranges: Array<[number, number]> = [];
  for (const { firstId, lastId } of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && firstId <= last[1] + SPAN_ID_GAP) last[1] = Math.max(last[1], lastId);
    else ranges.push([firstId, lastId]);
  }
  return ranges;
}

/** SQL scalar subqueries: the stored fills' latest and earliest times, from the newest and the oldest bucket. */
export const SPAN_ENDS = {
  latestTs: `(select max(max_ts) from ${FILL_SPANS} where bucket = (select max(bucket) from ${FILL_SPANS}))`,
  earliestTs: `(select min(min_ts) from ${FILL_SPANS} where bucket = (select min(bucket) from ${FILL_SPANS}))`,
} as const;

interface SpanRow {
  bucket: number;
  first_id: number;
  last_id: number;
  min_ts: number;
  max_ts: number;
}

const spanOf = (r: SpanRow): FillSpan => ({
  bucket: Number(r.bucket),
  firstId: Number(r.first_id),
  lastId: Number(r.last_id),
  minTs: Number(r.min_ts),
  maxTs: Number(r.max_ts),
});

/** The spans of the buckets that may hold fills with `after < ts <= upTo`, by bucket then id. */
export async function fillSpansBetween(
  store: Pick<Store, "db" | "kind">,
  after: number,
  upTo: number,
): Promise<FillSpan[]> {
  if (upTo <= after) return [];
  const bounded = Number.isFinite(upTo);
  const rows = await queryRows<SpanRow>(
    store.db,
    store.kind,
    `select bucket, first_id, last_id, min_ts, max_ts from ${FILL_SPANS}
      where bucket >= ?${bounded ? " and bucket <= ?" : ""} and max_ts > ?${bounded ? " and min_ts <= ?" : ""}
      order by bucket, first_id`,
    bounded ? [bucketOf(after), upTo, after, upTo] : [bucketOf(after), after],
  );
  return rows.map(spanOf);
}

/**
 * Runs `run` over each id range that holds the fills with `after < ts <= upTo` (`upTo` may be Infinity), oldest
 * first; the caller keeps its bounds on `ts` and merges what the ranges return.
 */
export async function inFillWindow<R>(
  store: Pick<Store, "db" | "kind">,
  after: number,
  upTo: number,
  run: (firstId: number, lastId: number) => Promise<R[]>,
): Promise<R[]> {
  const out: R[] = [];
  for (const [first, last] of spanIdRanges(await fillSpansBetween(store, after, upTo)))
    for (const row of await run(first, last)) out.push(row);
  return out;
}

/** Records fills just stored (id and time each; any order), in the caller's transaction. */
export async function recordFillSpans(
  tx: StoreTransaction,
  stored: ReadonlyArray<{ id: number; ts: number }>,
): Promise<void> {
  if (stored.length === 0) return;
  const fills = [...stored].sort((a, b) => a.id - b.id);
  const buckets = [...new Set(fills.map((f) => bucketOf(f.ts)))];
  const latest = new Map<number, FillSpan>();
  const known = await inSlices(buckets, (slice) =>
    queryRows<SpanRow>(
      tx.db,
      tx.kind,
      `select bucket, first_id, last_id, min_ts, max_ts from ${FILL_SPANS} s
        where bucket in ${placeholders(slice.length)}
          and first_id = (select max(first_id) from ${FILL_SPANS} o where o.bucket = s.bucket)`,
      slice,
    ),
  );
  for (const row of known) latest.set(Number(row.bucket), spanOf(row));
  await writeFillSpans(tx, extendFillSpans(latest, fills));
}

/** Writes spans: each made anew or replacing the stored one of its bucket and first id. */
export async function writeFillSpans(
  tx: Pick<StoreTransaction, "db" | "kind">,
  spans: readonly FillSpan[],
): Promise<void> {
  for (const slice of chunks(spans)) {
    const values = slice.map(() => "(?, ?, ?, ?, ?)").join(", ");
    await queryRows(
      tx.db,
      tx.kind,
      `insert into ${FILL_SPANS} (bucket, first_id, last_id, min_ts, max_ts) values ${values}
       on conflict (bucket, first_id) do update
         set last_id = excluded.last_id, min_ts = excluded.min_ts, max_ts = excluded.max_ts`,
      slice.flatMap((s) => [s.bucket, s.firstId, s.lastId, s.minTs, s.maxTs]),
    );
  }
}
