/**
 * Two reads over the in-memory copy of the smart whales' fills of the last 48 h (whale-fill-window.ts): the whale
 * alerts summary (/api/v2/whale-alerts/summary) and the recent whale trades (/api/v2/whales/recent-trades).
 */
import { changePct } from "../../ledger/index.js";
import type { Category } from "../../venue/categories.js";
import { outcomeSide } from "../markets/market-facts.js";
import { fromMicro } from "../../venue/units.js";
import { alertItem, microFloor } from "./whale-alerts.js";
import { firstAfter, type WhaleFill } from "./whale-fill-window.js";
import type { WhaleReads } from "./whale-reads.js";

interface WindowTotals {
  alerts: number;
  /** Micro-units. */
  volume: number;
}

/**
 * The summary of the last `minutes` against the `minutes` before, counting the smart whales' fills of at least
 * `minUsd`: both windows lie in the 48 h before now (minutes ≤ 1440), the rolling 48 h the copy holds.
 */
export async function whaleAlertsSummary(reads: WhaleReads, minutes: number, minUsd: number) {
  const now = reads.now();
  const [view, index] = await Promise.all([reads.fills.current(), reads.markets()]);
  const split = now - minutes * 60;
  const floor = microFloor(minUsd);
  const current: WindowTotals = { alerts: 0, volume: 0 };
  const previous: WindowTotals = { alerts: 0, volume: 0 };
  const byWallet = new Map<string, WindowTotals>();
  let biggest: WhaleFill | null = null;
  const end = firstAfter(view.fills, now);
  for (let i = firstAfter(view.fills, now - 2 * minutes * 60); i < end; i++) {
    const f = view.fills[i]!;
    if (f.usd < floor) continue;
    if (f.ts <= split) {
      previous.alerts++;
      previous.volume += f.usd;
      continue;
    }
    current.alerts++;
    current.volume += f.usd;
    const mine = byWallet.get(f.wallet) ?? { alerts: 0, volume: 0 };
    mine.alerts++;
    mine.volume += f.usd;
    byWallet.set(f.wallet, mine);
    // Walking oldest first, `>=` keeps the newest of equal fills.
    if (!biggest || f.usd >= biggest.usd) biggest = f;
  }
  let active: [string, WindowTotals] | null = null;
  for (const entry of byWallet) {
    const [wallet, t] = entry;
    if (
      !active ||
      t.alerts > active[1].alerts ||
      (t.alerts === active[1].alerts &&
        (t.volume > active[1].volume || (t.volume === active[1].volume && wallet < active[0])))
    )
      active = entry;
  }
  const market = biggest ? index.byConditionId.get(biggest.condition_id) : undefined;
  const nameOf = (wallet: string) => view.roster.whales.get(wallet)?.name ?? null;
  return {
    window_minutes: minutes,
    total_alerts: current.alerts,
    previous_alerts: previous.alerts,
    alerts_delta_pct: changePct(current.alerts, previous.alerts),
    total_volume: fromMicro(current.volume),
    previous_volume: fromMicro(previous.volume),
    biggest_single: biggest
      ? {
          usd_amount: fromMicro(biggest.usd),
          question: market?.question ?? null,
          market_id: market?.id ?? null,
          condition_id: biggest.condition_id,
          wallet: biggest.wallet,
          name: nameOf(biggest.wallet),
          side: outcomeSide(biggest.outcome_index),
          direction: biggest.side,
          price: biggest.price,
          timestamp: biggest.ts,
          tx_hash: biggest.tx_hash,
        }
      : null,
    most_active_whale: active
      ? {
          name: nameOf(active[0]),
          trades: active[1].alerts,
          wallet: active[0],
          volume_usd: fromMicro(active[1].volume),
        }
      : null,
    min_usd: minUsd,
    as_of: view.asOf,
  };
}

export interface RecentTradesQuery {
  hours: number;
  minSizeUsd: number;
  category: Category | null;
  limit: number;
}

/** The newest smart-whale fills of the last `hours` of at least `minSizeUsd`, newest first. */
export async function recentWhaleTrades(reads: WhaleReads, q: RecentTradesQuery) {
  const now = reads.now();
  const [view, index] = await Promise.all([reads.fills.current(), reads.markets()]);
  const floor = microFloor(q.minSizeUsd);
  const after = now - q.hours * 3_600;
  const out: Array<ReturnType<typeof recentTrade>> = [];
  for (let i = firstAfter(view.fills, now) - 1; i >= 0 && out.length < q.limit; i--) {
    const f = view.fills[i]!;
    if (f.ts <= after) break;
    const market = index.byConditionId.get(f.condition_id);
    if (f.usd < floor || (q.category !== null && market?.category !== q.category)) continue;
    const whale = view.roster.whales.get(f.wallet)!;
    out.push(
      recentTrade(
        alertItem(f, { name: whale.name, isSmart: true, winRate: whale.winRate, totalPnl: whale.totalPnl }, market),
      ),
    );
  }
  return out;
}

/** A recent whale trade: the contract's fields first, then the alert's wallet, time and market. */
function recentTrade(a: ReturnType<typeof alertItem>) {
  return {
    tx_hash: a.tx_hash,
    size_usd: a.usd_amount,
    whale_name: a.name,
    side: a.side,
    price: a.price,
    question: a.question,
    wallet: a.wallet,
    timestamp: a.timestamp,
    direction: a.direction,
    token_amount: a.token_amount,
    market_id: a.market_id,
    condition_id: a.condition_id,
    category: a.category,
    entry_type: a.entry_type,
  };
}
