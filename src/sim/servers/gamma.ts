/**
 * Gamma API (the venue's Gamma API): `/markets` (offset paging, repeated array parameters, closed markets only
 * with closed=true), `/events` (offset) and `/events/keyset` (`after_cursor` → `next_cursor`; offset is a 422).
 * State is as of the venue's clock: a market is closed once trading stopped, resolved once its
 * ConditionResolution is past. The world's hidden `truth` shows only through resolved markets' payouts. Markets in
 * `state.unlisted` are left out of every answer (a listing that lags the market's first trades).
 */
import { V2_CUTOVER_TS, type WorldEvent } from "../world/index.js";
import { categoryLabel, isoTime, jsonList, postgresTime, priceString } from "./format.js";
import {
  SimErrorReply,
  boolParam,
  fail,
  intParam,
  json,
  type RouteHandler,
  type SimReply,
  type SimRequest,
} from "./http.js";
import type { VenueState } from "./venue-state.js";

const MAX_PAGE = 500;
const DEFAULT_PAGE = 20;

type Json = Record<string, unknown>;

function marketPrices(state: VenueState, m: number): { yes: number; closed: boolean; resolved: boolean } {
  const { closed, resolved } = state.marketState(m);
  return { yes: state.world.markPrice(m, 0, state.now()), closed, resolved };
}

function marketJson(state: VenueState, m: number, withEvent: boolean): Json {
  const world = state.world;
  const market = world.markets[m]!;
  const event = world.events[market.eventIndex]!;
  const stats = state.marketStats();
  const { yes, closed, resolved } = marketPrices(state, m);
  const last = stats.lastYesPrice[m]! >= 0 ? stats.lastYesPrice[m]! : yes;
  const liquidity = closed ? 0 : Math.round(market.popularity * 25_000 * 100) / 100;
  const fee = market.fee;
  const out: Json = {
    id: market.id,
    question: market.question,
    conditionId: market.conditionId,
    questionID: market.questionId,
    slug: market.slug,
    description: market.description,
    category: categoryLabel(market.category),
    startDate: isoTime(market.startDate),
    endDate: isoTime(market.endDate),
    createdAt: isoTime(market.createdAt),
    image: market.image,
    icon: market.image,
    outcomes: jsonList(["Yes", "No"]),
    outcomePrices: jsonList([priceString(yes), priceString(1_000_000 - yes)]),
    clobTokenIds: jsonList([market.yesTokenId, market.noTokenId]),
    liquidity: String(liquidity),
    liquidityNum: liquidity,
    volume: String(stats.volume[m]!),
    volumeNum: stats.volume[m]!,
    volume24hr: stats.volume24h[m]!,
    volume1wk: stats.volume1wk[m]!,
    volume1mo: stats.volume1mo[m]!,
    volume1yr: stats.volume1yr[m]!,
    active: true,
    closed,
    archived: false,
    acceptingOrders: !closed,
    enableOrderBook: true,
    negRisk: market.negRisk,
    negRiskMarketID: market.negRiskMarketId ?? "",
    negRiskRequestID: market.negRisk ? market.questionId : "",
    negRiskOther: false,
    groupItemTitle: market.groupItemTitle ?? "",
    makerBaseFee: 0,
    takerBaseFee: fee.rateBps,
    feesEnabled: fee.rateBps > 0,
    feeType: fee.rateBps > 0 ? "taker" : "none",
    feeSchedule: { exponent: fee.exponent, rate: fee.rate, takerOnly: fee.takerOnly, rebateRate: fee.rebateRate },
    tags: market.tags.map((t) => ({ ...t })),
    bestBid: closed ? 0 : Math.max(0, yes - 5_000) / 1e6,
    bestAsk: closed ? 1 : Math.min(1_000_000, yes + 5_000) / 1e6,
    lastTradePrice: last / 1e6,
    spread: closed ? 1 : 0.01,
    version: state.now() < V2_CUTOVER_TS ? "v1" : "v2",
  };
  if (closed) out.closedTime = postgresTime(market.resolvedAt ?? market.tradingStop);
  if (closed) out.umaResolutionStatus = resolved ? "resolved" : "proposed";
  if (withEvent) out.events = [eventJson(state, event, false)];
  return out;
}

function eventClosed(state: VenueState, event: WorldEvent): boolean {
  return event.marketIndexes.every((m) => state.marketState(m).closed);
}

function eventJson(state: VenueState, event: WorldEvent, withMarkets: boolean): Json {
  const stats = state.marketStats();
  let volume = 0;
  let volume24hr = 0;
  let openInterest = 0;
  for (const m of event.marketIndexes) {
    volume += stats.volume[m]!;
    volume24hr += stats.volume24h[m]!;
    openInterest += stats.openInterest[m]!;
  }
  const closed = eventClosed(state, event);
  const out: Json = {
    id: event.id,
    ticker: event.slug,
    slug: event.slug,
    title: event.title,
    description: event.description,
    category: categoryLabel(event.category),
    startDate: isoTime(event.startDate),
    endDate: isoTime(event.endDate),
    image: event.image,
    icon: event.image,
    active: true,
    closed,
    archived: false,
    featured: false,
    restricted: true,
    liquidity: closed
      ? 0
      : Math.round(event.marketIndexes.reduce((s, m) => s + state.world.markets[m]!.popularity, 0) * 25_000 * 100) /
        100,
    volume,
    volume24hr,
    openInterest: openInterest / 1e6,
    negRisk: event.negRisk,
    negRiskMarketID: event.negRiskMarketId ?? "",
    enableNegRisk: event.negRisk,
    negRiskAugmented: false,
    tags: event.tags.map((t) => ({ ...t })),
    series: [],
  };
  if (withMarkets)
    out.markets = event.marketIndexes.filter((m) => !state.unlisted.has(m)).map((m) => marketJson(state, m, false));
  return out;
}

/** Gamma's `order` fields (comma-separated) as sort keys; ties and the default order go by id. */
function sortRows(rows: Json[], query: URLSearchParams): Json[] {
  const fields = (query.get("order") ?? "")
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  const ascending = boolParam(query, "ascending") ?? true;
  // Amounts Gamma writes as numeric strings sort as numbers.
  const value = (row: Json, field: string): number | string => {
    const v = row[field];
    if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
    return typeof v === "number" || typeof v === "string" ? v : 0;
  };
  const compare = (a: Json, b: Json): number => {
    for (const field of fields) {
      const x = value(a, field);
      const y = value(b, field);
      if (x !== y) return (x < y ? -1 : 1) * (ascending ? 1 : -1);
    }
    return Number(a.id) - Number(b.id);
  };
  return rows.sort(compare);
}

function page(query: URLSearchParams, rows: Json[]): Json[] {
  const limit = intParam(query, "limit", DEFAULT_PAGE, { min: 0, max: MAX_PAGE });
  const offset = intParam(query, "offset", 0, { min: 0 });
  return rows.slice(offset, offset + limit);
}

function within(query: URLSearchParams, name: string, value: number, bound: "min" | "max"): boolean {
  const text = query.get(name);
  if (text === null || text === "") return true;
  const limit = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Date.parse(text) / 1000;
  if (!Number.isFinite(limit)) fail(422, `invalid ${name}: ${text}`);
  return bound === "min" ? value >= limit : value <= limit;
}

function marketsRoute(state: VenueState, query: URLSearchParams): SimReply {
  const world = state.world;
  const closed = boolParam(query, "closed") ?? false;
  const ids = new Set(query.getAll("id"));
  const slugs = new Set(query.getAll("slug"));
  const conditions = new Set(query.getAll("condition_ids").map((c) => c.toLowerCase()));
  const tokens = new Set(query.getAll("clob_token_ids"));
  const tagId = query.get("tag_id");
  const uma = query.get("uma_resolution_status");
  const rows: Json[] = [];
  for (const market of world.markets) {
    if (state.unlisted.has(market.index)) continue;
    if (state.marketState(market.index).closed !== closed) continue;
    if (ids.size && !ids.has(market.id)) continue;
    if (slugs.size && !slugs.has(market.slug)) continue;
    if (conditions.size && !conditions.has(market.conditionId)) continue;
    if (tokens.size && !tokens.has(market.yesTokenId) && !tokens.has(market.noTokenId)) continue;
    if (tagId && !market.tags.some((t) => t.id === tagId)) continue;
    if (!within(query, "end_date_min", market.endDate, "min") || !within(query, "end_date_max", market.endDate, "max"))
      continue;
    if (
      !within(query, "start_date_min", market.startDate, "min") ||
      !within(query, "start_date_max", market.startDate, "max")
    )
      continue;
    const row = marketJson(state, market.index, true);
    if (
      !within(query, "volume_num_min", row.volumeNum as number, "min") ||
      !within(query, "volume_num_max", row.volumeNum as number, "max")
    )
      continue;
    if (
      !within(query, "liquidity_num_min", row.liquidityNum as number, "min") ||
      !within(query, "liquidity_num_max", row.liquidityNum as number, "max")
    )
      continue;
    if (uma && row.umaResolutionStatus !== uma) continue;
    rows.push(row);
  }
  return json(page(query, sortRows(rows, query)));
}

function eventsMatching(state: VenueState, query: URLSearchParams): WorldEvent[] {
  const closed = boolParam(query, "closed") ?? false;
  const ids = new Set(query.getAll("id"));
  const slugs = new Set(query.getAll("slug"));
  const tagId = query.get("tag_id");
  return state.world.events.filter(
    (e) =>
      e.marketIndexes.some((m) => !state.unlisted.has(m)) &&
      eventClosed(state, e) === closed &&
      (!ids.size || ids.has(e.id)) &&
      (!slugs.size || slugs.has(e.slug)) &&
      (!tagId || e.tags.some((t) => t.id === tagId)),
  );
}

function eventsRoute(state: VenueState, query: URLSearchParams): SimReply {
  const rows = eventsMatching(state, query).map((e) => eventJson(state, e, true));
  return json(page(query, sortRows(rows, query)));
}

const cursorOf = (eventIndex: number) => Buffer.from(`event:${eventIndex}`).toString("base64url");

function eventIndexOfCursor(cursor: string): number {
  const match = /^event:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) fail(422, `invalid after_cursor: ${cursor}`);
  return Number(match[1]);
}

/** Keyset pages in event order (ids grow with it); the last page carries no next_cursor. */
function eventsKeysetRoute(state: VenueState, query: URLSearchParams): SimReply {
  if (query.has("offset")) fail(422, "offset is not supported on /events/keyset: use after_cursor");
  const limit = intParam(query, "limit", DEFAULT_PAGE, { min: 1, max: MAX_PAGE });
  const cursor = query.get("after_cursor");
  const after = cursor ? eventIndexOfCursor(cursor) : -1;
  const matching = eventsMatching(state, query).filter((e) => e.index > after);
  const slice = matching.slice(0, limit);
  const body: Json = { events: slice.map((e) => eventJson(state, e, true)) };
  if (matching.length > limit) body.next_cursor = cursorOf(slice[slice.length - 1]!.index);
  return json(body);
}

export function gammaHandler(state: VenueState): RouteHandler {
  return (request: SimRequest) => {
    if (request.method !== "GET") throw new SimErrorReply(405, { error: "method not allowed" });
    switch (request.path) {
      case "/markets":
        return marketsRoute(state, request.query);
      case "/events":
        return eventsRoute(state, request.query);
      case "/events/keyset":
        return eventsKeysetRoute(state, request.query);
      default:
        throw new SimErrorReply(404, { error: "not found" });
    }
  };
}
