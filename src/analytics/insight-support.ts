/**
 * Lookups shared by the wallet insight, history and whale-match analytics: which wallet a request is about,
 * market facts (question, contract category, resolution) and display names, all by indexed reads.
 */
import { SECONDS_PER_DAY, marketCategory, type OutcomeSide } from "../ledger/index.js";
import type { Store } from "../store/database.js";
import { parseEventTags } from "../store/markets.js";
import { inSlices } from "../store/raw-sql.js";
import type { Resolution } from "../store/schema.js";
import { CATEGORIES, type Category } from "../venue/categories.js";
import { fromMicro } from "../venue/units.js";

export { SECONDS_PER_DAY };

/** USD from the store's integer micro-units. */
export const usd = fromMicro;

export const outcomeSide = (outcomeIndex: number): OutcomeSide => (outcomeIndex === 0 ? "YES" : "NO");

/** A row-count safe size for `in (...)` lists on both dialects. */
const CHUNK = 500;

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface MarketInfo {
  market_id: string;
  condition_id: string;
  question: string;
  slug: string;
  category: Category | null;
  closed: boolean;
  end_date: number | null;
  price_yes: number | null;
  price_no: number | null;
  volume_24h: number;
  /** YES, NO or 50-50 once resolved (the chain's resolution first, else Gamma's). */
  resolution: Resolution | null;
}

function marketQuery(store: Store) {
  return store.db
    .selectFrom("markets as m")
    .leftJoin("events as e", "e.id", "m.event_id")
    .leftJoin("market_resolutions as r", "r.condition_id", "m.condition_id")
    .select([
      "m.id",
      "m.condition_id",
      "m.question",
      "m.slug",
      "m.category",
      "e.category as event_category",
      "e.tags",
      "m.closed",
      "m.end_date",
      "m.price_yes",
      "m.price_no",
      "m.volume_24h",
      "m.resolution",
      "r.resolution as chain_resolution",
    ]);
}

type MarketRow = Awaited<ReturnType<ReturnType<typeof marketQuery>["execute"]>>[number];

function marketInfo(row: MarketRow): MarketInfo {
  return {
    market_id: row.id,
    condition_id: row.condition_id,
    question: row.question,
    slug: row.slug,
    category: marketCategory(row.category ?? row.event_category, parseEventTags(row.tags)),
    closed: row.closed === 1,
    end_date: row.end_date,
    price_yes: row.price_yes,
    price_no: row.price_no,
    volume_24h: row.volume_24h,
    resolution: row.chain_resolution ?? row.resolution,
  };
}

/** Facts of the given markets by condition id; unknown ids are absent from the map. */
export async function loadMarkets(store: Store, conditionIds: Iterable<string>): Promise<Map<string, MarketInfo>> {
  // A whole roster's markets in the window aggregates: slices with the event loop let run between them.
  const rows = await inSlices(
    [...new Set(conditionIds)],
    (part) => marketQuery(store).where("m.condition_id", "in", part).execute(),
    CHUNK,
    true,
  );
  return new Map(rows.map((row) => [row.condition_id, marketInfo(row)]));
}

/** Facts of every market, by condition id. */
export async function loadAllMarkets(store: Store): Promise<Map<string, MarketInfo>> {
  const rows = await marketQuery(store).execute();
  return new Map(rows.map((row) => [row.condition_id, marketInfo(row)]));
}

/** Open markets whose end date is after `now`. */
export async function loadActiveMarkets(store: Store, now: number): Promise<MarketInfo[]> {
  const rows = await marketQuery(store).where("m.closed", "=", 0).where("m.end_date", ">", now).execute();
  return rows.map(marketInfo);
}

/** Market reference fields every market-bearing row of these endpoints carries. */
export function marketRef(conditionId: string, market: MarketInfo | undefined) {
  return { condition_id: conditionId, market_id: market?.market_id ?? null, question: market?.question ?? null };
}

/** Display name per address: the profile name, else the pseudonym, else null. */
export async function loadNames(store: Store, addresses: Iterable<string>): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (const part of chunks([...new Set(addresses)])) {
    const rows = await store.db
      .selectFrom("wallets")
      .select(["address", "name", "pseudonym"])
      .where("address", "in", part)
      .execute();
    for (const row of rows) out.set(row.address, row.name || row.pseudonym || null);
  }
  return out;
}

/** wallet_stats.categories (JSON percent shares) as a complete record; zeros when absent or unreadable. */
export function parseCategoryShares(json: string | null | undefined): Record<Category, number> {
  const shares = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
  if (!json) return shares;
  try {
    const parsed = JSON.parse(json) as Record<string, unknown>;
    for (const c of CATEGORIES) if (typeof parsed[c] === "number") shares[c] = parsed[c] as number;
  } catch {
    // unreadable: all zeros
  }
  return shares;
}

/** The wallet's categories by share, largest first (ties by the fixed category order); zero shares left out. */
export function rankedCategories(shares: Record<Category, number>): Array<{ category: Category; share_pct: number }> {
  return CATEGORIES.map((category) => ({ category, share_pct: shares[category] }))
    .filter((c) => c.share_pct > 0)
    .sort((a, b) => b.share_pct - a.share_pct);
}

/** UTC calendar date of a unix-seconds day number. */
export const isoDay = (day: number): string => new Date(day * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10);
