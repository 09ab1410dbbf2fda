/**
 * A wallet's positions from the ledger's `positions` table (indexed by wallet and status: filtered on the status's
 * stored code, src/store/position-status.ts), joined with market metadata: open positions (with the venue's synced
 * prices as an overlay when fresh), closed positions with their settled P&L, and resolved winners not yet redeemed.
 */
import { sql, type SelectQueryBuilder } from "kysely";
import { resolutionPayoutYes, settledNetUsd, sidePayout } from "../../ledger/index.js";
import type { Store } from "../../store/database.js";
import { POSITION_STATUS_CODE, positionsWithStatusCode } from "../../store/position-status.js";
import type { Resolution } from "../../store/schema.js";
import { MICRO, fromMicro } from "../../venue/units.js";

/** Payout of one outcome token of a resolved market (0..1). */
export function payoutOf(resolution: Resolution, outcomeIndex: number): number {
  return fromMicro(sidePayout(resolutionPayoutYes(resolution), outcomeIndex));
}

/**
 * A wallet's positions with their market's resolution (the chain's, else the venue's; null while unresolved), `m`
 * and `r` joined for the caller's further columns and filters.
 */
export function positionsWithResolution(store: Store, wallet: string) {
  return store.db
    .selectFrom(positionsWithStatusCode(store.kind))
    .leftJoin("markets as m", "m.condition_id", "p.condition_id")
    .leftJoin("market_resolutions as r", "r.condition_id", "p.condition_id")
    .select([
      "p.token_id",
      "p.condition_id",
      "p.outcome_index",
      "p.shares",
      "p.avg_price",
      "p.total_bought",
      "p.realized_pnl",
      "p.fees",
      "p.first_ts",
      "p.last_ts",
      "p.closed_ts",
      "p.status",
    ])
    .select((eb) => eb.fn.coalesce("r.resolution", "m.resolution").as("resolution"))
    .where("p.wallet", "=", wallet);
}

function positionsWithMarkets(store: Store, wallet: string) {
  return positionsWithResolution(store, wallet)
    .leftJoin("market_tokens as t", "t.token_id", "p.token_id")
    .select([
      "m.id as market_id",
      "m.question",
      "m.slug",
      "m.category",
      "m.price_yes",
      "m.price_no",
      "t.outcome",
      "r.resolved_at",
      "m.closed_time",
    ]);
}

type PositionJoinRow = Awaited<ReturnType<ReturnType<typeof positionsWithMarkets>["execute"]>>[number];

/** A position's market fields, which each kind of position extends (with Object.assign: see docs/decisions.md, "Object spreads in per-row code"). */
function marketFields(row: PositionJoinRow) {
  return {
    question: row.question ?? "",
    slug: row.slug ?? "",
    outcome: row.outcome ?? (row.outcome_index === 0 ? "Yes" : "No"),
    category: row.category ?? "",
    condition_id: row.condition_id,
    market_id: row.market_id ?? "",
    token_id: row.token_id,
    side: row.outcome_index === 0 ? ("token1" as const) : ("token2" as const),
  };
}

function marketPrice(row: PositionJoinRow): number | null {
  if (row.price_yes === null) return null;
  return row.outcome_index === 0 ? row.price_yes : (row.price_no ?? 1 - row.price_yes);
}

export interface OpenPositions {
  positions: OpenPosition[];
  /** `merged`: the venue's synced prices overlaid on the ledger; `cache`: the ledger with market prices only. */
  source: "merged" | "cache";
  is_estimated: boolean;
}

export type OpenPosition = ReturnType<typeof openPosition>;

function openPosition(row: PositionJoinRow, overlayPrice: number | undefined) {
  const tokens = row.shares / MICRO;
  const price = overlayPrice ?? marketPrice(row) ?? row.avg_price;
  const currentValue = tokens * price;
  const initialValue = tokens * row.avg_price;
  const pnl = currentValue - initialValue;
  return Object.assign(marketFields(row), {
    tokens,
    avg_entry: row.avg_price,
    current_price: price,
    current_value: currentValue,
    cost: (row.total_bought / MICRO) * row.avg_price,
    initial_value: initialValue,
    pnl,
    pnl_pct: initialValue > 0 ? (100 * pnl) / initialValue : 0,
    last_trade_ts: row.last_ts,
  });
}

/**
 * Every open position of a wallet. The venue's per-wallet cache (venue_positions) is the live overlay: when the
 * wallet was synced within `freshSeconds`, its current prices replace the market table's. `merged` when the overlay
 * priced at least one position; `is_estimated` while any position is valued at the market table's price.
 */
export async function openPositions(
  store: Store,
  wallet: string,
  now: number,
  freshSeconds: number,
): Promise<OpenPositions> {
  const [rows, sync] = await Promise.all([
    // By token id: the order the positions' key kept before they were stored by ids (0041), for answers that give it.
    positionsWithMarkets(store, wallet)
      .where("p.status_code", "=", POSITION_STATUS_CODE.open)
      .orderBy("p.token_id")
      .execute(),
    store.db.selectFrom("wallet_sync").select(["synced_at", "status"]).where("wallet", "=", wallet).executeTakeFirst(),
  ]);
  const fresh = sync?.status === "ok" && sync.synced_at !== null && sync.synced_at >= now - freshSeconds;
  const overlay = new Map<string, number>();
  if (fresh) {
    const venue = await store.db
      .selectFrom("venue_positions")
      .select(["token_id", "cur_price"])
      .where("wallet", "=", wallet)
      .execute();
    for (const v of venue) overlay.set(v.token_id, v.cur_price);
  }
  const positions = rows.map((row) => openPosition(row, overlay.get(row.token_id)));
  const overlaid = rows.filter((row) => overlay.has(row.token_id)).length;
  return { positions, source: overlaid > 0 ? "merged" : "cache", is_estimated: overlaid < rows.length };
}

/** Open positions by current value, largest first (ties by condition and side, so pages are stable). */
export function byCurrentValue(positions: OpenPosition[]): OpenPosition[] {
  return [...positions].sort(
    (a, b) =>
      b.current_value - a.current_value || a.condition_id.localeCompare(b.condition_id) || a.side.localeCompare(b.side),
  );
}

export const CLOSED_SORTS = ["recent", "oldest", "pnl", "pnl_asc", "size"] as const;
export type ClosedSort = (typeof CLOSED_SORTS)[number];

export interface ClosedQuery {
  limit: number;
  offset: number;
  sort: ClosedSort;
  /** USD; 0 = no floor. */
  minBuyCost: number;
  /** Average entry price bounds; 0 = no bound. */
  avgEntryMin: number;
  avgEntryMax: number;
}

function closedPosition(row: PositionJoinRow) {
  const payout = row.resolution ? payoutOf(row.resolution, row.outcome_index) : null;
  const unredeemed = row.shares / MICRO;
  const pnl = settledNetUsd(row.realized_pnl, row.fees, row.shares, row.avg_price, payout);
  const buyCost = (row.total_bought / MICRO) * row.avg_price;
  return Object.assign(marketFields(row), {
    avg_entry: row.avg_price,
    tokens_bought: row.total_bought / MICRO,
    buy_cost: buyCost,
    realized_pnl: pnl,
    fees: row.fees / MICRO,
    pnl_pct: buyCost > 0 ? (100 * pnl) / buyCost : 0,
    result: pnl > 0 ? ("win" as const) : pnl < 0 ? ("loss" as const) : ("even" as const),
    resolution: row.resolution,
    unredeemed_tokens: payout === null ? 0 : unredeemed,
    first_trade_ts: row.first_ts,
    last_trade_ts: row.last_ts,
    closed_ts: row.closed_ts,
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQuery = SelectQueryBuilder<any, any, any>;

function applyClosedFilters<Q extends AnyQuery>(query: Q, q: ClosedQuery): Q {
  let out = query.where("p.status_code", "=", POSITION_STATUS_CODE.closed) as Q;
  if (q.minBuyCost > 0) out = out.where(sql<number>`p.total_bought * p.avg_price`, ">=", q.minBuyCost * MICRO) as Q;
  if (q.avgEntryMin > 0) out = out.where("p.avg_price", ">=", q.avgEntryMin) as Q;
  if (q.avgEntryMax > 0) out = out.where("p.avg_price", "<=", q.avgEntryMax) as Q;
  return out;
}

/**
 * A page of closed positions. `realized_pnl` is settled P&L net of fees: for a resolved position whose shares were
 * not redeemed it includes their payout, as the wallet statistics do.
 */
export async function closedPositions(store: Store, wallet: string, q: ClosedQuery) {
  const base = applyClosedFilters(positionsWithMarkets(store, wallet), q);
  const settled = sql<number>`(p.realized_pnl - p.fees) + (case when coalesce(r.resolution, m.resolution) is null or p.shares = 0 then 0
    when coalesce(r.resolution, m.resolution) = '50-50' then p.shares * (0.5 - p.avg_price)
    when (coalesce(r.resolution, m.resolution) = 'YES') = (p.outcome_index = 0) then p.shares * (1 - p.avg_price)
    else -p.shares * p.avg_price end)`;
  let ordered = base;
  switch (q.sort) {
    case "recent":
      ordered = ordered.orderBy("p.closed_ts", "desc");
      break;
    case "oldest":
      ordered = ordered.orderBy("p.closed_ts", "asc");
      break;
    case "pnl":
      ordered = ordered.orderBy(settled, "desc");
      break;
    case "pnl_asc":
      ordered = ordered.orderBy(settled, "asc");
      break;
    case "size":
      ordered = ordered.orderBy(sql`p.total_bought * p.avg_price`, "desc");
      break;
  }
  const rows = await ordered
    .orderBy("p.condition_id")
    .orderBy("p.outcome_index")
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  const total = await applyClosedFilters(
    store.db.selectFrom(positionsWithStatusCode(store.kind)).where("p.wallet", "=", wallet),
    q,
  )
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return { closed: rows.map(closedPosition), total: Number(total.n) };
}

/** Positions of resolved markets whose winning (or 50-50) shares the wallet still holds: redeemable collateral. */
export async function pendingRedemptions(store: Store, wallet: string) {
  const rows = await positionsWithMarkets(store, wallet)
    .where("p.status_code", "=", POSITION_STATUS_CODE.closed)
    .where("p.shares", ">", 0)
    .execute();
  const positions = rows
    .filter((row) => row.resolution !== null && payoutOf(row.resolution, row.outcome_index) > 0)
    .map((row) => {
      const payout = payoutOf(row.resolution!, row.outcome_index);
      const tokens = row.shares / MICRO;
      const cost = tokens * row.avg_price;
      return Object.assign(marketFields(row), {
        tokens,
        avg_entry: row.avg_price,
        payout_price: payout,
        redeemable_usd: tokens * payout,
        cost,
        pnl: tokens * payout - cost,
        resolution: row.resolution!,
        resolved_at: row.resolved_at ?? row.closed_time ?? row.closed_ts,
      });
    })
    .sort((a, b) => b.redeemable_usd - a.redeemable_usd || a.condition_id.localeCompare(b.condition_id));
  return { positions, total_redeemable_usd: positions.reduce((s, p) => s + p.redeemable_usd, 0) };
}
