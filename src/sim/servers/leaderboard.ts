/**
 * `/v1/leaderboard` (the venue's Data API): wallets ranked by P&L or volume over DAY, WEEK, MONTH or ALL,
 * overall or in one category. A period's P&L is the change of lifetime P&L (the reference method, realized
 * plus open positions marked at that instant) across the period; its volume is the wallet's fill notional in it.
 * Tables are computed for a whole minute of venue time at once (live mode would otherwise recompute per second).
 */
import { CATEGORIES, referencePnl, type World } from "../world/index.js";
import { enumParam, fail, json, pageParams, walletParam, type SimReply } from "./http.js";
import type { VenueState } from "./venue-state.js";

const DAY = 86_400;
const PERIODS = { DAY: DAY, WEEK: 7 * DAY, MONTH: 30 * DAY, ALL: Number.POSITIVE_INFINITY } as const;
type Period = keyof typeof PERIODS;
/** Categories the venue's leaderboard knows; those the world has no markets in list nobody. */
const VENUE_CATEGORIES = ["OVERALL", ...CATEGORIES, "CULTURE", "MENTIONS", "WEATHER", "FINANCE"] as const;
export const LEADERBOARD_LIMITS = { defaultLimit: 25, maxLimit: 50, maxOffset: 1_000, noun: "leaderboard" } as const;

/** Per wallet, per column (0 overall, then one per world category): values in micro-units. */
type Table = Float64Array[];

function columnOf(world: World, market: number): number {
  return 1 + CATEGORIES.indexOf(world.markets[market]!.category);
}

/** Lifetime P&L of every wallet at `at`, overall and per category. */
function lifetimePnl(world: World, at: number): Table {
  return world.wallets.map((_, w) => {
    const row = new Float64Array(1 + CATEGORIES.length);
    const ref = referencePnl(world, w, at);
    const add = (market: number, micro: number) => {
      row[0]! += micro;
      row[columnOf(world, market)]! += micro;
    };
    for (const p of ref.positions)
      add(
        p.market,
        p.micro.realizedPnl + (p.micro.amount * (world.markPrice(p.market, p.outcome, at) - p.micro.avgPrice)) / 1e6,
      );
    for (const p of ref.closedPositions) add(p.market, p.micro.realizedPnl);
    return row;
  });
}

function volumeSince(world: World, since: number): Table {
  const table = world.wallets.map(() => new Float64Array(1 + CATEGORIES.length));
  const t = world.tables;
  const [from, to] = Number.isFinite(since)
    ? world.matchesBetween(since + 1, Number.MAX_SAFE_INTEGER)
    : [0, world.matchCount];
  for (let j = from; j < to; j++) {
    const column = columnOf(world, t.matchMarket[j]!);
    const [first, end] = world.fillsOfMatch(j);
    for (let f = first; f < end; f++) {
      const usd = (t.fillSize[f]! * world.fillPrice(f)) / 1e6;
      const row = table[t.fillWallet[f]!]!;
      row[0]! += usd;
      row[column]! += usd;
    }
  }
  return table;
}

interface Standings {
  pnl: Table;
  vol: Table;
}

const cache = new WeakMap<VenueState, Map<string, Table>>();

function cached(state: VenueState, key: string, compute: () => Table): Table {
  let tables = cache.get(state);
  if (!tables) cache.set(state, (tables = new Map()));
  let table = tables.get(key);
  if (!table) {
    if (tables.size >= 8) tables.clear();
    tables.set(key, (table = compute()));
  }
  return table;
}

function standings(state: VenueState, period: Period): Standings {
  const world = state.world;
  const at = state.isLive ? Math.floor(state.now() / 60) * 60 : state.now();
  const counts = `${world.fillCount}|${world.opCount}`;
  const lifetime = (instant: number) => cached(state, `pnl|${instant}|${counts}`, () => lifetimePnl(world, instant));
  const since = at - PERIODS[period];
  const now = lifetime(at);
  const before = Number.isFinite(since) && since > world.start ? lifetime(since) : null;
  const pnl = before ? now.map((row, w) => row.map((v, c) => v - before[w]![c]!)) : now;
  const vol = cached(state, `vol|${period}|${at}|${counts}`, () => volumeSince(world, since));
  return { pnl, vol };
}

export function leaderboardRoute(state: VenueState, query: URLSearchParams): SimReply {
  const world = state.world;
  const category = enumParam(query, "category", VENUE_CATEGORIES, "OVERALL");
  const period = enumParam(query, "timePeriod", ["DAY", "WEEK", "MONTH", "ALL"] as Period[], "DAY");
  const orderBy = enumParam(query, "orderBy", ["PNL", "VOL"], "PNL");
  const page = pageParams(query, LEADERBOARD_LIMITS);
  if (page.limit < 1) fail(400, "limit must be between 1 and 50");
  const user = walletParam(state, query, "user");
  const column = category === "OVERALL" ? 0 : 1 + CATEGORIES.indexOf(category as (typeof CATEGORIES)[number]);
  if (column < 0 || user === -1) return json([]);
  const { pnl, vol } = standings(state, period);
  const metric = orderBy === "PNL" ? pnl : vol;
  const ranked = world.wallets
    .map((_, w) => w)
    .filter((w) => vol[w]![column]! > 0 || Math.round(pnl[w]![column]!) !== 0)
    .sort((a, b) => metric[b]![column]! - metric[a]![column]! || a - b);
  const row = (w: number, rank: number) => {
    const wallet = world.wallets[w]!;
    return {
      rank: String(rank),
      proxyWallet: wallet.proxyWallet,
      userName: wallet.name || wallet.pseudonym,
      vol: Math.round(vol[w]![column]!) / 1e6,
      pnl: Math.round(pnl[w]![column]!) / 1e6,
      profileImage: wallet.profileImage,
      xUsername: "",
      verifiedBadge: false,
    };
  };
  if (user !== null) {
    const rank = ranked.indexOf(user);
    return json(rank < 0 ? [] : [row(user, rank + 1)]);
  }
  return json(ranked.slice(page.offset, page.offset + page.limit).map((w, k) => row(w, page.offset + k + 1)));
}
