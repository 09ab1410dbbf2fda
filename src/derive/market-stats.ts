/**
 * Market figures: trades and volume as the venue counts them (one trade per match, at the taker's notional),
 * split by how the match settled, volume over the last 24 h, and the whale consensus of docs/METRICS.md (Smart
 * Money wallets whose net position at cost is at least the consensus minimum on one side).
 */
import { MICRO, fromMicro, type LedgerState, type WalletBook } from "../ledger/index.js";
import type { Store } from "../store/database.js";
import type { EntryType, MarketStatsTable } from "../store/schema.js";
import { queryRows } from "./raw-sql.js";

interface Totals {
  trades: number;
  /** Micro-units, by settlement. */
  mint: number;
  merge: number;
  complementary: number;
  unclassified: number;
}

/**
 * A fill counts toward its market when it is the taker's side of its match. Fills of unknown role (Data API
 * rows, which list makers and takers alike) all count: such a store overstates market trades and volume.
 */
export function countsTowardMarket(role: "maker" | "taker" | null): boolean {
  return role !== "maker";
}

/** `countsTowardMarket` as an SQL condition. */
const COUNTS_TOWARD_MARKET = "(role is null or role <> 'maker')";

/** Per market, the trades and volume of every stored fill so far; fills are added once each, as they come. */
export class MarketTotals {
  private readonly byMarket = new Map<string, Totals>();

  add(conditionId: string, role: "maker" | "taker" | null, entryType: EntryType | null, usd: number): void {
    if (!countsTowardMarket(role)) return;
    let t = this.byMarket.get(conditionId);
    if (!t) this.byMarket.set(conditionId, (t = { trades: 0, mint: 0, merge: 0, complementary: 0, unclassified: 0 }));
    t.trades++;
    if (entryType === "MINT") t.mint += usd;
    else if (entryType === "MERGE") t.merge += usd;
    else if (entryType === "COMPLEMENTARY") t.complementary += usd;
    else t.unclassified += usd;
  }

  markets(): IterableIterator<string> {
    return this.byMarket.keys();
  }

  get(conditionId: string): Readonly<Totals> | undefined {
    return this.byMarket.get(conditionId);
  }
}

/** Volume (micro-units) per market over the 24 h before `asOf`, by the store's time index. */
export async function volume24h(store: Store, asOf: number): Promise<Map<string, number>> {
  const rows = await queryRows<{ condition_id: string; usd: number }>(
    store.db,
    store.kind,
    `select condition_id, sum(usd) as usd from fills where ts > ? and ts <= ? and ${COUNTS_TOWARD_MARKET} group by condition_id`,
    [asOf - 86_400, asOf],
  );
  return new Map(rows.map((r) => [r.condition_id, Number(r.usd)]));
}

export interface Consensus {
  yes: number;
  no: number;
}

/** Whales on each side of each market, from the open positions of the given Smart Money wallets. */
export function whaleConsensus(state: LedgerState, whales: Iterable<WalletBook>, minUsd: number): Map<string, Consensus> {
  const out = new Map<string, Consensus>();
  for (const book of whales) {
    const netByMarket = new Map<number, number>();
    for (const p of state.positionIndices(book)) {
      const position = state.positions.read(p);
      if (!position.open) continue;
      const cost = (position.shares * position.avgPrice) / (MICRO * MICRO);
      const net = netByMarket.get(position.conditionIndex) ?? 0;
      netByMarket.set(position.conditionIndex, position.outcomeIndex === 0 ? net + cost : net - cost);
    }
    for (const [condition, net] of netByMarket) {
      if (Math.abs(net) < minUsd) continue;
      const conditionId = state.markets.conditionIds[condition]!;
      let c = out.get(conditionId);
      if (!c) out.set(conditionId, (c = { yes: 0, no: 0 }));
      if (net > 0) c.yes++;
      else c.no++;
    }
  }
  return out;
}

/** The market_stats rows of every market with trades or whales. */
export function marketStatsRows(totals: MarketTotals, last24h: ReadonlyMap<string, number>, consensus: ReadonlyMap<string, Consensus>, computedAt: number): MarketStatsTable[] {
  const markets = new Set([...totals.markets(), ...consensus.keys()]);
  return [...markets].map((conditionId) => {
    const t = totals.get(conditionId);
    const c = consensus.get(conditionId);
    const volume = t ? t.mint + t.merge + t.complementary + t.unclassified : 0;
    return {
      condition_id: conditionId,
      computed_at: computedAt,
      trades: t?.trades ?? 0,
      volume: fromMicro(volume),
      volume_24h: fromMicro(last24h.get(conditionId) ?? 0),
      whales_yes: c?.yes ?? 0,
      whales_no: c?.no ?? 0,
      mint_usd: fromMicro(t?.mint ?? 0),
      merge_usd: fromMicro(t?.merge ?? 0),
      complementary_usd: fromMicro(t?.complementary ?? 0),
      unclassified_usd: fromMicro(t?.unclassified ?? 0),
    };
  });
}
