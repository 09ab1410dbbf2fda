/**
 * The home page's figures: the biggest recent smart-whale trades, the hottest active markets with a price
 * sparkline, the week's best smart whales by realized P&L, and the 24 h volume rotation between categories.
 */
import { changePct, type OutcomeSide, SECONDS_PER_DAY } from "../../ledger/index.js";
import { POSITION_STATUS_CODE, positionsWithStatusCodeSql } from "../../store/position-status.js";
import { inTimeSlices, queryRows } from "../../store/raw-sql.js";
import { CATEGORIES, type Category } from "../../venue/categories.js";
import type { Store } from "../../store/database.js";
import { inFillWindow } from "../../store/fill-spans.js";
import { marketFillBefore } from "../../store/fills.js";
import { marketSideFills, type Direction, type EntryType } from "../../store/schema.js";
import { loadMarkets, outcomeSide } from "../markets/market-facts.js";
import { loadNames } from "../wallet/display-names.js";
import { fromMicro } from "../../venue/units.js";
import { smartSql } from "../../store/smart-wallets.js";
import { inSmartSlices } from "./smart-slices.js";

export const WHALE_MOVES = 8;
export const HOT_MARKETS = 5;
export const TOP_WHALES = 5;
const HOUR = 3_600;

export interface WhaleMove {
  wallet: string;
  name: string | null;
  market_id: string | null;
  condition_id: string;
  question: string | null;
  category: Category | null;
  outcome: OutcomeSide;
  side: Direction;
  price: number;
  usd: number;
  ts: number;
  tx_hash: string;
  entry_type: EntryType | null;
}

type WhaleMoveRow = Pick<
  WhaleMove,
  "wallet" | "condition_id" | "side" | "price" | "usd" | "ts" | "tx_hash" | "entry_type"
> & {
  outcome_index: number;
  id: number;
};

export async function whaleMoves(store: Store, now: number, minUsd: number, hours: number): Promise<WhaleMove[]> {
  const slices = await inSmartSlices(store, (inSlice, slice) =>
    queryRows<WhaleMoveRow>(
      store.db,
      store.kind,
      `select f.wallet, f.condition_id, f.outcome_index, f.side, f.price, f.usd, f.ts, f.tx_hash, f.entry_type, f.id
       from fills f join wallet_stats s on s.wallet = f.wallet
      where f.ts > ? and f.ts <= ? and f.usd >= ? and ${smartSql("s")} and ${inSlice}
      order by f.usd desc, f.ts desc, f.id desc limit ${WHALE_MOVES}`,
      [now - hours * HOUR, now, Math.ceil(minUsd * 1e6), ...slice],
    ),
  );
  // Each slice's largest; the largest of all are among them.
  const rows = slices
    .sort((a, b) => Number(b.usd) - Number(a.usd) || Number(b.ts) - Number(a.ts) || Number(b.id) - Number(a.id))
    .slice(0, WHALE_MOVES);
  const [markets, names] = await Promise.all([
    loadMarkets(
      store,
      rows.map((r) => r.condition_id),
    ),
    loadNames(
      store,
      rows.map((r) => r.wallet),
    ),
  ]);
  return rows.map((r) => {
    const m = markets.get(r.condition_id);
    return {
      wallet: r.wallet,
      name: names.get(r.wallet) ?? null,
      market_id: m?.market_id ?? null,
      condition_id: r.condition_id,
      question: m?.question ?? null,
      category: m?.category ?? null,
      outcome: outcomeSide(r.outcome_index),
      side: r.side,
      price: r.price,
      usd: fromMicro(r.usd),
      ts: r.ts,
      tx_hash: r.tx_hash,
      entry_type: r.entry_type,
    };
  });
}

/** A home page hot market: an open market among the largest by stored 24 h volume. */
export interface HotMarketByVolume {
  market_id: string;
  condition_id: string;
  question: string;
  slug: string;
  category: Category | null;
  price_yes: number | null;
  volume_24h: number;
  whales_yes: number;
  whales_no: number;
  sparkline: number[];
}

/** YES price at the end of each of the 24 hours up to `now`: the last fill's price, carried forward. */
async function hourlyYesPrices(
  store: Store,
  conditionId: string,
  now: number,
  fallback: number | null,
): Promise<number[]> {
  const start = now - 24 * HOUR;
  const yes = (r: { outcome_index: number; price: number }) => (r.outcome_index === 0 ? r.price : 1 - r.price);
  const [before, inside] = await Promise.all([
    marketFillBefore(store, conditionId, start + 1), // at or before the window's start
    store.db
      .selectFrom("fills")
      .select(["outcome_index", "price", "ts"])
      .where("condition_id", "=", conditionId)
      .where("ts", ">", start)
      .where("ts", "<=", now)
      .orderBy("ts")
      .orderBy("id")
      .execute(),
  ]);
  let last = before ? yes(before) : inside[0] ? yes(inside[0]) : (fallback ?? 0.5);
  const out: number[] = [];
  let i = 0;
  for (let h = 1; h <= 24; h++) {
    const end = start + h * HOUR;
    while (i < inside.length && inside[i]!.ts <= end) last = yes(inside[i++]!);
    out.push(Math.round(last * 1e6) / 1e6);
  }
  return out;
}

export async function hotMarketsByVolume(store: Store, now: number): Promise<HotMarketByVolume[]> {
  const rows = await store.db
    .selectFrom("market_stats as s")
    .innerJoin("markets as m", "m.condition_id", "s.condition_id")
    .select(["s.condition_id", "s.volume_24h", "s.whales_yes", "s.whales_no"])
    .where("m.closed", "=", 0)
    .where("s.volume_24h", ">", 0)
    .orderBy("s.volume_24h", "desc")
    .orderBy("s.condition_id")
    .limit(HOT_MARKETS)
    .execute();
  const markets = await loadMarkets(
    store,
    rows.map((r) => r.condition_id),
  );
  return Promise.all(
    rows.map(async (r) => {
      const m = markets.get(r.condition_id)!;
      return {
        market_id: m.market_id,
        condition_id: r.condition_id,
        question: m.question,
        slug: m.slug,
        category: m.category,
        price_yes: m.price_yes,
        volume_24h: r.volume_24h,
        whales_yes: r.whales_yes,
        whales_no: r.whales_no,
        sparkline: await hourlyYesPrices(store, r.condition_id, now, m.price_yes),
      };
    }),
  );
}

export interface TopWhale {
  wallet: string;
  name: string | null;
  realized_pnl_7d: number;
  closed_positions_7d: number;
  total_pnl: number;
  win_rate: number;
  profit_factor: number;
}

/** Smart whales (never farmers) by the net realized P&L of the positions they closed in the last `days`. */
export async function topWhales(store: Store, now: number, days: number): Promise<TopWhale[]> {
  const slices = await inSmartSlices(store, (inSlice, slice) =>
    queryRows<{
      wallet: string;
      pnl: number;
      closed: number;
      total_pnl: number;
      win_rate: number;
      profit_factor: number;
    }>(
      store.db,
      store.kind,
      `select p.wallet, sum(p.realized_pnl - p.fees) as pnl, count(*) as closed, max(s.total_pnl) as total_pnl, max(s.win_rate) as win_rate, max(s.profit_factor) as profit_factor
       from ${positionsWithStatusCodeSql(store.kind)} p join wallet_stats s on s.wallet = p.wallet
      where ${smartSql("s")} and p.status_code = ${POSITION_STATUS_CODE.closed} and p.closed_ts > ? and p.closed_ts <= ?
        and ${inSlice}
      group by p.wallet order by pnl desc, p.wallet limit ${TOP_WHALES}`,
      [now - days * SECONDS_PER_DAY, now, ...slice],
    ),
  );
  const rows = slices
    .sort((a, b) => Number(b.pnl) - Number(a.pnl) || (a.wallet < b.wallet ? -1 : a.wallet > b.wallet ? 1 : 0))
    .slice(0, TOP_WHALES);
  const names = await loadNames(
    store,
    rows.map((r) => r.wallet),
  );
  return rows.map((r) => ({
    wallet: r.wallet,
    name: names.get(r.wallet) ?? null,
    realized_pnl_7d: fromMicro(Number(r.pnl)),
    closed_positions_7d: Number(r.closed),
    total_pnl: r.total_pnl,
    win_rate: r.win_rate,
    profit_factor: r.profit_factor,
  }));
}

export interface CategoryVolumes {
  category: Category;
  /** Micro-units. */
  now: number;
  prev: number;
}

export interface VolumeRow {
  condition_id: string;
  /** The smart wallet, or "" when volumes are per market only. */
  wallet: string;
  now_usd: number;
  prev_usd: number;
}

/** The slices' rows summed per (market, wallet). */
function sumByMarketAndWallet(slices: readonly VolumeRow[]): VolumeRow[] {
  const sums = new Map<string, VolumeRow>();
  for (const r of slices) {
    const key = `${r.condition_id}|${r.wallet}`;
    const sum = sums.get(key);
    if (!sum) sums.set(key, { ...r, now_usd: Number(r.now_usd), prev_usd: Number(r.prev_usd) });
    else {
      sum.now_usd += Number(r.now_usd);
      sum.prev_usd += Number(r.prev_usd);
    }
  }
  return [...sums.values()];
}

/**
 * Volume (micro-units) over the `hours` before `now` and the `hours` before that, per category. `smart`: the
 * fills of smart whales (either side of a match), per market and wallet; otherwise the market volume (taker
 * sides), per market. Markets whose category maps to none of the six count nowhere.
 */
export async function categoryVolumes(
  store: Store,
  now: number,
  hours: number,
  smart: boolean,
): Promise<{
  byCategory: Map<Category, CategoryVolumes>;
  rows: VolumeRow[];
  categoryOf: (conditionId: string) => Category | null;
}> {
  const mid = now - hours * HOUR;
  const volumes = `sum(case when f.ts > ? then f.usd else 0 end) as now_usd, sum(case when f.ts <= ? then f.usd else 0 end) as prev_usd`;
  // The smart whales' fills are read from the whales outwards (a slice of whales at a time), every market side's
  // over the time range (an hour at a time).
  const slices = smart
    ? await inSmartSlices(store, (inSlice, slice) =>
        queryRows<VolumeRow>(
          store.db,
          store.kind,
          `select f.condition_id, f.wallet, ${volumes}
             from fills f join wallet_stats s on s.wallet = f.wallet
            where f.ts > ? and f.ts <= ? and ${smartSql("s")} and ${inSlice}
            group by f.condition_id, f.wallet`,
          [mid, mid, mid - hours * HOUR, now, ...slice],
        ),
      )
    : await inTimeSlices(mid - hours * HOUR, now, HOUR, (after, upTo) =>
        inFillWindow(store, after, upTo, (first, last) =>
          queryRows<VolumeRow>(
            store.db,
            store.kind,
            `select f.condition_id, '' as wallet, ${volumes}
               from fills f where f.id between ? and ? and f.ts > ? and f.ts <= ? and ${marketSideFills("f")}
              group by f.condition_id`,
            [mid, mid, first, last, after, upTo],
          ),
        ),
      );
  const rows = sumByMarketAndWallet(slices);
  const markets = await loadMarkets(
    store,
    rows.map((r) => r.condition_id),
  );
  const categoryOf = (conditionId: string) => markets.get(conditionId)?.category ?? null;
  const byCategory = new Map<Category, CategoryVolumes>(CATEGORIES.map((c) => [c, { category: c, now: 0, prev: 0 }]));
  for (const r of rows) {
    const category = categoryOf(r.condition_id);
    if (!category) continue;
    const v = byCategory.get(category)!;
    v.now += Number(r.now_usd);
    v.prev += Number(r.prev_usd);
  }
  return { byCategory, rows, categoryOf };
}

export interface CategoryRotation {
  category: Category;
  volume_24h: number;
  volume_prev_24h: number;
  delta_usd: number;
  delta_pct: number | null;
  share_pct: number;
}

export async function categoryRotation(store: Store, now: number): Promise<CategoryRotation[]> {
  const { byCategory } = await categoryVolumes(store, now, 24, false);
  const total = [...byCategory.values()].reduce((sum, v) => sum + v.now, 0);
  return [...byCategory.values()]
    .map((v) => ({
      category: v.category,
      volume_24h: fromMicro(v.now),
      volume_prev_24h: fromMicro(v.prev),
      delta_usd: fromMicro(v.now - v.prev),
      delta_pct: changePct(v.now, v.prev),
      share_pct: total > 0 ? (100 * v.now) / total : 0,
    }))
    .sort((a, b) => b.delta_usd - a.delta_usd || a.category.localeCompare(b.category));
}
