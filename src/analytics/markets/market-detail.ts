/**
 * One market: finding it by any of its ids, the lookup record, its event group, recent smart-whale trades and a
 * daily YES price history from fills, the settlement breakdown of its volume, and its URL on the venue.
 */
import type { Store, StoreKind } from "../../store/database.js";
import { FILLS_JOINED, fillSelectSql, textPerStore } from "../../store/fill-layout.js";
import { idOf } from "../../store/id-keyed.js";
import { readMarketDailyPrices } from "../../store/market-daily-prices.js";
import { firstRow, queryRows } from "../../store/raw-sql.js";
import { SMART_WALLET_IDS } from "../../store/smart-wallets.js";
import type { Direction, EntryType, FillsTable } from "../../store/schema.js";
import { fromMicro } from "../../venue/units.js";
import type { IndexedMarket, MarketIndex } from "./market-index.js";
import { marketRow } from "./markets-search.js";

const CONDITION_ID = /^0x[0-9a-fA-F]{64}$/;
const NUMERIC_ID = /^[0-9]{1,20}$/;

/**
 * A market by the venue's numeric market id, its condition id (0x and 64 hex digits, any case) or its slug;
 * undefined when unknown or malformed.
 */
export function findMarket(index: MarketIndex, marketId: string): IndexedMarket | undefined {
  if (NUMERIC_ID.test(marketId)) return index.byId.get(marketId);
  if (CONDITION_ID.test(marketId)) return index.byConditionId.get(marketId.toLowerCase());
  return index.bySlug.get(marketId);
}

export function lookupRecord(m: IndexedMarket) {
  return {
    id: m.id,
    condition_id: m.condition_id,
    slug: m.slug,
    question: m.question,
    prices: { yes: m.price_yes, no: m.price_no },
    closed: m.closed,
    end_date: m.end_date,
    image_url: m.image,
    event_id: m.event_id,
    event_slug: m.event_slug,
    neg_risk: m.neg_risk,
    is_negrisk: m.neg_risk,
  };
}

/** The venue's page of a market: under its event when it has one. */
export function venueUrl(base: string, m: IndexedMarket): string {
  const root = base.replace(/\/+$/, "");
  const slug = encodeURIComponent(m.slug);
  return m.event_slug ? `${root}/event/${encodeURIComponent(m.event_slug)}/${slug}` : `${root}/market/${slug}`;
}

/** The markets of the same event (the market itself included), by YES price desc. */
export function eventGroup(index: MarketIndex, m: IndexedMarket, now: number) {
  if (!m.event_id) return null;
  const markets = (index.byEventId.get(m.event_id) ?? [])
    .map((sibling) =>
      Object.assign(marketRow(sibling, now), {
        group_item_title: sibling.group_item_title,
        resolution: sibling.resolution,
      }),
    )
    .sort((a, b) => (b.price_yes ?? -1) - (a.price_yes ?? -1) || (a.id < b.id ? -1 : 1));
  return { event_id: m.event_id, event_slug: m.event_slug, title: m.event_title, neg_risk: m.neg_risk, markets };
}

export interface WhaleTrade {
  timestamp: number;
  wallet: string;
  name: string | null;
  direction: Direction;
  side: "YES" | "NO";
  price: number;
  shares: number;
  usd_amount: number;
  entry_type: EntryType | null;
  role: "maker" | "taker" | null;
  tx_hash: string;
}

/**
 * `fill_rows` by the market's id (`idOf`), walked newest first until the page holds `limit` fills of Smart Money
 * wallets (`smart_wallet_ids`, src/store/smart-wallets.ts). On SQLite the walk is of `fills_condition_ts_wallet`,
 * which holds each fill's wallet, so only the page's own fills are read from the table. Through the view,
 * PostgreSQL read every fill of every Smart Money wallet and then kept the market's (743 ms against 42 ms for a busy
 * market of the 1,000,000-fill world).
 */
const whaleTradesSql = (kind: StoreKind) => `select
  ${fillSelectSql(kind, ["ts", "wallet", "side", "outcome_index", "price", "size", "usd", "entry_type", "role", "tx_hash"])},
  wn.name, wn.pseudonym
  from ${FILLS_JOINED} join ${SMART_WALLET_IDS} s on s.wallet_id = f.wallet_id
  left join wallets wn on wn.address = w.address
  where f.condition_ref = ${idOf("condition_id")} order by f.ts desc, f.id desc limit ?`;
const WHALE_TRADES = textPerStore(whaleTradesSql);

type WhaleTradeRow = Pick<
  FillsTable,
  "wallet" | "side" | "outcome_index" | "price" | "size" | "usd" | "entry_type" | "role" | "tx_hash"
> & { ts: number; name: string | null; pseudonym: string | null };

/** The newest fills of Smart Money wallets in a market. */
export async function recentWhaleTrades(store: Store, conditionId: string, limit: number): Promise<WhaleTrade[]> {
  const rows = await queryRows<WhaleTradeRow>(store.db, store.kind, WHALE_TRADES[store.kind], [conditionId, limit]);
  return rows.map((r) => ({
    timestamp: r.ts,
    wallet: r.wallet,
    name: r.name ?? r.pseudonym,
    direction: r.side,
    side: r.outcome_index === 0 ? "YES" : "NO",
    price: r.price,
    shares: fromMicro(r.size),
    usd_amount: fromMicro(r.usd),
    entry_type: r.entry_type,
    role: r.role,
    tx_hash: r.tx_hash,
  }));
}

export interface PricePoint {
  /** Unix seconds of the UTC day's start. */
  t: number;
  date: string;
  /** Share-weighted average YES price of the day's trades (a NO trade at p counts as YES at 1 - p). */
  vwap_yes: number;
  /** YES price of the day's last trade. */
  close_yes: number;
  trades: number;
  volume: number;
}

/**
 * Daily YES price history of a market from its fills, as the Deriver sums them per UTC day (`market_daily_prices`).
 * Only each match's taker side counts (maker fills of one match repeat it), as for the market's trade count; fills
 * of unknown role all count.
 */
export async function dailyPriceHistory(store: Store, conditionId: string): Promise<PricePoint[]> {
  const days = await readMarketDailyPrices(store.db, store.kind, conditionId);
  return days.map((d) => ({
    t: d.day,
    date: new Date(d.day * 1000).toISOString().slice(0, 10),
    vwap_yes: d.shares > 0 ? d.weighted / d.shares : d.close_yes,
    close_yes: d.close_yes,
    trades: d.trades,
    volume: fromMicro(d.usd),
  }));
}

const SETTLEMENTS = [
  ["MINT", "mint"],
  ["MERGE", "merge"],
  ["COMPLEMENTARY", "complementary"],
  ["UNCLASSIFIED", "unclassified"],
] as const;

type SettlementColumns = Record<`${(typeof SETTLEMENTS)[number][1]}_${"usd" | "trades"}`, number>;

const MARKET_SETTLEMENTS = `select computed_at, ${SETTLEMENTS.map(([, c]) => `${c}_usd, ${c}_trades`).join(", ")}
  from market_stats where condition_id = ?`;

/**
 * Trades and USD of a market by settlement, as the Deriver counts them into market_stats (taker sides, fills of
 * unknown role too), one row read; `as_of`: when it wrote them (null: the market has no trades).
 */
export async function settlementBreakdown(store: Store, conditionId: string) {
  const row = await firstRow<SettlementColumns & { computed_at: number }>(store.db, store.kind, MARKET_SETTLEMENTS, [
    conditionId,
  ]);
  const by = SETTLEMENTS.map(([key, column]) => ({
    key,
    usd: Number(row?.[`${column}_usd`] ?? 0),
    count: Number(row?.[`${column}_trades`] ?? 0),
  }));
  const totalUsd = by.reduce((sum, v) => sum + v.usd, 0);
  const totalTrades = by.reduce((sum, v) => sum + v.count, 0);
  const breakdown = Object.fromEntries(
    by.map(({ key, usd, count }) => [
      key,
      {
        usd,
        count,
        share_pct: totalUsd > 0 ? (100 * usd) / totalUsd : 0,
        count_share_pct: totalTrades > 0 ? (100 * count) / totalTrades : 0,
      },
    ]),
  ) as Record<
    (typeof SETTLEMENTS)[number][0],
    { usd: number; count: number; share_pct: number; count_share_pct: number }
  >;
  return {
    total_usd: totalUsd,
    total_count: totalTrades,
    breakdown,
    as_of: row ? Number(row.computed_at) : null,
  };
}
