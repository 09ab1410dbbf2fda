/** Smart-money volume: the 24 h flow per category (/api/analytics/smart-money-flow) and the hourly YES/NO series (/api/analytics/whale-volume-24h). */
import { POSITION_STATUS_CODE, positionsWithStatusCodeSql } from "../../store/position-status.js";
import { queryRows } from "../../store/raw-sql.js";
import { inSmartSlices } from "./smart-slices.js";
import { changePct } from "../../ledger/index.js";
import type { Category } from "../../venue/categories.js";
import type { Store } from "../../store/database.js";
import { categoryVolumes } from "./home.js";
import { loadMarkets } from "../markets/market-facts.js";
import { fromMicro } from "../../venue/units.js";
import { smartSql } from "../../store/smart-wallets.js";

const HOUR = 3_600;

export interface FlowRow {
  category: Category;
  markets: number;
  whales_now: number;
  volume_24h: number;
  volume_prev: number;
  volume_delta_pct: number | null;
  wallets_24h: number;
}

/** (wallet, market) pairs where a smart whale holds an open position. */
async function whaleHoldings(store: Store): Promise<Array<{ wallet: string; condition_id: string }>> {
  return inSmartSlices(store, (inSlice, slice) =>
    queryRows(
      store.db,
      store.kind,
      `select distinct p.wallet, p.condition_id from ${positionsWithStatusCodeSql(store.kind)} p
        join wallet_stats s on s.wallet = p.wallet
        where ${smartSql("s")} and p.status_code = ${POSITION_STATUS_CODE.open} and p.shares > 0 and ${inSlice}`,
      slice,
    ),
  );
}

const addTo = (map: Map<Category, Set<string>>, category: Category, value: string) => {
  let set = map.get(category);
  if (!set) map.set(category, (set = new Set()));
  set.add(value);
};

/**
 * Per category (all six, largest 24 h volume first): the smart whales' own fills over the last 24 h against
 * the 24 h before; `markets` and `wallets_24h` count the markets and whales with fills in the last 24 h;
 * `whales_now` counts the whales holding an open position in the category.
 */
export async function smartMoneyFlow(store: Store, now: number): Promise<FlowRow[]> {
  const [{ byCategory, rows, categoryOf }, holdings] = await Promise.all([
    categoryVolumes(store, now, 24, true),
    whaleHoldings(store),
  ]);
  const held = await loadMarkets(
    store,
    holdings.map((h) => h.condition_id),
  );
  const markets = new Map<Category, Set<string>>();
  const wallets = new Map<Category, Set<string>>();
  const holders = new Map<Category, Set<string>>();
  for (const r of rows) {
    const category = categoryOf(r.condition_id);
    if (!category || !(Number(r.now_usd) > 0)) continue;
    addTo(markets, category, r.condition_id);
    addTo(wallets, category, r.wallet);
  }
  for (const h of holdings) {
    const category = held.get(h.condition_id)?.category;
    if (category) addTo(holders, category, h.wallet);
  }
  return [...byCategory.values()]
    .map((v) => ({
      category: v.category,
      markets: markets.get(v.category)?.size ?? 0,
      whales_now: holders.get(v.category)?.size ?? 0,
      volume_24h: fromMicro(v.now),
      volume_prev: fromMicro(v.prev),
      volume_delta_pct: changePct(v.now, v.prev),
      wallets_24h: wallets.get(v.category)?.size ?? 0,
    }))
    .sort((a, b) => b.volume_24h - a.volume_24h || a.category.localeCompare(b.category));
}

export interface VolumeHour {
  hour: string;
  yes_volume: number;
  no_volume: number;
  trades: number;
}

/** ISO 8601 UTC to the second: 2026-06-01T13:00:00Z. */
export const isoHour = (ts: number): string => new Date(ts * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * The smart whales' fills in each of the 24 clock hours ending with the current one (oldest first; the current
 * hour runs up to `now`): USD on YES tokens, on NO tokens, and the fill count.
 */
export async function whaleVolume24h(store: Store, now: number): Promise<VolumeHour[]> {
  const last = Math.floor(now / HOUR) * HOUR;
  const first = last - 23 * HOUR;
  const rows = await inSmartSlices(store, (inSlice, slice) =>
    queryRows<{ hour: number; yes: number; no: number; trades: number }>(
      store.db,
      store.kind,
      `select (f.ts / ${HOUR}) * ${HOUR} as hour,
              sum(case when f.outcome_index = 0 then f.usd else 0 end) as yes,
              sum(case when f.outcome_index = 0 then 0 else f.usd end) as no,
              count(*) as trades
         from fills f join wallet_stats s on s.wallet = f.wallet
        where f.ts >= ? and f.ts <= ? and ${smartSql("s")} and ${inSlice}
        group by (f.ts / ${HOUR}) * ${HOUR}`,
      [first, now, ...slice],
    ),
  );
  const byHour = new Map<number, { yes: number; no: number; trades: number }>();
  for (const r of rows) {
    const sum = byHour.get(Number(r.hour)) ?? { yes: 0, no: 0, trades: 0 };
    byHour.set(Number(r.hour), {
      yes: sum.yes + Number(r.yes),
      no: sum.no + Number(r.no),
      trades: sum.trades + Number(r.trades),
    });
  }
  return Array.from({ length: 24 }, (_, i) => {
    const hour = first + i * HOUR;
    const r = byHour.get(hour);
    return {
      hour: isoHour(hour),
      yes_volume: fromMicro(Number(r?.yes ?? 0)),
      no_volume: fromMicro(Number(r?.no ?? 0)),
      trades: Number(r?.trades ?? 0),
    };
  });
}
