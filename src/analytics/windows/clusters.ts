/**
 * Whale clusters (/api/analytics/whale-clusters): markets where several smart whales stand on the same side
 * now. A whale stands on a side when its net open position there (YES cost minus NO cost, at average entry)
 * is at least CONSENSUS_MIN_USD; a cluster needs CLUSTER_MIN_WHALES of them on one side.
 */
import { teamOf, type OutcomeSide } from "../../ledger/index.js";
import { POSITION_STATUS_CODE, positionsWithStatusCodeSql } from "../../store/position-status.js";
import { queryRows } from "../../store/raw-sql.js";
import type { Category } from "../../venue/categories.js";
import type { Store } from "../../store/database.js";
import { loadMarkets } from "../markets/market-facts.js";
import { loadNames } from "../wallet/display-names.js";
import { fromMicro } from "../../venue/units.js";
import { smartSql } from "../../store/smart-wallets.js";
import { inSmartSlices } from "./smart-slices.js";

export interface WhaleCluster {
  market_id: string | null;
  condition_id: string;
  question: string | null;
  category: Category | null;
  side: OutcomeSide;
  whale_count: number;
  combined_usd: number;
  wallets: Array<{ wallet: string; name: string | null }>;
}

export async function whaleClusters(
  store: Store,
  minWhales: number,
  minUsd: number,
  limit: number,
): Promise<WhaleCluster[]> {
  const rows = await inSmartSlices(store, (inSlice, slice) =>
    queryRows<{ wallet: string; condition_id: string; yes_cost: number; no_cost: number }>(
      store.db,
      store.kind,
      `select p.wallet, p.condition_id,
              sum(case when p.outcome_index = 0 then p.shares * p.avg_price else 0 end) as yes_cost,
              sum(case when p.outcome_index = 0 then 0 else p.shares * p.avg_price end) as no_cost
         from ${positionsWithStatusCodeSql(store.kind)} p join wallet_stats s on s.wallet = p.wallet
        where ${smartSql("s")} and p.status_code = ${POSITION_STATUS_CODE.open} and p.shares > 0 and ${inSlice}
        group by p.wallet, p.condition_id`,
      slice,
    ),
  );
  const groups = new Map<
    string,
    { condition_id: string; side: OutcomeSide; members: Array<{ wallet: string; usd: number }> }
  >();
  for (const r of rows) {
    const net = fromMicro(Number(r.yes_cost) - Number(r.no_cost));
    const side = teamOf(net, minUsd);
    if (side === null) continue;
    const key = `${r.condition_id}:${side}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { condition_id: r.condition_id, side, members: [] }));
    g.members.push({ wallet: r.wallet, usd: Math.abs(net) });
  }
  const clusters = [...groups.values()]
    .filter((g) => g.members.length >= minWhales)
    .map((g) => ({ ...g, combined: g.members.reduce((sum, m) => sum + m.usd, 0) }))
    .sort(
      (a, b) =>
        b.members.length - a.members.length || b.combined - a.combined || a.condition_id.localeCompare(b.condition_id),
    )
    .slice(0, limit);
  const [markets, names] = await Promise.all([
    loadMarkets(
      store,
      clusters.map((c) => c.condition_id),
    ),
    loadNames(
      store,
      clusters.flatMap((c) => c.members.map((m) => m.wallet)),
    ),
  ]);
  return clusters.map((c) => {
    const m = markets.get(c.condition_id);
    return {
      market_id: m?.market_id ?? null,
      condition_id: c.condition_id,
      question: m?.question ?? null,
      category: m?.category ?? null,
      side: c.side,
      whale_count: c.members.length,
      combined_usd: c.combined,
      wallets: c.members
        .sort((a, b) => b.usd - a.usd || a.wallet.localeCompare(b.wallet))
        .map((w) => ({ wallet: w.wallet, name: names.get(w.wallet) ?? null })),
    };
  });
}
