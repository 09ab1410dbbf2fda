/**
 * Who holds a market: the open positions of one market with their wallets' statistics, ranked three ways
 * (docs/METRICS.md, market figures):
 * - Smart Money teams: a Smart Money wallet (never a farmer) is on the YES (NO) team when its net position at
 *   cost is YES (NO) by at least the consensus minimum; its row is its position on that side.
 * - Top Size and Top Shares: every open position of the side, whoever holds it.
 */
import { teamOf, yesPct, type OutcomeSide } from "../../ledger/index.js";
import type { Kysely } from "kysely";
import type { Store, StoreKind } from "../../store/database.js";
import { POSITION_STATUS_CODE, positionsWithStatusCode } from "../../store/position-status.js";
import type { Database } from "../../store/schema.js";
import { fromMicro } from "../../venue/units.js";

export interface HolderRow {
  wallet: string;
  name: string | null;
  side: OutcomeSide;
  /** Shares held on this side. */
  shares: number;
  avg_price: number;
  /** USD at cost: shares * avg_price. */
  cost: number;
  /** Unrealized P&L at the current price: shares * (price - avg_price); null without a price. */
  pnl: number | null;
  pnl_pct: number | null;
  win_rate: number | null;
  global_pnl: number | null;
  is_smart: boolean;
}

export interface Aggregates {
  count: number;
  invested: number;
  avg_wr: number | null;
  agg_pnl: number;
}

export interface Ranking {
  top: HolderRow[];
  /** Over every row of the ranking's population. */
  all: Aggregates;
  /** Over the top rows only. */
  shown: Aggregates;
}

export interface SideRankings {
  smart: Ranking;
  size: Ranking;
  shares: Ranking;
}

export interface MarketHolders {
  yes: SideRankings;
  no: SideRankings;
  whales: { yes: number; no: number; total: number; yes_pct: number | null };
}

interface PositionJoin {
  wallet: string;
  outcome_index: number;
  shares: number;
  avg_price: number;
  name: string | null;
  pseudonym: string | null;
  win_rate: number | null;
  total_pnl: number | null;
  is_smart: number | null;
  is_farmer: number | null;
}

export function aggregates(rows: readonly HolderRow[]): Aggregates {
  const rates = rows.map((r) => r.win_rate).filter((w): w is number => w !== null);
  return {
    count: rows.length,
    invested: rows.reduce((s, r) => s + r.cost, 0),
    avg_wr: rates.length ? rates.reduce((s, w) => s + w, 0) / rates.length : null,
    agg_pnl: rows.reduce((s, r) => s + (r.pnl ?? 0), 0),
  };
}

function ranking(rows: HolderRow[], by: (r: HolderRow) => number, top: number): Ranking {
  const sorted = [...rows].sort((a, b) => by(b) - by(a) || (a.wallet < b.wallet ? -1 : 1));
  const shown = sorted.slice(0, top);
  return { top: shown, all: aggregates(sorted), shown: aggregates(shown) };
}

/**
 * Every open position of a market with its holder's statistics and names (read from migration 0025's index, by the
 * status's code: src/store/position-status.ts).
 */
export function holdersQuery(db: Kysely<Database>, kind: StoreKind, conditionId: string) {
  return db
    .selectFrom(positionsWithStatusCode(kind))
    .leftJoin("wallet_stats as s", "s.wallet", "p.wallet")
    .leftJoin("wallets as w", "w.address", "p.wallet")
    .where("p.condition_id", "=", conditionId)
    .where("p.status_code", "=", POSITION_STATUS_CODE.open)
    .where("p.shares", ">", 0)
    .select([
      "p.wallet",
      "p.outcome_index",
      "p.shares",
      "p.avg_price",
      "w.name",
      "w.pseudonym",
      "s.win_rate",
      "s.total_pnl",
      "s.is_smart",
      "s.is_farmer",
    ]);
}

/** Holders of a market's open positions, ranked; `priceYes` null when the market has no price. */
export async function marketHolders(
  store: Store,
  conditionId: string,
  priceYes: number | null,
  minUsd: number,
  top = 10,
): Promise<MarketHolders> {
  const rows: PositionJoin[] = await holdersQuery(store.db, store.kind, conditionId).execute();
  const bySide: Record<OutcomeSide, HolderRow[]> = { YES: [], NO: [] };
  const net = new Map<string, { yes: HolderRow | null; no: HolderRow | null; smart: boolean }>();
  for (const r of rows) {
    const side: OutcomeSide = r.outcome_index === 0 ? "YES" : "NO";
    const price = priceYes === null ? null : side === "YES" ? priceYes : 1 - priceYes;
    const shares = fromMicro(r.shares);
    const cost = shares * r.avg_price;
    const pnl = price === null ? null : shares * (price - r.avg_price);
    const smart = r.is_smart === 1 && r.is_farmer !== 1;
    const row: HolderRow = {
      wallet: r.wallet,
      name: r.name ?? r.pseudonym,
      side,
      shares,
      avg_price: r.avg_price,
      cost,
      pnl,
      pnl_pct: pnl === null || cost <= 0 ? null : (100 * pnl) / cost,
      win_rate: r.win_rate,
      global_pnl: r.total_pnl,
      is_smart: smart,
    };
    bySide[side].push(row);
    const entry = net.get(r.wallet) ?? { yes: null, no: null, smart };
    if (side === "YES") entry.yes = row;
    else entry.no = row;
    net.set(r.wallet, entry);
  }
  const teams: Record<OutcomeSide, HolderRow[]> = { YES: [], NO: [] };
  for (const entry of net.values()) {
    if (!entry.smart) continue;
    const team = teamOf((entry.yes?.cost ?? 0) - (entry.no?.cost ?? 0), minUsd);
    if (team === "YES") teams.YES.push(entry.yes!);
    else if (team === "NO") teams.NO.push(entry.no!);
  }
  const side = (s: OutcomeSide): SideRankings => ({
    smart: ranking(teams[s], (r) => r.cost, top),
    size: ranking(bySide[s], (r) => r.cost, top),
    shares: ranking(bySide[s], (r) => r.shares, top),
  });
  const yes = teams.YES.length;
  const no = teams.NO.length;
  return { yes: side("YES"), no: side("NO"), whales: { yes, no, total: yes + no, yes_pct: yesPct(yes, no) } };
}
