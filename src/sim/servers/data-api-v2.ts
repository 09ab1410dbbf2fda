/**
 * The Data API's second version on the simulated venue (docs/VENUE.md "Data API v2"): `/v2/trades`,
 * `/v2/activity`, `/v2/positions` (status OPEN or CLOSED) and `/v2/value`, the first version's rows under the
 * second's snake_case names, in a `{data, pagination}` envelope, paged by an opaque cursor typed per endpoint. An
 * `offset` is a 400, as is a `limit` over 1,000 or a cursor of another endpoint; there is no offset ceiling.
 * Each route answers from the first version's (same filters, same order), so both versions hold the same rows.
 */
import { fail, json, type PageSpec, type SimReply } from "./http.js";
import type { VenueState } from "./venue-state.js";

type V1List = (state: VenueState, query: URLSearchParams, limits?: PageSpec) => SimReply;

/** The first version's routes the second version answers from. */
export interface V1Routes {
  readonly trades: V1List;
  readonly activity: V1List;
  readonly positions: V1List;
  readonly closedPositions: V1List;
  readonly value: (state: VenueState, query: URLSearchParams) => SimReply;
}

const V2_PAGE: PageSpec = { defaultLimit: 100, maxLimit: 1_000, maxOffset: Number.POSITIVE_INFINITY, noun: "rows" };

/** Second-version names of the first version's fields, where they are not the first's in snake case. */
const RENAMED: Readonly<Record<string, string>> = {
  asset: "token_id",
  oppositeAsset: "opposite_token_id",
  size: "current_size",
  curPrice: "current_price",
  totalBought: "total_size",
  initialValue: "entry_cost_usdc",
  cashPnl: "unrealized_pnl",
};

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function v2Row(row: Record<string, unknown>, kind: "trade" | "position" | "closed"): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    const name = kind === "trade" && key === "size" ? "size" : (RENAMED[key] ?? snake(key));
    out[name] = value;
  }
  if (kind === "position") {
    out.status = "OPEN";
    out.total_pnl = Number(out.realized_pnl) + Number(out.unrealized_pnl);
  }
  if (kind === "closed") {
    out.status = "CLOSED";
    out.last_event_at = out.timestamp;
    delete out.timestamp;
    Object.assign(out, { current_size: 0, current_value: 0, unrealized_pnl: 0, total_pnl: out.realized_pnl });
  }
  return out;
}

/** The second version's query as the first version reads it; the page from the cursor. */
function v1Query(route: string, query: URLSearchParams): URLSearchParams {
  if (query.has("offset")) fail(400, "offset is not supported: follow pagination.next_cursor");
  // The second version refuses a page larger than it serves, where the first clamps it.
  if (Number(query.get("limit") ?? 0) > V2_PAGE.maxLimit) fail(400, `limit must be <= ${V2_PAGE.maxLimit}`);
  const out = new URLSearchParams();
  for (const [key, value] of query) {
    if (key === "cursor" || key === "status") continue;
    if (key === "condition") out.set("market", value);
    else if (key === "filter_amount" && route === "/positions") out.set("sizeThreshold", value);
    else if (key === "filter_type" && route === "/positions") continue;
    else
      out.set(
        key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
        value,
      );
  }
  out.set("offset", String(cursorOffset(route, query.get("cursor"))));
  return out;
}

const cursorOf = (route: string, offset: number) =>
  Buffer.from(JSON.stringify({ route, offset })).toString("base64url");

function cursorOffset(route: string, cursor: string | null): number {
  if (cursor === null) return 0;
  let decoded: { route?: unknown; offset?: unknown } = {};
  try {
    decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as typeof decoded;
  } catch {
    fail(400, "invalid cursor");
  }
  if (decoded.route !== route || !Number.isSafeInteger(decoded.offset)) fail(400, "invalid cursor");
  return decoded.offset as number;
}

function page(route: string, query: URLSearchParams, reply: SimReply, kind: "trade" | "position" | "closed"): SimReply {
  if (reply.status !== undefined && reply.status !== 200) return reply;
  const rows = reply.body as Record<string, unknown>[];
  const offset = cursorOffset(route, query.get("cursor"));
  const limit = Number(query.get("limit") ?? V2_PAGE.defaultLimit);
  // A full page may have a next one; an empty next page ends the walk.
  const next = rows.length === limit && limit > 0 ? cursorOf(route, offset + rows.length) : null;
  return json({
    data: rows.map((row) => v2Row(row, kind)),
    pagination: { limit, offset, has_more: next !== null, next_cursor: next },
  });
}

export function dataApiV2Routes(v1: V1Routes): Record<string, (state: VenueState, query: URLSearchParams) => SimReply> {
  return {
    "/v2/trades": (state, query) =>
      page("/trades", query, v1.trades(state, v1Query("/trades", query), V2_PAGE), "trade"),
    "/v2/activity": (state, query) =>
      page("/activity", query, v1.activity(state, v1Query("/activity", query), V2_PAGE), "trade"),
    "/v2/positions": (state, query) => {
      const status = query.get("status") ?? "OPEN";
      if (status !== "OPEN" && status !== "CLOSED") fail(400, `invalid status: ${status}`);
      const route = status === "OPEN" ? "/positions" : "/closed-positions";
      const read = status === "OPEN" ? v1.positions : v1.closedPositions;
      return page(route, query, read(state, v1Query(route, query), V2_PAGE), status === "OPEN" ? "position" : "closed");
    },
    "/v2/value": (state, query) => {
      const reply = v1.value(state, v1Query("/value", query));
      const [row] = reply.body as Array<{ user: string; value: number }>;
      return json({ data: row ? { proxy_wallet: row.user, value: row.value } : null });
    },
  };
}
