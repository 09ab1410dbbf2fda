/** The market lists: hot markets (smart-whale trades in a window), category counts, resolved markets. */
import { sql } from "kysely";
import { resolutionPayoutYes } from "../../ledger/index.js";
import type { Store } from "../../store/database.js";
import type { Category } from "../../venue/categories.js";
import { fromMicro } from "../../venue/units.js";
import type { IndexedMarket, MarketIndex } from "./market-index.js";
import { marketIdentity, marketRow, type MarketRow } from "./markets-search.js";

export interface HotMarketByWhaleTrades extends MarketRow {
  whale_trades: number;
  whale_volume: number;
  whale_wallets: number;
  last_whale_trade: number;
}

/**
 * The window hot markets are computed for: the requested minutes rounded up to 5 minutes within the hour, to
 * whole hours within the day, to 6 hours beyond. Each window is computed once per cache window, so a client
 * cycling through every minute from 1 to 10,080 meets 59 computations, not 10,080 scans of up to 7 days of fills.
 */
export function hotWindowMinutes(minutes: number): number {
  const step = minutes <= 60 ? 5 : minutes <= 1_440 ? 60 : 360;
  return Math.min(10_080, Math.ceil(minutes / step) * step);
}

/**
 * Markets by the number of fills of Smart Money wallets (is_smart = 1) in the last `minutes`, then their USD;
 * at most `limit` rows. Markets missing from the index (not yet synced) are left out.
 */
export async function hotMarketsByWhaleTrades(
  store: Store,
  index: MarketIndex,
  now: number,
  minutes: number,
  limit: number,
): Promise<HotMarketByWhaleTrades[]> {
  const rows = await store.db
    .selectFrom("fills as f")
    .innerJoin("wallet_stats as w", "w.wallet", "f.wallet")
    .where("w.is_smart", "=", 1)
    .where("f.ts", ">", now - minutes * 60)
    .where("f.ts", "<=", now)
    .groupBy("f.condition_id")
    .select([
      "f.condition_id",
      sql<number>`count(*)`.as("trades"),
      sql<number>`sum(f.usd)`.as("usd"),
      sql<number>`count(distinct f.wallet)`.as("wallets"),
      sql<number>`max(f.ts)`.as("last_ts"),
    ])
    .orderBy("trades", "desc")
    .orderBy("usd", "desc")
    .orderBy("f.condition_id")
    .execute();
  const out: HotMarketByWhaleTrades[] = [];
  for (const r of rows) {
    const market = index.byConditionId.get(r.condition_id.toLowerCase());
    if (!market) continue;
    out.push(
      Object.assign(marketRow(market, now), {
        whale_trades: Number(r.trades),
        whale_volume: fromMicro(Number(r.usd)),
        whale_wallets: Number(r.wallets),
        last_whale_trade: Number(r.last_ts),
      }),
    );
    if (out.length >= limit) break;
  }
  return out;
}

export interface QualityThresholds {
  minVolume: number;
  priceMin: number;
  priceMax: number;
}

/** Open, not past its end date, volume at least the threshold, YES price inside the non-extreme band. */
export function isActiveQuality(m: IndexedMarket, now: number, t: QualityThresholds): boolean {
  if (m.closed || (m.end_date !== null && m.end_date < now)) return false;
  if (m.volume < t.minVolume || m.price_yes === null) return false;
  return m.price_yes >= t.priceMin && m.price_yes <= t.priceMax;
}

export function categoryStats(index: MarketIndex, category: Category | null, now: number, t: QualityThresholds) {
  let activeQuality = 0;
  let allOpen = 0;
  let allTime = 0;
  for (const m of index.markets) {
    if (category !== null && m.category !== category) continue;
    allTime++;
    if (!m.closed) allOpen++;
    if (isActiveQuality(m, now, t)) activeQuality++;
  }
  return {
    category: category ?? "All",
    active_quality: activeQuality,
    all_open: allOpen,
    all_time: allTime,
    thresholds: { min_volume: t.minVolume, price_min: t.priceMin, price_max: t.priceMax },
    as_of: now,
  };
}

export type ResolvedOutcome = "YES" | "NO" | "50-50" | "PENDING";

export interface ResolvedFilters {
  days: number;
  limit: number;
  offset: number;
  slugPrefix: string;
  /** Unix seconds, inclusive bounds on the end date; null when open. */
  endFrom: number | null;
  endTo: number | null;
  includePending: boolean;
}

export type ResolvedMarket = ReturnType<typeof marketIdentity> &
  Pick<IndexedMarket, "end_date" | "resolved_at" | "volume" | "whales_yes" | "whales_no"> & {
    outcome: ResolvedOutcome;
    final_price_yes: number | null;
  };

function outcomeOf(m: IndexedMarket): ResolvedOutcome | null {
  if (m.resolution) return m.resolution;
  return m.closed ? "PENDING" : null;
}

/** When a market resolved, as the list without a prefix dates it (the resolution, else the close, else the end). */
const resolvedAt = (m: IndexedMarket) => m.resolved_at ?? m.closed_time ?? m.end_date;

/** Newest first, then by id: both lists' order, on their own date. */
function newestFirst(date: (m: IndexedMarket) => number | null) {
  return (a: IndexedMarket, b: IndexedMarket) =>
    (date(b) ?? 0) - (date(a) ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Per copy of the market index, its resolved and pending markets with a date, newest resolution first: a list
 * without a prefix reads the window's stretch of it instead of every market.
 */
const byResolution = new WeakMap<MarketIndex, IndexedMarket[]>();

function resolvedByTime(index: MarketIndex): IndexedMarket[] {
  let sorted = byResolution.get(index);
  if (!sorted) {
    sorted = index.markets.filter((m) => outcomeOf(m) !== null && resolvedAt(m) !== null).sort(newestFirst(resolvedAt));
    byResolution.set(index, sorted);
  }
  return sorted;
}

/**
 * The stretch of `sorted` (newest first) dated within [since, now], as indexes [start, end), and the first second at
 * which the clock alone changes it: the next market's date coming, or the oldest one's leaving.
 */
function datedWithin(sorted: readonly IndexedMarket[], since: number, now: number) {
  const firstAtOrBefore = (t: number) => {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (resolvedAt(sorted[mid]!)! > t) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  const start = firstAtOrBefore(now);
  const end = firstAtOrBefore(since - 1);
  const comes = start > 0 ? resolvedAt(sorted[start - 1]!)! : Number.POSITIVE_INFINITY;
  const leaves = end > start ? resolvedAt(sorted[end - 1]!)! + (now - since) + 1 : Number.POSITIVE_INFINITY;
  return { markets: sorted.slice(start, end), until: Math.min(comes, leaves) };
}

/**
 * With a slug prefix: every resolved market whose slug starts with it, newest end date first. Without: markets
 * resolved in the last `days`, newest resolution first. YES and NO only, unless include_pending adds closed
 * markets awaiting resolution (PENDING) and 50-50 resolutions.
 */
export function resolvedMarkets(
  index: MarketIndex,
  f: ResolvedFilters,
  now: number,
): { markets: ResolvedMarket[]; total: number; until: number } {
  const prefix = f.slugPrefix.toLowerCase();
  const { markets: candidates, until } = prefix
    ? { markets: index.markets.filter((m) => m.slug.toLowerCase().startsWith(prefix)), until: Number.POSITIVE_INFINITY }
    : datedWithin(resolvedByTime(index), now - f.days * 86_400, now);
  const matches: IndexedMarket[] = [];
  for (const m of candidates) {
    const outcome = outcomeOf(m);
    if (outcome === null) continue;
    if ((outcome === "PENDING" || outcome === "50-50") && !f.includePending) continue;
    if (f.endFrom !== null && (m.end_date === null || m.end_date < f.endFrom)) continue;
    if (f.endTo !== null && (m.end_date === null || m.end_date > f.endTo)) continue;
    matches.push(m);
  }
  // The window's stretch is in order already.
  if (prefix) matches.sort(newestFirst((m) => m.end_date));
  const page = matches.slice(f.offset, f.offset + f.limit).map((m): ResolvedMarket => {
    const outcome = outcomeOf(m)!;
    return Object.assign(marketIdentity(m), {
      outcome,
      final_price_yes: outcome === "PENDING" ? m.price_yes : fromMicro(resolutionPayoutYes(outcome)),
      end_date: m.end_date,
      resolved_at: outcome === "PENDING" ? null : m.resolved_at,
      volume: m.volume,
      whales_yes: m.whales_yes,
      whales_no: m.whales_no,
    });
  });
  return { markets: page, total: matches.length, until };
}
