/**
 * Every market as one in-memory row (market, event, market_stats and chain resolution joined), so that search
 * and the market lists filter a few thousand rows in memory instead of querying per request. The index is
 * loaded once per store; once older than its refresh window it is reloaded in the background if the tables it
 * reads changed: a request never waits for a reload once the first load is done.
 */
import type { BackgroundWork } from "../../platform/background-work.js";
import type { Clock } from "../../platform/clock.js";
import type { Store } from "../../store/database.js";
import { yieldToLoop } from "../../platform/yield-to-loop.js";
import { keysetPages } from "../../store/raw-sql.js";
import { tableChangesStamp } from "../../store/table-changes.js";
import type { Resolution } from "../../store/schema.js";
import { parseCategory, type Category } from "../../venue/categories.js";
import { MarketTextIndex } from "./market-text.js";

export interface IndexedMarket {
  id: string;
  condition_id: string;
  slug: string;
  question: string;
  category: Category | null;
  event_id: string | null;
  event_slug: string | null;
  event_title: string | null;
  group_item_title: string | null;
  price_yes: number | null;
  price_no: number | null;
  /** USD: the venue's figure when it reports one, else the stored fills'. */
  volume: number;
  volume_24h: number;
  liquidity: number;
  trades: number;
  whales_yes: number;
  whales_no: number;
  start_date: number | null;
  end_date: number | null;
  created_at: number | null;
  closed: boolean;
  closed_time: number | null;
  resolution: Resolution | null;
  /** When the market resolved: the chain's ConditionResolution, else the venue's closed time, else its end date. */
  resolved_at: number | null;
  neg_risk: boolean;
  image: string | null;
  /** Lower-case question, slug, event slug and title: what a text query matches. */
  text: string;
  /** Position in `MarketIndex.markets` (the search order). */
  rank: number;
}

export interface MarketIndex {
  /** Sorted by volume_24h desc, volume desc, id: the search order. */
  readonly markets: readonly IndexedMarket[];
  readonly byId: ReadonlyMap<string, IndexedMarket>;
  readonly bySlug: ReadonlyMap<string, IndexedMarket>;
  readonly byConditionId: ReadonlyMap<string, IndexedMarket>;
  readonly byEventSlug: ReadonlyMap<string, readonly IndexedMarket[]>;
  readonly byEventId: ReadonlyMap<string, readonly IndexedMarket[]>;
  /** Markets by the trigrams of their text (kept from one load to the next). */
  readonly text: MarketTextIndex;
  /** Unix seconds of the load, or of the last check that found the tables unchanged since. */
  readonly loadedAt: number;
  /** What the tables looked like just before the load (see `tablesFingerprint`). */
  readonly fingerprint: string;
}

function category(stored: string | null): Category | null {
  return stored ? (parseCategory(stored) ?? null) : null;
}

/** Markets read per query while loading: between two pages the event loop serves requests (SQLite reads block it). */
const LOAD_PAGE_ROWS = 250;

function marketRowsAfter(store: Store, after: string) {
  return store.db
    .selectFrom("markets as m")
    .leftJoin("events as e", "e.id", "m.event_id")
    .leftJoin("market_stats as s", "s.condition_id", "m.condition_id")
    .leftJoin("market_resolutions as r", "r.condition_id", "m.condition_id")
    .select([
      "m.id",
      "m.condition_id",
      "m.slug",
      "m.question",
      "m.category",
      "m.event_id",
      "m.group_item_title",
      "m.price_yes",
      "m.price_no",
      "m.volume",
      "m.volume_24h",
      "m.liquidity",
      "m.start_date",
      "m.end_date",
      "m.created_at",
      "m.closed",
      "m.closed_time",
      "m.resolution",
      "m.neg_risk",
      "m.image",
      "e.slug as event_slug",
      "e.title as event_title",
      "e.category as event_category",
      "s.volume as stored_volume",
      "s.volume_24h as stored_volume_24h",
      "s.trades",
      "s.whales_yes",
      "s.whales_no",
      "r.resolved_at",
    ])
    .where("m.id", ">", after)
    .orderBy("m.id")
    .limit(LOAD_PAGE_ROWS)
    .execute();
}

/**
 * The change counters of the tables the index reads: any write (markets sync, resolutions, the Deriver's
 * market_stats) moves it. One small read, instead of reloading (and re-indexing) every market when nothing changed:
 * a reload holds a SQLite process's event loop for about 200 ms in steps of up to 15-20 ms, which showed as the p99
 * of every request meanwhile.
 */
function tablesFingerprint(store: Store): Promise<string> {
  return tableChangesStamp(store, ["markets", "events", "market_resolutions", "market_stats"]);
}

/** The change counters of the markets, events and chain resolutions: the whale book's stamp of its market facts. */
export function marketFactsFingerprint(store: Store): Promise<string> {
  return tableChangesStamp(store, ["markets", "events", "market_resolutions"]);
}

type MarketRow = Awaited<ReturnType<typeof marketRowsAfter>>[number];

function indexedMarket(r: MarketRow): IndexedMarket {
  return {
    id: r.id,
    condition_id: r.condition_id.toLowerCase(),
    slug: r.slug,
    question: r.question,
    category: category(r.category) ?? category(r.event_category),
    event_id: r.event_id,
    event_slug: r.event_slug,
    event_title: r.event_title,
    group_item_title: r.group_item_title,
    price_yes: r.price_yes,
    price_no: r.price_no ?? (r.price_yes === null ? null : 1 - r.price_yes),
    volume: r.volume > 0 ? r.volume : (r.stored_volume ?? 0),
    volume_24h: r.volume_24h > 0 ? r.volume_24h : (r.stored_volume_24h ?? 0),
    liquidity: r.liquidity,
    trades: r.trades ?? 0,
    whales_yes: r.whales_yes ?? 0,
    whales_no: r.whales_no ?? 0,
    start_date: r.start_date,
    end_date: r.end_date,
    created_at: r.created_at,
    closed: r.closed === 1,
    closed_time: r.closed_time,
    resolution: r.resolution,
    resolved_at: r.resolution ? (r.resolved_at ?? r.closed_time ?? r.end_date) : null,
    neg_risk: r.neg_risk === 1,
    image: r.image,
    text: [r.question, r.slug, r.event_slug ?? "", r.event_title ?? ""].join(" ").toLowerCase(),
    rank: 0,
  };
}

/** Markets given to the text index between two turns of the event loop. */
const TEXT_SLICE = 1_000;

/**
 * Loads every market, page by page; `previous` hands over its text index, brought up to date. The new index is
 * built apart from the one that answers meanwhile, with the event loop let run between its steps: a reload (every
 * MARKET_INDEX_REFRESH_SECONDS while the ingest moves the markets' figures) held it 23-73 ms in one block after its
 * reads on the 10,000,000-fill world.
 */
export async function loadMarketIndex(store: Store, now: number, previous?: MarketIndex): Promise<MarketIndex> {
  const fingerprint = await tablesFingerprint(store);
  const markets: IndexedMarket[] = [];
  for await (const page of keysetPages(
    LOAD_PAGE_ROWS,
    (after) => marketRowsAfter(store, after),
    (r) => r.id,
  ))
    for (const row of page) markets.push(indexedMarket(row));
  markets.sort(
    (a, b) => b.volume_24h - a.volume_24h || b.volume - a.volume || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  await yieldToLoop();
  const text = previous?.text ?? new MarketTextIndex();
  for (let rank = 0; rank < markets.length; rank++) {
    const m = markets[rank]!;
    m.rank = rank;
    text.add(m.condition_id, m.text);
    if (rank % TEXT_SLICE === TEXT_SLICE - 1) await yieldToLoop();
  }
  await yieldToLoop();
  return {
    markets,
    byId: new Map(markets.map((m) => [m.id, m])),
    bySlug: new Map(markets.map((m) => [m.slug, m])),
    byConditionId: new Map(markets.map((m) => [m.condition_id, m])),
    byEventSlug: groupBy(markets, (m) => m.event_slug),
    byEventId: groupBy(markets, (m) => m.event_id),
    text,
    loadedAt: now,
    fingerprint,
  };
}

/**
 * The markets whose text may hold every word, in search order: the candidates of the text index, or every market
 * when no word is long enough to narrow them (or they are too many for a sort to pay).
 */
export function textCandidates(index: MarketIndex, words: readonly string[]): readonly IndexedMarket[] {
  const ids = index.text.candidates(words);
  if (ids === undefined || ids.size > index.markets.length / 4) return index.markets;
  const out: IndexedMarket[] = [];
  for (const id of ids) {
    const m = index.byConditionId.get(id);
    if (m) out.push(m);
  }
  return out.sort((a, b) => a.rank - b.rank);
}

function groupBy(
  markets: readonly IndexedMarket[],
  key: (m: IndexedMarket) => string | null,
): Map<string, IndexedMarket[]> {
  const out = new Map<string, IndexedMarket[]>();
  for (const m of markets) {
    const k = key(m);
    if (k === null) continue;
    const list = out.get(k);
    if (list) list.push(m);
    else out.set(k, [m]);
  }
  return out;
}

interface Holder {
  index?: MarketIndex;
  loading?: Promise<MarketIndex>;
}

const holders = new WeakMap<Store, Holder>();

/** The same index if the tables did not change since it was loaded (checked now), else a new load. */
async function refreshed(store: Store, now: number, index: MarketIndex): Promise<MarketIndex> {
  if ((await tablesFingerprint(store)) === index.fingerprint) return { ...index, loadedAt: now };
  return loadMarketIndex(store, now, index);
}

/** Drops the store's index, so that the next call waits for a fresh load (readiness turned on). */
export function forgetMarketIndex(store: Store): void {
  holders.delete(store);
}

/**
 * The store's market index, at most `refreshSeconds` behind the tables when a reload succeeds. Only the first
 * call waits for a load; later ones get the current index while a stale one is checked, and reloaded if the
 * tables changed, in the background (none once the app closes: the index it holds answers).
 */
export async function marketIndex(
  store: Store,
  clock: Clock,
  refreshSeconds: number,
  background: BackgroundWork,
): Promise<MarketIndex> {
  let holder = holders.get(store);
  if (!holder) holders.set(store, (holder = {}));
  const h = holder;
  const now = clock.now();
  if (h.index && (now - h.index.loadedAt < refreshSeconds || (background.closed && !h.loading))) return h.index;
  h.loading ??= background.track(
    "market index",
    (h.index ? refreshed(store, now, h.index) : loadMarketIndex(store, now))
      .then((index) => (h.index = index))
      .finally(() => (h.loading = undefined)),
  );
  if (h.index) {
    h.loading.catch(() => undefined);
    return h.index;
  }
  return h.loading;
}
