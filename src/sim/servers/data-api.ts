/**
 * Data API trade history (the venue's Data API): `/trades` (market-wide or per user, taker rows only unless
 * takerOnly=false) and `/activity` (a wallet's trades, splits, merges, conversions, redemptions and rewards),
 * newest first, with the venue's page limits and its offset ceiling. The other Data API paths are in
 * wallet-data.ts and leaderboard.ts; `dataApiHandler` routes them all.
 */
import {
  FLAG_SELL,
  FLAG_TAKER,
  OP_CONVERSION,
  OP_REDEEM,
  OP_RESOLUTION,
  OP_TYPES,
  type World,
} from "../world/index.js";
import { decimal, marketFields, profileFields } from "./format.js";
import {
  SimErrorReply,
  csvParam,
  enumParam,
  fail,
  json,
  numberParam,
  pageParams,
  requiredWallet,
  takePage,
  walletParam,
  type PageSpec,
  type RouteHandler,
  type SimReply,
} from "./http.js";
import { dataApiV2Routes } from "./data-api-v2.js";
import { leaderboardRoute } from "./leaderboard.js";
import { closedPositionsRoute, holdersRoute, positionsRoute, tradedRoute, valueRoute } from "./wallet-data.js";
import type { VenueState } from "./venue-state.js";

export const TRADES_LIMITS = { defaultLimit: 100, maxLimit: 10_000, maxOffset: 10_000, noun: "trades" } as const;
export const ACTIVITY_LIMITS = { defaultLimit: 100, maxLimit: 500, maxOffset: 10_000, noun: "activity" } as const;

/** One wallet's side of one fill as `/trades` (and the RTDS `trades` payload) writes it. */
export function tradeRow(world: World, f: number) {
  const fill = world.fill(f);
  return {
    proxyWallet: world.wallets[fill.wallet]!.proxyWallet,
    side: fill.side,
    asset: world.tokenId(fill.token),
    conditionId: world.markets[fill.market]!.conditionId,
    size: decimal(fill.size),
    price: decimal(fill.price),
    timestamp: fill.ts,
    ...marketFields(world, fill.market, fill.outcome),
    outcomeIndex: fill.outcome,
    ...profileFields(world, fill.wallet),
    transactionHash: world.txHashOfFill(f),
  };
}

/** Markets named by `market` (CSV condition ids) and `eventId`; null when neither narrows the search. */
function marketFilter(world: World, query: URLSearchParams): Set<number> | null {
  const conditions = csvParam(query, "market");
  const eventId = query.get("eventId");
  if (!conditions.length && !eventId) return null;
  let markets: number[] | null = null;
  if (conditions.length) markets = conditions.map((c) => world.marketIndexByCondition(c)).filter((m) => m >= 0);
  if (eventId) {
    const event = world.events.find((e) => e.id === eventId);
    const ofEvent = event ? event.marketIndexes : [];
    markets = markets ? markets.filter((m) => ofEvent.includes(m)) : [...ofEvent];
  }
  return new Set(markets);
}

/** Fill indexes, newest first, of the user or the markets or the whole venue. */
function* fillsNewestFirst(
  world: World,
  user: number | null,
  markets: Set<number> | null,
  takerOnly: boolean,
): Generator<number> {
  const t = world.tables;
  const marketOf = (f: number) => t.matchMarket[t.fillMatch[f]!]!;
  if (user !== null) {
    const fills = world.fillsOfWallet(user);
    for (let k = fills.length - 1; k >= 0; k--) {
      const f = fills[k]!;
      if (takerOnly && !(t.fillFlags[f]! & FLAG_TAKER)) continue;
      if (markets && !markets.has(marketOf(f))) continue;
      yield f;
    }
    return;
  }
  const ofMatch = function* (j: number) {
    const [from, to] = world.fillsOfMatch(j);
    for (let f = to - 1; f >= (takerOnly ? to - 1 : from); f--) yield f;
  };
  if (markets) {
    const matches = [...markets].flatMap((m) => [...world.matchesOfMarket(m)]).sort((a, b) => b - a);
    for (const j of matches) yield* ofMatch(j);
    return;
  }
  for (let j = world.matchCount - 1; j >= 0; j--) yield* ofMatch(j);
}

export function tradesRoute(state: VenueState, query: URLSearchParams, limits: PageSpec = TRADES_LIMITS): SimReply {
  const world = state.world;
  const page = pageParams(query, limits);
  const user = walletParam(state, query, "user");
  const takerOnly = query.get("takerOnly") !== "false";
  const side = query.get("side") ? enumParam(query, "side", ["BUY", "SELL"], "BUY") : null;
  const filterType = query.get("filterType") ? enumParam(query, "filterType", ["CASH", "TOKENS"], "CASH") : null;
  const filterAmount = numberParam(query, "filterAmount");
  if ((filterType === null) !== (filterAmount === null)) fail(400, "filterType and filterAmount go together");
  if (user === -1) return json([]);
  const markets = marketFilter(world, query);
  const t = world.tables;
  const minMicro = filterAmount === null ? 0 : Math.round(filterAmount * 1e6);
  function* rows() {
    for (const f of fillsNewestFirst(world, user, markets, takerOnly)) {
      if (side && (t.fillFlags[f]! & FLAG_SELL ? "SELL" : "BUY") !== side) continue;
      if (filterType === "TOKENS" && t.fillSize[f]! < minMicro) continue;
      if (filterType === "CASH" && world.fill(f).usd < minMicro) continue;
      yield f;
    }
  }
  return json(takePage(rows(), page).map((f) => tradeRow(world, f)));
}

interface ActivityEntry {
  kind: "fill" | "op";
  index: number;
  ts: number;
  logIndex: number;
  type: string;
  side: string;
  size: number;
  usdc: number;
  markets: readonly number[];
}

function activityEntries(world: World, w: number): ActivityEntry[] {
  const t = world.tables;
  const entries: ActivityEntry[] = [];
  for (const f of world.fillsOfWallet(w)) {
    const fill = world.fill(f);
    entries.push({
      kind: "fill",
      index: f,
      ts: fill.ts,
      logIndex: fill.logIndex,
      type: "TRADE",
      side: fill.side,
      size: fill.size,
      usdc: fill.usd,
      markets: [fill.market],
    });
  }
  for (const i of world.opsOfWallet(w)) {
    const op = world.op(i);
    if (t.opType[i] === OP_RESOLUTION) continue;
    const markets =
      op.market < 0 ? [] : t.opType[i] === OP_CONVERSION ? world.events[op.event]!.marketIndexes : [op.market];
    const size = t.opType[i] === OP_REDEEM ? op.amount + op.amount2 : op.amount;
    const usdc = t.opType[i] === OP_REDEEM || t.opType[i] === OP_CONVERSION ? op.payout : op.amount;
    entries.push({
      kind: "op",
      index: i,
      ts: op.ts,
      logIndex: op.logIndex,
      type: op.type,
      side: "",
      size,
      usdc,
      markets,
    });
  }
  return entries;
}

function activityRow(world: World, w: number, entry: ActivityEntry) {
  if (entry.kind === "fill") {
    const fill = world.fill(entry.index);
    return {
      proxyWallet: world.wallets[w]!.proxyWallet,
      timestamp: fill.ts,
      conditionId: world.markets[fill.market]!.conditionId,
      type: "TRADE",
      size: decimal(fill.size),
      usdcSize: decimal(fill.usd),
      transactionHash: world.txHashOfFill(entry.index),
      price: decimal(fill.price),
      asset: world.tokenId(fill.token),
      side: fill.side,
      outcomeIndex: fill.outcome,
      ...marketFields(world, fill.market, fill.outcome),
      ...profileFields(world, w),
    };
  }
  const op = world.op(entry.index);
  const market = op.market;
  return {
    proxyWallet: world.wallets[w]!.proxyWallet,
    timestamp: op.ts,
    conditionId: market >= 0 ? world.markets[market]!.conditionId : "",
    type: op.type,
    size: decimal(entry.size),
    usdcSize: decimal(entry.usdc),
    transactionHash: world.txHashOfOp(entry.index),
    price: 0,
    asset: "",
    side: "",
    outcomeIndex: 999,
    ...(market >= 0
      ? marketFields(world, market, null)
      : { title: "", slug: "", icon: "", eventSlug: "", outcome: "" }),
    ...profileFields(world, w),
  };
}

const ACTIVITY_TYPES = [...OP_TYPES.filter((t) => t !== "RESOLUTION"), "TRADE", "MAKER_REBATE", "TAKER_REBATE"];

export function activityRoute(state: VenueState, query: URLSearchParams, limits: PageSpec = ACTIVITY_LIMITS): SimReply {
  const world = state.world;
  const w = requiredWallet(state, query);
  const page = pageParams(query, limits);
  const types = csvParam(query, "type").map((s) => s.toUpperCase());
  for (const type of types) if (!ACTIVITY_TYPES.includes(type)) fail(400, `invalid type: ${type}`);
  const start = numberParam(query, "start");
  const end = numberParam(query, "end");
  const side = query.get("side") ? enumParam(query, "side", ["BUY", "SELL"], "BUY") : null;
  const sortBy = enumParam(query, "sortBy", ["TIMESTAMP", "TOKENS", "CASH"], "TIMESTAMP");
  const direction = enumParam(query, "sortDirection", ["ASC", "DESC"], "DESC") === "ASC" ? 1 : -1;
  if (w < 0) return json([]);
  const markets = marketFilter(world, query);
  const entries = activityEntries(world, w).filter(
    (e) =>
      (!types.length || types.includes(e.type)) &&
      (start === null || e.ts >= start) &&
      (end === null || e.ts <= end) &&
      (!side || e.side === side) &&
      (!markets || e.markets.some((m) => markets.has(m))),
  );
  const key = (e: ActivityEntry) => (sortBy === "TOKENS" ? e.size : sortBy === "CASH" ? e.usdc : e.ts);
  entries.sort((a, b) => direction * (key(a) - key(b) || a.ts - b.ts || a.logIndex - b.logIndex));
  return json(takePage(entries, page).map((e) => activityRow(world, w, e)));
}

export interface DataApiOptions {
  /** "gone": the first version's lists answer 410, as a retired API version would (the second version stays). */
  readonly v1?: "serve" | "gone";
}

/** The first-version lists a retired first version no longer answers. */
const V1_LISTS = ["/trades", "/activity", "/positions", "/closed-positions", "/value"];

export function dataApiHandler(state: VenueState, options: DataApiOptions = {}): RouteHandler {
  const routes: Record<string, (state: VenueState, query: URLSearchParams) => SimReply> = {
    "/trades": tradesRoute,
    "/activity": activityRoute,
    "/positions": positionsRoute,
    "/closed-positions": closedPositionsRoute,
    "/value": valueRoute,
    "/traded": tradedRoute,
    "/holders": holdersRoute,
    "/v1/leaderboard": leaderboardRoute,
    ...dataApiV2Routes({
      trades: tradesRoute,
      activity: activityRoute,
      positions: positionsRoute,
      closedPositions: closedPositionsRoute,
      value: valueRoute,
    }),
  };
  return (request) => {
    const route = routes[request.path];
    if (!route) throw new SimErrorReply(404, { error: "not found" });
    if (options.v1 === "gone" && V1_LISTS.includes(request.path))
      throw new SimErrorReply(410, { error: "this version of the Data API is retired: use /v2" });
    if (request.method !== "GET") throw new SimErrorReply(405, { error: "method not allowed" });
    return route(state, request.query);
  };
}
