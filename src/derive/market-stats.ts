/**
 * The market_stats rows (docs/METRICS.md, market rows): the ledger's market totals and whale consensus
 * (`src/ledger/market-totals.ts`, `consensus.ts`), and the volume of the last 24 h read from the store.
 */
import { marketVolume, type MarketTotals, type TeamCounts } from "../ledger/index.js";
import type { Store } from "../store/database.js";
import { inFillWindow } from "../store/fill-spans.js";
import { queryRows } from "../store/raw-sql.js";
import { marketSideFills, type MarketStatsTable } from "../store/schema.js";
import { fromMicro } from "../venue/units.js";

/** Volume (micro-units) per market over the 24 h before `asOf`, read by the fills' id ranges of that time. */
export async function volume24h(store: Store, asOf: number): Promise<Map<string, number>> {
  const after = asOf - 86_400;
  const rows = await inFillWindow(store, after, asOf, (first, last) =>
    queryRows<{ condition_id: string; usd: number }>(
      store.db,
      store.kind,
      `select condition_id, sum(usd) as usd from fills
        where id between ? and ? and ts > ? and ts <= ? and ${marketSideFills()} group by condition_id`,
      [first, last, after, asOf],
    ),
  );
  const volumes = new Map<string, number>();
  for (const r of rows) volumes.set(r.condition_id, (volumes.get(r.condition_id) ?? 0) + Number(r.usd));
  return volumes;
}

/** The market_stats rows of every market with trades or whales. */
export function marketStatsRows(
  totals: MarketTotals,
  last24h: ReadonlyMap<string, number>,
  consensus: ReadonlyMap<string, TeamCounts>,
  computedAt: number,
): MarketStatsTable[] {
  const markets = new Set([...totals.markets(), ...consensus.keys()]);
  return [...markets].map((conditionId) => {
    const t = totals.get(conditionId);
    const c = consensus.get(conditionId);
    return {
      condition_id: conditionId,
      computed_at: computedAt,
      trades: t?.trades ?? 0,
      volume: fromMicro(t ? marketVolume(t) : 0),
      volume_24h: fromMicro(last24h.get(conditionId) ?? 0),
      whales_yes: c?.yes ?? 0,
      whales_no: c?.no ?? 0,
      mint_usd: fromMicro(t?.mint ?? 0),
      merge_usd: fromMicro(t?.merge ?? 0),
      complementary_usd: fromMicro(t?.complementary ?? 0),
      unclassified_usd: fromMicro(t?.unclassified ?? 0),
      mint_trades: t?.mintTrades ?? 0,
      merge_trades: t?.mergeTrades ?? 0,
      complementary_trades: t?.complementaryTrades ?? 0,
      unclassified_trades: t?.unclassifiedTrades ?? 0,
    };
  });
}
