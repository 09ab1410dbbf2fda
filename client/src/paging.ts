/**
 * Paging helpers: every item of a paged list, page after page, as an async iterator.
 * - Offset-paged lists (`offset` in, `has_more` or `total` out: a whale's history, closed positions, raw fills,
 *   the leaderboards, market search) advance `offset` by what each page held.
 * - Keyset-paged lists (a market's whale trades: `before`/`before_id` in, `next_before`/`next_before_id` out; whale
 *   alerts: `before_ts` in, `next_before_ts` out) continue from where the last page ended, so rows arriving meanwhile
 *   neither repeat nor shift the pages.
 * Stopping the iteration (`break`) asks for no further page.
 */

type Body = Record<string, unknown>;
type Params = { path?: Record<string, unknown>; query?: Record<string, unknown> } & Record<string, unknown>;
/** A GET of the client's, answering the body or throwing PelagicApiError. */
export type GetBody = (path: string, init: { params?: Params }) => Promise<Body>;

/** The init with its query parameters replaced by `query` merged over them. */
function withQuery(init: { params?: Params } | undefined, query: Record<string, unknown>): { params: Params } {
  const params = init?.params ?? {};
  return { ...init, params: { ...params, query: { ...params.query, ...query } } };
}

function listOf(body: Body, field: string): unknown[] {
  const list = body[field];
  if (!Array.isArray(list)) throw new TypeError(`the answer has no list "${field}"`);
  return list;
}

export async function* offsetPages(
  get: GetBody,
  path: string,
  field: string,
  init?: { params?: Params },
): AsyncGenerator<unknown, void, undefined> {
  let offset = Number(init?.params?.query?.offset ?? 0);
  const limit = init?.params?.query?.limit;
  for (;;) {
    const body = await get(path, withQuery(init, { offset }));
    const items = listOf(body, field);
    yield* items;
    offset += items.length;
    const more =
      typeof body.has_more === "boolean"
        ? body.has_more
        : typeof body.total === "number"
          ? offset < body.total
          : typeof limit === "number" && items.length >= limit;
    if (!more || items.length === 0) return;
  }
}

/** The query of the next page from an answer, or null after the last page. */
export type NextPage = (body: Body) => Record<string, unknown> | null;

export async function* keysetPages(
  get: GetBody,
  path: string,
  field: string,
  next: NextPage,
  init?: { params?: Params },
): AsyncGenerator<unknown, void, undefined> {
  let cursor: Record<string, unknown> = {};
  for (;;) {
    const body = await get(path, withQuery(init, cursor));
    const items = listOf(body, field);
    yield* items;
    const following = items.length === 0 ? null : next(body);
    if (!following) return;
    cursor = following;
  }
}

/** A market's whale trades: `next_before` and `next_before_id` while `has_more`. */
export const nextWhaleTradesPage: NextPage = (body) =>
  body.has_more === true && body.next_before !== null
    ? { before: body.next_before, before_id: body.next_before_id ?? 0 }
    : null;

/** Whale alerts: `next_before_ts` while `has_more`. */
export const nextAlertsPage: NextPage = (body) =>
  body.has_more === true && typeof body.next_before_ts === "number" ? { before_ts: body.next_before_ts } : null;
