/**
 * Paging through the venue's lists. Offset paging knows the endpoint's ceiling (offset 10000 on /trades and
 * /positions) and ends with an explicit `truncated` verdict instead of silently stopping there.
 */
import type { Static, TSchema } from "typebox";
import { VenueHttpError } from "./http.js";
import { OffsetCeilingErrorShape } from "./shapes/data-api.js";
import { VenueShapeError, partitionRows, type RejectedRow, type Shape } from "./shapes/shape.js";

export interface RowsPage<T> {
  readonly type: "page";
  /** The offset this page was asked at. */
  readonly offset: number;
  readonly rows: T[];
  /** Rows of this page that failed their shape (skipped; to log and count). */
  readonly rejected: RejectedRow[];
}

export interface OffsetPagingEnd {
  readonly type: "end";
  /**
   * True when the venue's ceiling stopped the paging while pages were still full: more rows may exist
   * that this endpoint will not hand out (the spec's "cache truncated" case).
   */
  readonly truncated: boolean;
  /** Rows received, valid or not. */
  readonly rowCount: number;
  /** Where a further page would start. */
  readonly nextOffset: number;
}

export type OffsetPaging<T> = AsyncGenerator<RowsPage<T> | OffsetPagingEnd, void, undefined>;

export interface OffsetPagingOptions<S extends TSchema> {
  readonly source: string;
  readonly shape: Shape<S>;
  readonly pageSize: number;
  /** The largest offset the endpoint accepts; Infinity when it has no known ceiling. */
  readonly maxOffset: number;
  readonly startOffset?: number;
  /** Fetches one page; must return the raw payload (a JSON array). */
  readonly fetchPage: (offset: number, limit: number) => Promise<unknown>;
}

function isCeilingError(error: unknown): boolean {
  return error instanceof VenueHttpError && error.status === 400 && OffsetCeilingErrorShape.is(error.body);
}

/**
 * Yields pages until a short page (the end of the list) or the ceiling, then one `end` item. A page is
 * short when it holds fewer rows than asked; page sizes must therefore not exceed the endpoint's maximum.
 */
export async function* pageByOffset<S extends TSchema>(options: OffsetPagingOptions<S>): OffsetPaging<Static<S>> {
  let offset = options.startOffset ?? 0;
  let rowCount = 0;
  for (;;) {
    if (offset > options.maxOffset) {
      yield { type: "end", truncated: true, rowCount, nextOffset: offset };
      return;
    }
    let payload: unknown;
    try {
      payload = await options.fetchPage(offset, options.pageSize);
    } catch (error) {
      // A ceiling lower than the documented one shows up as the venue's 400 body.
      if (offset > 0 && isCeilingError(error)) {
        yield { type: "end", truncated: true, rowCount, nextOffset: offset };
        return;
      }
      throw error;
    }
    const source = `${options.source} offset ${offset}`;
    const { rows, rejected } = partitionRows(options.shape, payload, source);
    const received = rows.length + rejected.length;
    rowCount += received;
    yield { type: "page", offset, rows, rejected };
    if (received < options.pageSize) {
      yield { type: "end", truncated: false, rowCount, nextOffset: offset + received };
      return;
    }
    offset += received;
  }
}

export interface CursorPage<T> {
  readonly type: "page";
  readonly cursor: string | null;
  readonly nextCursor: string | null;
  readonly rows: T[];
  readonly rejected: RejectedRow[];
}

export interface CursorPagingEnd {
  readonly type: "end";
  readonly rowCount: number;
  /** The cursor of the last page fetched, to resume from later. */
  readonly lastCursor: string | null;
}

export type CursorPaging<T> = AsyncGenerator<CursorPage<T> | CursorPagingEnd, void, undefined>;

export interface CursorPagingOptions<S extends TSchema> {
  readonly source: string;
  readonly shape: Shape<S>;
  readonly startCursor?: string | null;
  readonly fetchPage: (cursor: string | null) => Promise<{ items: unknown; nextCursor: string | null | undefined }>;
}

/** Keyset paging: follows `next_cursor` until it is absent or empty, or a page comes back empty. */
export async function* pageByCursor<S extends TSchema>(options: CursorPagingOptions<S>): CursorPaging<Static<S>> {
  let cursor = options.startCursor ?? null;
  let rowCount = 0;
  for (;;) {
    const { items, nextCursor } = await options.fetchPage(cursor);
    const { rows, rejected } = partitionRows(options.shape, items, `${options.source} cursor ${cursor ?? "start"}`);
    rowCount += rows.length + rejected.length;
    const next = nextCursor || null;
    yield { type: "page", cursor, nextCursor: next, rows, rejected };
    if (next === null || rows.length + rejected.length === 0) {
      yield { type: "end", rowCount, lastCursor: cursor };
      return;
    }
    if (next === cursor) {
      throw new VenueShapeError(options.source, [{ path: "/next_cursor", message: "did not advance" }]);
    }
    cursor = next;
  }
}

export interface Collected<T> {
  readonly rows: T[];
  readonly rejected: RejectedRow[];
  /** Offset paging only: whether the ceiling cut the list short. */
  readonly truncated: boolean;
}

/** Drains a paging into memory (for lists known to be small: one wallet's positions, a leaderboard). */
export async function collectPages<T>(
  paging: AsyncGenerator<RowsPage<T> | CursorPage<T> | OffsetPagingEnd | CursorPagingEnd, void, undefined>,
): Promise<Collected<T>> {
  const rows: T[] = [];
  const rejected: RejectedRow[] = [];
  let truncated = false;
  for await (const item of paging) {
    if (item.type === "page") {
      rows.push(...item.rows);
      rejected.push(...item.rejected);
    } else if ("truncated" in item) {
      truncated = item.truncated;
    }
  }
  return { rows, rejected, truncated };
}
