/**
 * Market search over the in-memory market index: a text query, a venue URL, a slug or a condition id, plus the
 * numeric filters of /api/v2/markets/search, all applied server-side; `total` counts every match.
 */
import type { Category } from "../../venue/categories.js";
import { textCandidates, type IndexedMarket, type MarketIndex } from "./market-index.js";

export interface SearchFilters {
  q: string;
  category: Category | null;
  limit: number;
  offset: number;
  minVolume: number;
  minWhales: number;
  minDays: number;
  maxDays: number;
  /** Percent 0..100 of the YES price. */
  priceMin: number;
  priceMax: number;
  /** 0: off; else the end date falls within the next window_hours hours. */
  windowHours: number;
  /** 0: off; else the market was created within the last created_within_days days. */
  createdWithinDays: number;
}

export type MarketRow = ReturnType<typeof marketIdentity> &
  Pick<
    IndexedMarket,
    | "event_id"
    | "price_yes"
    | "price_no"
    | "volume"
    | "volume_24h"
    | "liquidity"
    | "trades"
    | "whales_yes"
    | "whales_no"
    | "end_date"
    | "created_at"
    | "closed"
    | "neg_risk"
  > & {
    whales_total: number;
    days_left: number | null;
    image_url: string | null;
  };

/** What names a market in every list: ids, slug, question, category (its code, as every answer spells it), event slug. */
export function marketIdentity(m: IndexedMarket) {
  return {
    id: m.id,
    condition_id: m.condition_id,
    slug: m.slug,
    question: m.question,
    category: m.category,
    event_slug: m.event_slug,
  };
}

const DAY = 86_400;

export function marketRow(m: IndexedMarket, now: number): MarketRow {
  return Object.assign(marketIdentity(m), {
    event_id: m.event_id,
    price_yes: m.price_yes,
    price_no: m.price_no,
    volume: m.volume,
    volume_24h: m.volume_24h,
    liquidity: m.liquidity,
    trades: m.trades,
    whales_yes: m.whales_yes,
    whales_no: m.whales_no,
    whales_total: m.whales_yes + m.whales_no,
    end_date: m.end_date,
    created_at: m.created_at,
    days_left: m.end_date === null ? null : Math.max(0, (m.end_date - now) / DAY),
    closed: m.closed,
    neg_risk: m.neg_risk,
    image_url: m.image,
  });
}

const CONDITION_ID = /^0x[0-9a-f]{64}$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)+$/;

/**
 * The markets a query names exactly (a venue URL `/event/<event>[/<market>]` or `/market/<slug>`, a market or
 * event slug, a condition id), or undefined when the query is free text.
 */
export function identifiedMarkets(index: MarketIndex, query: string): readonly IndexedMarket[] | undefined {
  const q = query.trim().toLowerCase();
  if (CONDITION_ID.test(q)) return [index.byConditionId.get(q)].filter((m) => m !== undefined);
  let path: string[] | undefined;
  if (/^(https?:\/\/)?([a-z0-9-]+\.)*[a-z0-9-]+\.[a-z]+\//.test(q)) {
    try {
      path = new URL(q.startsWith("http") ? q : `https://${q}`).pathname.split("/").filter(Boolean);
    } catch {
      return [];
    }
  }
  if (path) {
    const [kind, first, second] = path;
    if (kind === "market" && first) return [index.bySlug.get(first)].filter((m) => m !== undefined);
    if (kind === "event" && first) {
      if (second) {
        const market = index.bySlug.get(second);
        if (market) return [market];
      }
      return index.byEventSlug.get(first) ?? [];
    }
    return [];
  }
  if (SLUG.test(q)) {
    const market = index.bySlug.get(q);
    if (market) return [market];
    const event = index.byEventSlug.get(q);
    if (event) return event;
  }
  return undefined;
}

export interface SearchResult {
  markets: MarketRow[];
  total: number;
}

/**
 * Free text searches open markets whose question, slug or event name contains every word of the query. A query
 * that names markets exactly (URL, slug, condition id) also finds closed ones. Order: volume_24h desc, volume
 * desc, id.
 */
export function searchMarkets(index: MarketIndex, f: SearchFilters, now: number): SearchResult {
  const named = f.q.trim() === "" ? undefined : identifiedMarkets(index, f.q);
  const words = named ? [] : f.q.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const candidates = named ?? textCandidates(index, words);
  const fullPriceRange = f.priceMin <= 0 && f.priceMax >= 100;
  const matches: IndexedMarket[] = [];
  for (const m of candidates) {
    if (!named && m.closed) continue;
    if (f.category !== null && m.category !== f.category) continue;
    if (m.volume < f.minVolume) continue;
    if (m.whales_yes + m.whales_no < f.minWhales) continue;
    const daysLeft = m.end_date === null ? 0 : Math.max(0, (m.end_date - now) / DAY);
    if (daysLeft < f.minDays || daysLeft > f.maxDays) continue;
    if (f.windowHours > 0 && (m.end_date === null || m.end_date < now || m.end_date > now + f.windowHours * 3600))
      continue;
    if (f.createdWithinDays > 0 && (m.created_at === null || m.created_at < now - f.createdWithinDays * DAY)) continue;
    if (!fullPriceRange) {
      if (m.price_yes === null) continue;
      const pct = m.price_yes * 100;
      if (pct < f.priceMin || pct > f.priceMax) continue;
    }
    if (words.length > 0 && !words.every((w) => m.text.includes(w))) continue;
    matches.push(m);
  }
  return { markets: matches.slice(f.offset, f.offset + f.limit).map((m) => marketRow(m, now)), total: matches.length };
}
