/**
 * A wallet's resolved positions (docs/METRICS.md, whale history and backtest): per outcome side for the backtest,
 * paged in a total order (last trade desc, market id, side); per market for the history, newest resolution first.
 * Read from the ledger's `positions` (indexed by wallet) with the market's resolution; a position's P&L is its
 * settled net P&L (`settledNetUsd`), as the closed positions report it.
 */
import { sql } from "kysely";
import { settledNetUsd } from "../../ledger/index.js";
import type { Store } from "../../store/database.js";
import type { Resolution } from "../../store/schema.js";
import { CATEGORY_LABELS } from "../../venue/categories.js";
import { fromMicro } from "../../venue/units.js";
import { loadMarkets, outcomeSide, type MarketInfo } from "../markets/market-facts.js";
import { payoutOf } from "../wallet/wallet-positions.js";

export interface BacktestQuery {
  limit: number;
  offset: number;
  /** Unix seconds, inclusive bounds on the position's last trade; null when open. */
  since: number | null;
  until: number | null;
  /** Markets whose slug starts with this (case-insensitive); "" for all. */
  slugPrefix: string;
}

/** The wallet's positions that bought something in a market with a known resolution. */
function resolvedPositions(store: Store, wallet: string) {
  return store.db
    .selectFrom("positions as p")
    .innerJoin("markets as m", "m.condition_id", "p.condition_id")
    .leftJoin("market_resolutions as r", "r.condition_id", "p.condition_id")
    .select([
      "p.condition_id",
      "p.outcome_index",
      "p.shares",
      "p.avg_price",
      "p.total_bought",
      "p.realized_pnl",
      "p.fees",
      "p.last_ts",
      "m.id as market_id",
      "m.slug",
    ])
    .select((eb) => [
      eb.fn.coalesce("r.resolution", "m.resolution").as("resolution"),
      eb.fn.coalesce("r.resolved_at", "m.closed_time", "m.end_date").as("resolved_at"),
    ])
    .where("p.wallet", "=", wallet)
    .where("p.total_bought", ">", 0)
    .where(sql<boolean>`coalesce(r.resolution, m.resolution) is not null`);
}

type PositionRow = Awaited<ReturnType<ReturnType<typeof resolvedPositions>["execute"]>>[number];

/** One resolved outcome side, in USD: what it cost at the average entry, what it settled for, whether its side won. */
function positionFigures(row: PositionRow) {
  const resolution = row.resolution as Resolution;
  const payout = payoutOf(resolution, row.outcome_index);
  return {
    side: outcomeSide(row.outcome_index),
    resolution,
    avg_entry_price: row.avg_price,
    tokens_bought: fromMicro(row.total_bought),
    net_cost: fromMicro(row.total_bought) * row.avg_price,
    pnl: settledNetUsd(row.realized_pnl, row.fees, row.shares, row.avg_price, payout),
    won: payout === 1,
  };
}

/** What names the market of a position row. */
function marketOf(row: PositionRow, markets: ReadonlyMap<string, MarketInfo>) {
  const market = markets.get(row.condition_id);
  return {
    market_id: row.market_id,
    condition_id: row.condition_id,
    question: market?.question ?? "",
    slug: row.slug,
    category: market?.category ? CATEGORY_LABELS[market.category] : null,
  };
}

export type BacktestPosition = ReturnType<typeof positionFigures> &
  ReturnType<typeof marketOf> & { last_trade_ts: number };

/** What a page of positions adds up to (the page only, as the contract says). */
export function backtestSummary(positions: readonly BacktestPosition[]) {
  const wins = positions.filter((p) => p.won).length;
  const losses = positions.filter((p) => p.resolution !== "50-50" && !p.won).length;
  const netCost = positions.reduce((s, p) => s + p.net_cost, 0);
  const pnl = positions.reduce((s, p) => s + p.pnl, 0);
  return {
    positions: positions.length,
    wins,
    losses,
    win_rate: wins + losses > 0 ? (100 * wins) / (wins + losses) : 0,
    total_net_cost: netCost,
    total_pnl: pnl,
    roi_pct: netCost > 0 ? (100 * pnl) / netCost : null,
  };
}

/** A page of the wallet's resolved outcome sides: last trade desc, then market id, then side (YES first). */
export async function whaleBacktest(store: Store, wallet: string, q: BacktestQuery) {
  let query = resolvedPositions(store, wallet);
  if (q.since !== null) query = query.where("p.last_ts", ">=", q.since);
  if (q.until !== null) query = query.where("p.last_ts", "<=", q.until);
  if (q.slugPrefix) {
    const prefix = q.slugPrefix.toLowerCase();
    query = query.where(sql<boolean>`substr(lower(m.slug), 1, ${prefix.length}) = ${prefix}`);
  }
  const rows = await query
    .orderBy("p.last_ts", "desc")
    .orderBy("m.id")
    .orderBy("p.outcome_index")
    .limit(q.limit + 1)
    .offset(q.offset)
    .execute();
  const page = rows.slice(0, q.limit);
  const markets = await loadMarkets(
    store,
    page.map((r) => r.condition_id),
  );
  const positions: BacktestPosition[] = page.map((row) =>
    Object.assign(marketOf(row, markets), { last_trade_ts: row.last_ts }, positionFigures(row)),
  );
  return {
    positions,
    count: positions.length,
    has_more: rows.length > q.limit,
    offset: q.offset,
    summary: backtestSummary(positions),
  };
}

/**
 * The wallet's resolved markets, newest resolution first (then market id): both sides' cost and settled P&L
 * together, `won` when that P&L is positive (a market win, as the per-market metric counts it), `side` the side it
 * put more into.
 */
export async function resolvedMarketHistory(store: Store, wallet: string, limit: number) {
  const rows = await resolvedPositions(store, wallet).execute();
  const byMarket = new Map<string, { rows: PositionRow[]; figures: ReturnType<typeof positionFigures>[] }>();
  for (const row of rows) {
    const entry = byMarket.get(row.condition_id) ?? { rows: [], figures: [] };
    entry.rows.push(row);
    entry.figures.push(positionFigures(row));
    byMarket.set(row.condition_id, entry);
  }
  const resolvedAt = (r: PositionRow) => (r.resolved_at === null ? null : Number(r.resolved_at));
  const ordered = [...byMarket.values()].sort((a, b) => {
    const ta = resolvedAt(a.rows[0]!) ?? Number.NEGATIVE_INFINITY;
    const tb = resolvedAt(b.rows[0]!) ?? Number.NEGATIVE_INFINITY;
    return tb - ta || (a.rows[0]!.market_id < b.rows[0]!.market_id ? -1 : 1);
  });
  const page = ordered.slice(0, limit);
  const markets = await loadMarkets(
    store,
    page.map((e) => e.rows[0]!.condition_id),
  );
  const history = page.map(({ rows: sides, figures }) => {
    const first = sides[0]!;
    const largest = figures.reduce((a, b) => (b.net_cost > a.net_cost ? b : a));
    const pnl = figures.reduce((s, f) => s + f.pnl, 0);
    return Object.assign(marketOf(first, markets), {
      resolution: figures[0]!.resolution,
      resolved_at: resolvedAt(first),
      side: largest.side,
      sides_traded: figures.length,
      net_cost: figures.reduce((s, f) => s + f.net_cost, 0),
      pnl,
      won: pnl > 0,
      last_trade_ts: Math.max(...sides.map((s) => s.last_ts)),
    });
  });
  return { history, count: history.length, total: byMarket.size };
}
