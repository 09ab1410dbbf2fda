/**
 * The venue's per-wallet numbers (the venue's Data API), all from the world's reference P&L method as of the
 * venue's clock: `/positions`, `/closed-positions`, `/value`, `/traded`, `/holders`, and the user P&L curve
 * (`/user-pnl` on its own host).
 */
import {
  OUTCOME_NAMES,
  rebuildHoldings,
  type ReferenceClosedPosition,
  type ReferencePosition,
  type World,
} from "../world/index.js";
import { isoDate, marketFields, profileFields } from "./format.js";
import {
  SimErrorReply,
  boolParam,
  csvParam,
  enumParam,
  fail,
  intParam,
  json,
  numberParam,
  pageParams,
  requiredWallet,
  takePage,
  type PageSpec,
  type RouteHandler,
  type SimReply,
} from "./http.js";
import type { VenueState } from "./venue-state.js";

export const POSITIONS_LIMITS = { defaultLimit: 100, maxLimit: 500, maxOffset: 10_000, noun: "positions" } as const;
export const CLOSED_POSITIONS_LIMITS = {
  defaultLimit: 10,
  maxLimit: 50,
  maxOffset: Number.POSITIVE_INFINITY,
  noun: "closed positions",
} as const;
const MAX_HOLDERS = 20;
const DAY = 86_400;

/** The fields of a position row that describe its token and market. */
function tokenFields(world: World, token: number) {
  const m = token >> 1;
  const outcome = token & 1;
  const market = world.markets[m]!;
  return {
    asset: world.tokenId(token),
    conditionId: market.conditionId,
    ...marketFields(world, m, outcome),
    outcomeIndex: outcome,
    oppositeOutcome: OUTCOME_NAMES[(outcome ^ 1) as 0 | 1],
    oppositeAsset: world.tokenId(token ^ 1),
    endDate: isoDate(market.endDate),
  };
}

function positionRow(world: World, p: ReferencePosition) {
  const market = world.markets[p.market]!;
  const { asset, conditionId, ...display } = tokenFields(world, p.token);
  return {
    proxyWallet: world.wallets[p.wallet]!.proxyWallet,
    asset,
    conditionId,
    size: p.size,
    avgPrice: p.avgPrice,
    initialValue: p.initialValue,
    currentValue: p.currentValue,
    cashPnl: p.cashPnl,
    percentPnl: p.percentPnl,
    totalBought: p.totalBought,
    realizedPnl: p.realizedPnl,
    percentRealizedPnl: p.percentRealizedPnl,
    curPrice: p.curPrice,
    redeemable: p.redeemable,
    mergeable: p.mergeable,
    ...display,
    eventId: world.events[market.eventIndex]!.id,
    negativeRisk: market.negRisk,
  };
}

function closedPositionRow(world: World, p: ReferenceClosedPosition) {
  const { asset, conditionId, ...display } = tokenFields(world, p.token);
  return {
    proxyWallet: world.wallets[p.wallet]!.proxyWallet,
    asset,
    conditionId,
    avgPrice: p.avgPrice,
    totalBought: p.totalBought,
    realizedPnl: p.realizedPnl,
    curPrice: p.curPrice,
    timestamp: p.timestamp,
    ...display,
  };
}

function marketsOf(world: World, query: URLSearchParams): Set<number> | null {
  const conditions = csvParam(query, "market");
  const eventId = query.get("eventId");
  if (!conditions.length && !eventId) return null;
  const event = eventId ? world.events.find((e) => e.id === eventId) : undefined;
  const byCondition = conditions.length ? new Set(conditions.map((c) => world.marketIndexByCondition(c))) : null;
  const markets = world.markets
    .map((m) => m.index)
    .filter((m) => (!byCondition || byCondition.has(m)) && (!eventId || event?.marketIndexes.includes(m)));
  return new Set(markets);
}

/** Sorts by `key` in `direction`, ties by token (the venue's order is stable page to page). */
function sortBy<T extends { token: number }>(rows: T[], key: (row: T) => number | string, direction: 1 | -1): T[] {
  return rows.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return x !== y ? (x < y ? -direction : direction) : a.token - b.token;
  });
}

const direction = (query: URLSearchParams): 1 | -1 =>
  enumParam(query, "sortDirection", ["ASC", "DESC"], "DESC") === "ASC" ? 1 : -1;

export function positionsRoute(
  state: VenueState,
  query: URLSearchParams,
  limits: PageSpec = POSITIONS_LIMITS,
): SimReply {
  const world = state.world;
  const w = requiredWallet(state, query);
  const page = pageParams(query, limits);
  const threshold = numberParam(query, "sizeThreshold") ?? 1;
  const redeemable = boolParam(query, "redeemable");
  const mergeable = boolParam(query, "mergeable");
  const title = query.get("title")?.toLowerCase() ?? "";
  const sort = enumParam(
    query,
    "sortBy",
    ["CURRENT", "INITIAL", "TOKENS", "CASHPNL", "PERCENTPNL", "TITLE", "RESOLVING", "PRICE", "AVGPRICE"],
    "TOKENS",
  );
  const dir = direction(query);
  if (w < 0) return json([]);
  const markets = marketsOf(world, query);
  const rows = state
    .reference(w)
    .positions.filter(
      (p) =>
        p.size >= threshold &&
        (redeemable === null || p.redeemable === redeemable) &&
        (mergeable === null || p.mergeable === mergeable) &&
        (!markets || markets.has(p.market)) &&
        (!title || world.markets[p.market]!.question.toLowerCase().includes(title)),
    );
  const keys: Record<typeof sort, (p: ReferencePosition) => number | string> = {
    CURRENT: (p) => p.currentValue,
    INITIAL: (p) => p.initialValue,
    TOKENS: (p) => p.size,
    CASHPNL: (p) => p.cashPnl,
    PERCENTPNL: (p) => p.percentPnl,
    TITLE: (p) => world.markets[p.market]!.question,
    RESOLVING: (p) => world.markets[p.market]!.endDate,
    PRICE: (p) => p.curPrice,
    AVGPRICE: (p) => p.avgPrice,
  };
  return json(takePage(sortBy(rows, keys[sort], dir), page).map((p) => positionRow(world, p)));
}

export function closedPositionsRoute(
  state: VenueState,
  query: URLSearchParams,
  limits: PageSpec = CLOSED_POSITIONS_LIMITS,
): SimReply {
  const world = state.world;
  const w = requiredWallet(state, query);
  const page = pageParams(query, limits);
  const sort = enumParam(query, "sortBy", ["REALIZEDPNL", "TITLE", "PRICE", "AVGPRICE", "TIMESTAMP"], "REALIZEDPNL");
  const dir = direction(query);
  if (w < 0) return json([]);
  const markets = marketsOf(world, query);
  const rows = state.reference(w).closedPositions.filter((p) => !markets || markets.has(p.market));
  const keys: Record<typeof sort, (p: ReferenceClosedPosition) => number | string> = {
    REALIZEDPNL: (p) => p.realizedPnl,
    TITLE: (p) => world.markets[p.market]!.question,
    PRICE: (p) => p.curPrice,
    AVGPRICE: (p) => p.avgPrice,
    TIMESTAMP: (p) => p.timestamp,
  };
  return json(takePage(sortBy(rows, keys[sort], dir), page).map((p) => closedPositionRow(world, p)));
}

export function valueRoute(state: VenueState, query: URLSearchParams): SimReply {
  const w = requiredWallet(state, query);
  const user = (query.get("user") ?? "").toLowerCase();
  const value = w < 0 ? 0 : state.reference(w).positions.reduce((sum, p) => sum + p.currentValue, 0);
  return json([{ user, value }]);
}

export function tradedRoute(state: VenueState, query: URLSearchParams): SimReply {
  const world = state.world;
  const w = requiredWallet(state, query);
  const markets = new Set<number>();
  if (w >= 0)
    for (const f of world.fillsOfWallet(w)) markets.add(world.tables.matchMarket[world.tables.fillMatch[f]!]!);
  return json({ user: (query.get("user") ?? "").toLowerCase(), traded: markets.size });
}

/** Top holders of each outcome token of the given markets, by balance as of now. */
export function holdersRoute(state: VenueState, query: URLSearchParams): SimReply {
  const world = state.world;
  const conditions = csvParam(query, "market");
  if (!conditions.length) fail(400, "market is required");
  const limit = intParam(query, "limit", MAX_HOLDERS, { min: 0, max: MAX_HOLDERS });
  const minBalance = Math.round((numberParam(query, "minBalance") ?? 1) * 1e6);
  const out: unknown[] = [];
  for (const m of conditions.map((c) => world.marketIndexByCondition(c)).filter((m) => m >= 0)) {
    const book = rebuildHoldings(world, [m]).book(m);
    for (const outcome of [0, 1] as const) {
      const slots = book.wallets.map((_, slot) => slot).filter((slot) => book.balances[outcome][slot]! >= minBalance);
      slots.sort(
        (a, b) => book.balances[outcome][b]! - book.balances[outcome][a]! || book.wallets[a]! - book.wallets[b]!,
      );
      const token = m * 2 + outcome;
      out.push({
        token: world.tokenId(token),
        holders: slots.slice(0, limit).map((slot) => {
          const w = book.wallets[slot]!;
          return {
            proxyWallet: world.wallets[w]!.proxyWallet,
            asset: world.tokenId(token),
            amount: book.balances[outcome][slot]! / 1e6,
            outcomeIndex: outcome,
            displayUsernamePublic: true,
            ...profileFields(world, w),
          };
        }),
      });
    }
  }
  return json(out);
}

const INTERVALS: Record<string, number> = { "1D": DAY, "1W": 7 * DAY, "1M": 30 * DAY, ALL: Number.POSITIVE_INFINITY };

/** `user-pnl-api` `/user-pnl?user_address=&interval=all&fidelity=1d`: the reference P&L curve (daily points, then now). */
export function pnlHandler(state: VenueState): RouteHandler {
  return (request) => {
    if (request.path !== "/user-pnl") throw new SimErrorReply(404, { error: "not found" });
    const w = requiredWallet(state, request.query, "user_address");
    const interval = enumParam(request.query, "interval", ["1D", "1W", "1M", "ALL"], "ALL");
    enumParam(request.query, "fidelity", ["1H", "3H", "12H", "1D"], "1D");
    if (w < 0) return json([]);
    const since = state.now() - INTERVALS[interval]!;
    return json(
      state
        .reference(w)
        .curve.filter((point) => point.t >= since)
        .map((point) => ({ t: point.t, p: point.p })),
    );
  };
}
