/**
 * The whale alerts feed (/api/v2/whale-alerts): fills of smart whales in the last `minutes`, newest first, with
 * filters. Smart whales' fills are answered from the in-memory copy of the last 48 h (whale-fill-window.ts);
 * `smart_only=false` widens the feed to every wallet, which only the store holds: it reads the fills' id ranges of
 * each hour (src/store/fill-spans.ts), newest first.
 */
import type { Category } from "../../venue/categories.js";
import { placeholders, queryRows } from "../../store/raw-sql.js";
import { FILL_ENDS } from "../../store/fills.js";
import { inFillWindow } from "../../store/fill-spans.js";
import type { Store } from "../../store/database.js";
import { STATS_GENERATION } from "../../store/derive-state.js";
import type { IndexedMarket, MarketIndex } from "../markets/market-index.js";
import { loadNames } from "../wallet/display-names.js";
import { outcomeSide } from "../markets/market-facts.js";
import { fromMicro } from "../../venue/units.js";
import { FILL_COLUMNS, firstAfter, numeric, type WhaleFill, type WindowView } from "./whale-fill-window.js";
import type { WhaleReads } from "./whale-reads.js";
import { candidatesNewestFirst } from "./window-positions.js";
import { keysetBeforeText } from "../reads/keyset.js";

export interface AlertQuery {
  minutes: number;
  /** Lower-case addresses; null: every wallet. */
  wallets: ReadonlySet<string> | null;
  conditionId: string | null;
  category: Category | null;
  minUsd: number;
  smartOnly: boolean;
  /** Exclusive upper bound (unix s); 0: none. */
  beforeTs: number;
  /** Exclusive lower bound (unix s); 0: none. */
  afterTs: number;
  limit: number;
}

/** Who made a fill, as an alert shows it. */
export interface Trader {
  name: string | null;
  isSmart: boolean;
  winRate: number | null;
  totalPnl: number | null;
}

export function alertItem(f: WhaleFill, who: Trader, market: IndexedMarket | undefined) {
  return {
    id: f.id,
    timestamp: f.ts,
    wallet: f.wallet,
    name: who.name,
    is_smart: who.isSmart,
    win_rate: who.winRate,
    total_pnl: who.totalPnl,
    market_id: market?.id ?? null,
    condition_id: f.condition_id,
    question: market?.question ?? null,
    slug: market?.slug ?? null,
    event_slug: market?.event_slug ?? null,
    category: market?.category ?? null,
    side: outcomeSide(f.outcome_index),
    direction: f.side,
    price: f.price,
    usd_amount: fromMicro(f.usd),
    token_amount: fromMicro(f.size),
    entry_type: f.entry_type,
    wallet_role: f.role,
    tx_hash: f.tx_hash,
  };
}

export type AlertItem = ReturnType<typeof alertItem>;

/** The bounds of a feed query: fills with `after` < ts ≤ `upTo`. */
export function feedBounds(
  now: number,
  q: Pick<AlertQuery, "minutes" | "beforeTs" | "afterTs">,
): { after: number; upTo: number } {
  return {
    after: Math.max(now - q.minutes * 60, q.afterTs),
    upTo: q.beforeTs > 0 ? Math.min(now, q.beforeTs - 1) : now,
  };
}

/** Micro-units from which a fill of at least `minUsd` counts (the rounding of `minUsd * 1e6` never drops a fill of exactly that much). */
export const microFloor = (minUsd: number) =>
  Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.ceil(minUsd * 1e6 - 1e-6)));

/** A fill matches the filters other than time and smartness. */
function matcher(q: AlertQuery, index: MarketIndex): (f: WhaleFill) => boolean {
  const floor = microFloor(q.minUsd);
  return (f) =>
    f.usd >= floor &&
    (q.wallets === null || q.wallets.has(f.wallet)) &&
    (q.conditionId === null || f.condition_id === q.conditionId) &&
    (q.category === null || index.byConditionId.get(f.condition_id)?.category === q.category);
}

/**
 * A page never ends inside a second when it can help it: the rows of the second the next row falls in are left
 * to the next page, so that `before_ts` = the page's oldest second continues exactly where it stopped.
 */
export function pageOfWholeSeconds<T extends { ts: number }>(
  newestFirst: readonly T[],
  limit: number,
): { page: T[]; hasMore: boolean; nextBeforeTs: number | null } {
  if (newestFirst.length <= limit) return { page: [...newestFirst], hasMore: false, nextBeforeTs: null };
  const cut = newestFirst[limit]!.ts;
  let end = limit;
  while (end > 0 && newestFirst[end - 1]!.ts === cut) end--;
  if (end === 0) end = limit; // more than `limit` alerts in one second: this page cuts inside it
  const page = newestFirst.slice(0, end);
  return { page, hasMore: true, nextBeforeTs: page[page.length - 1]!.ts };
}

/**
 * The smart whales' fills matching the query, newest first, at most limit + 1, from the in-memory copy; and until
 * when the same copy gives the same ones: the window's start moving past the oldest of them, or any second when the
 * copy holds fills above the window's end (the clock behind the chain's timestamps).
 */
function smartMatches(view: WindowView, q: AlertQuery, index: MarketIndex, now: number) {
  const { after, upTo } = feedBounds(now, q);
  const keep = matcher(q, index);
  const found: Array<{ fill: WhaleFill; who: Trader }> = [];
  for (const i of candidatesNewestFirst(view.fills, firstAfter(view.fills, upTo), q)) {
    if (found.length > q.limit) break;
    const f = view.fills[i]!;
    if (f.ts <= after) break;
    if (!keep(f)) continue;
    const whale = view.roster.whales.get(f.wallet)!;
    found.push({ fill: f, who: { name: whale.name, isSmart: true, winRate: whale.winRate, totalPnl: whale.totalPnl } });
  }
  const above = (view.fills.at(-1)?.ts ?? Number.NEGATIVE_INFINITY) > upTo;
  return { found, asOf: view.asOf, until: keptUntil(found, above, now, q.minutes) };
}

/**
 * The first second at which the same fills may give another answer: the window's start moving past the oldest of
 * those found, or any second when fills are stored above the window's end (the clock behind the chain's timestamps).
 */
function keptUntil(found: ReadonlyArray<{ fill: { ts: number } }>, above: boolean, now: number, minutes: number) {
  const oldest = found.at(-1);
  return above ? now + 1 : oldest ? oldest.fill.ts + minutes * 60 : Number.POSITIVE_INFINITY;
}

/** What every wallet's feed (read from the store) is read from besides the clock: its stamp, and the latest fill time. */
export interface StoreFeed {
  readonly stamp: string;
  readonly latestTs: number;
}

/** Where an answer's fills come from: the smart whales' copy, or every wallet's fills in the store. */
export type AlertSource = { readonly view: WindowView } | { readonly store: StoreFeed };

/** What an answer was read from, for the key it is kept under: the copy's as_of, or the store's stamp. */
export function sourceStamp(source: AlertSource): string | number {
  return "view" in source ? source.view.asOf : source.store.stamp;
}

/**
 * The store's last fill (by id: any fill stored moves it, a late one included), its latest fill time, and the
 * generation of its wallets' statistics (a ranking that moved Smart Money flags): three index ends.
 */
export async function storeFeed(store: Store): Promise<StoreFeed> {
  const [row] = await queryRows<{ id: number | null; ts: number | null; generation: number | null }>(
    store.db,
    store.kind,
    `select ${FILL_ENDS.lastId} as id, ${FILL_ENDS.latestTs} as ts,
       (select value from derive_state where name = ?) as generation`,
    [STATS_GENERATION],
  );
  return { stamp: `${row?.id}:${row?.ts}:${row?.generation}`, latestTs: Number(row?.ts ?? 0) };
}

/** Rows the store pages through when a filter is applied in code (the category). */
const SCAN_PAGE = 500;

/** Every wallet's fills are read newest first this many seconds of fill time at a time, each sorted in code. */
const SPAN_CHUNK_SECONDS = 3_600;

type StoreRow = WhaleFill & {
  is_smart: number | null;
  is_farmer: number | null;
  win_rate: number | null;
  total_pnl: number | null;
};

const STORE_ROWS = `select ${FILL_COLUMNS}, s.is_smart, s.is_farmer, s.win_rate, s.total_pnl
  from fills f left join wallet_stats s on s.wallet = f.wallet`;

/**
 * Every wallet's fills matching the query, newest first, at most limit + 1, read from the store as of `now`; and
 * until when the same store (`feed`'s stamp) gives the same ones, as `smartMatches` says.
 */
async function storeMatches(store: Store, feed: StoreFeed, q: AlertQuery, index: MarketIndex, now: number) {
  const found = await allMatches(store, q, index, now);
  const above = feed.latestTs > feedBounds(now, q).upTo;
  return { found, asOf: now, until: keptUntil(found, above, now, q.minutes) };
}

/**
 * Every wallet's fills matching the query, newest first, at most limit + 1: a wallet's or a market's through their
 * (key, time) indexes paged by (ts, id), every wallet's by the fills' id ranges of each hour (`fill_spans`).
 */
async function allMatches(store: Store, q: AlertQuery, index: MarketIndex, now: number) {
  const keep = matcher(q, index);
  const found: StoreRow[] = [];
  const take = (rows: readonly StoreRow[]): boolean => {
    for (const r of rows) {
      const f = numeric(r);
      if (keep(f) && found.length <= q.limit) found.push(f);
    }
    return found.length > q.limit;
  };
  await (q.wallets || q.conditionId ? keyedNewestFirst(store, q, now, take) : spansNewestFirst(store, q, now, take));
  const names = await loadNames(
    store,
    found.map((r) => r.wallet),
  );
  return found.map((r) => {
    const stats = r.win_rate !== null;
    const who: Trader = {
      name: names.get(r.wallet) ?? null,
      isSmart: Number(r.is_smart) === 1 && Number(r.is_farmer) === 0,
      winRate: stats ? Number(r.win_rate) : null,
      totalPnl: stats ? Number(r.total_pnl) : null,
    };
    return { fill: r, who };
  });
}

/** Reads the query's fills newest first, handing them to `take` until it says it has enough. */
type NewestFirst = (
  store: Store,
  q: AlertQuery,
  now: number,
  take: (rows: readonly StoreRow[]) => boolean,
) => Promise<void>;

/** The fills of the query's wallets or market, newest first, page by page. */
const keyedNewestFirst: NewestFirst = async (store, q, now, take) => {
  const { after, upTo } = feedBounds(now, q);
  const where = ["f.ts > ?", "f.ts <= ?", "f.usd >= ?"];
  const params: unknown[] = [after, upTo, microFloor(q.minUsd)];
  if (q.wallets) {
    where.push(`f.wallet in ${placeholders(q.wallets.size)}`);
    params.push(...q.wallets);
  }
  if (q.conditionId) {
    where.push("f.condition_id = ?");
    params.push(q.conditionId);
  }
  const pageRows = q.category ? SCAN_PAGE : q.limit + 1;
  for (let cursor: { ts: number; id: number } | null = null; ; ) {
    const keyset = keysetBeforeText(
      { ts: "f.ts", id: "f.id" },
      { before: cursor?.ts ?? 0, beforeId: cursor?.id ?? 0, inclusive: false },
    );
    const rows = await queryRows<StoreRow>(
      store.db,
      store.kind,
      `${STORE_ROWS} where ${where.join(" and ")}${keyset.text} order by f.ts desc, f.id desc limit ${pageRows}`,
      [...params, ...keyset.params],
    );
    if (take(rows) || rows.length < pageRows) return;
    const last = rows[rows.length - 1]!;
    cursor = { ts: Number(last.ts), id: Number(last.id) };
  }
};

/** Every wallet's fills, newest first, an hour of fill time at a time. */
const spansNewestFirst: NewestFirst = async (store, q, now, take) => {
  const { after, upTo } = feedBounds(now, q);
  const minUsd = microFloor(q.minUsd);
  for (let chunkUpTo = upTo; chunkUpTo > after; chunkUpTo -= SPAN_CHUNK_SECONDS) {
    const chunkAfter = Math.max(after, chunkUpTo - SPAN_CHUNK_SECONDS);
    const rows = await inFillWindow(store, chunkAfter, chunkUpTo, (first, last) =>
      queryRows<StoreRow>(
        store.db,
        store.kind,
        `${STORE_ROWS} where f.id between ? and ? and f.ts > ? and f.ts <= ? and f.usd >= ?`,
        [first, last, chunkAfter, chunkUpTo, minUsd],
      ),
    );
    rows.sort((a, b) => Number(b.ts) - Number(a.ts) || Number(b.id) - Number(a.id));
    if (take(rows)) return;
  }
};

/**
 * The feed as of `now` (unix seconds), from `source` (the smart whales' copy as of now, or every wallet's fills in the
 * store), and the first second at which it may differ with the same source.
 */
export async function whaleAlerts(reads: WhaleReads, q: AlertQuery, now: number, source: AlertSource) {
  const index = await reads.markets();
  const { found, asOf, until } =
    "view" in source
      ? smartMatches(source.view, q, index, now)
      : await storeMatches(reads.store, source.store, q, index, now);
  const { page, hasMore, nextBeforeTs } = pageOfWholeSeconds(
    found.map((m) => Object.assign({}, m, { ts: m.fill.ts })),
    q.limit,
  );
  const answer = {
    alerts: page.map((m) => alertItem(m.fill, m.who, index.byConditionId.get(m.fill.condition_id))),
    count: page.length,
    has_more: hasMore,
    next_before_ts: nextBeforeTs,
    minutes: q.minutes,
    min_usd: q.minUsd,
    smart_only: q.smartOnly,
    as_of: asOf,
  };
  return { answer, until };
}

/** Lower-case addresses of a comma-separated list (blanks dropped); the route has checked each. */
export function walletSet(wallet: string, wallets: string): Set<string> | null {
  const all = [wallet, ...wallets.split(",")].map((w) => w.trim().toLowerCase()).filter((w) => w !== "");
  return all.length > 0 ? new Set(all) : null;
}
