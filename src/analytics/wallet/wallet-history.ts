/**
 * A wallet over time: P&L curves (the ledger's points, the venue's closed positions), what changed since a
 * moment, and the latest move per market labelled by its economic meaning.
 */
import type { OutcomeSide } from "../../ledger/index.js";
import type { Store } from "../../store/database.js";
import { textPerStore } from "../../store/fill-layout.js";
import { latestFillSql } from "../../store/fills.js";
import { pointAt, walletSeries } from "../../store/pnl-series.js";
import { firstRow } from "../../store/raw-sql.js";
import { walletFillTotals } from "../../store/wallet-daily-fills.js";
import { readWalletLastMoves } from "../../store/wallet-last-moves.js";
import type { EntryType, WalletLastMovesTable } from "../../store/schema.js";
import { SECONDS_PER_DAY } from "../../ledger/index.js";
import { loadMarkets, outcomeSide } from "../markets/market-facts.js";
import { fromMicro } from "../../venue/units.js";

export const PNL_PERIODS = ["1D", "1W", "1M", "ALL"] as const;
export type PnlPeriod = (typeof PNL_PERIODS)[number];

/** Resolution and span of each period (span null: the full history). */
export const PERIOD_WINDOWS: Record<PnlPeriod, { resolution: "hour" | "day"; seconds: number | null }> = {
  "1D": { resolution: "hour", seconds: SECONDS_PER_DAY },
  "1W": { resolution: "hour", seconds: 7 * SECONDS_PER_DAY },
  "1M": { resolution: "day", seconds: 30 * SECONDS_PER_DAY },
  ALL: { resolution: "day", seconds: null },
};

/**
 * The P&L points are written and pruned as the clock's hours pass, with no stamp of their own: an answer read from
 * them is kept at most this long (so it may lag a new hourly point by up to a minute).
 */
export const POINTS_KEPT_SECONDS = 60;

/**
 * The first second at which the clock alone may change a pnl-history answer: when its oldest point leaves the
 * period's window, and in any case POINTS_KEPT_SECONDS on.
 */
export function pnlHistoryUntil(period: PnlPeriod, points: readonly { t: number }[], now: number): number {
  const span = PERIOD_WINDOWS[period].seconds;
  const oldest = points[0]?.t;
  const leaves = span === null || oldest === undefined ? Number.POSITIVE_INFINITY : oldest + span + 1;
  return Math.min(leaves, now + POINTS_KEPT_SECONDS);
}

export async function pnlHistory(store: Store, wallet: string, period: PnlPeriod, now: number) {
  const window = PERIOD_WINDOWS[period];
  const from = window.seconds === null ? Number.NEGATIVE_INFINITY : now - window.seconds;
  const points = (await walletSeries(store, wallet, window.resolution)).filter((p) => p.t >= from && p.t <= now);
  return { address: wallet, period, points: points.map((p) => ({ t: p.t, p: p.pnl })) };
}

/**
 * Daily cumulative realized P&L from the venue's closed positions (the synced cache), one point per UTC day
 * with a close, dated at 00:00 UTC of that day.
 */
export async function pnlHistoryChain(store: Store, wallet: string) {
  const rows = await store.db
    .selectFrom("venue_closed_positions")
    .select(["ts", "realized_pnl"])
    .where("wallet", "=", wallet)
    .orderBy("ts")
    .execute();
  const byDay = new Map<number, number>();
  for (const r of rows) {
    const day = Math.floor(r.ts / SECONDS_PER_DAY);
    byDay.set(day, (byDay.get(day) ?? 0) + r.realized_pnl);
  }
  let cumulative = 0;
  const points = [...byDay.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([day, micro]) => {
      cumulative += micro;
      return { t: day * SECONDS_PER_DAY, p: fromMicro(cumulative) };
    });
  return { address: wallet, period: "ALL" as const, source: "chain" as const, points };
}

export interface MoveLabel {
  action_label: string;
  side_label: OutcomeSide;
  /** Collateral of the move on the side it concerns, USD. */
  usd: number;
}

/** The fill's columns a move's label reads (micro-units for size and usd). */
type MoveFill = Pick<WalletLastMovesTable, "side" | "outcome_index" | "entry_type" | "size" | "usd" | "price">;

/**
 * The economic meaning of one fill. A BUY enters its outcome. A SELL settled as MINT is an entry into the other
 * outcome (the protocol minted a pair: the seller keeps the complement and pays 1 - price per share); any other
 * SELL exits its outcome (MERGE burns the pair back to collateral).
 */
export function labelMove(fill: MoveFill): MoveLabel {
  const outcome = outcomeSide(fill.outcome_index);
  if (fill.side === "BUY") return { action_label: `Bought ${outcome}`, side_label: outcome, usd: fromMicro(fill.usd) };
  if (fill.entry_type === "MINT") {
    const other = outcomeSide(1 - fill.outcome_index);
    return { action_label: `Bought ${other}`, side_label: other, usd: fromMicro(fill.size) * (1 - fill.price) };
  }
  return {
    action_label: fill.entry_type === "MERGE" ? `Merged ${outcome}` : `Sold ${outcome}`,
    side_label: outcome,
    usd: fromMicro(fill.usd),
  };
}

type FillRow = MoveFill & { id: number; condition_id: string; ts: number };

/**
 * The wallet's latest fill per market (ties at the same second: the last stored), labelled, in the order those fills
 * were stored: one range of `wallet_last_moves`, which the Deriver keeps (a fill shows once its batch is derived).
 */
export async function lastMoves(store: Store, wallet: string) {
  const rows = await readWalletLastMoves(store.db, store.kind, wallet);
  const moves: Record<
    string,
    { entry_type: EntryType | null; action_label: string; usd: number; side_label: OutcomeSide; ts: number }
  > = {};
  for (const r of rows) {
    const { action_label, side_label, usd: amount } = labelMove(r);
    moves[r.condition_id] = { entry_type: r.entry_type, action_label, usd: amount, side_label, ts: r.ts };
  }
  return moves;
}

/** Since is capped at this many seconds back. */
export const CHANGES_MAX_LOOKBACK = 30 * SECONDS_PER_DAY;
/** A since closer to now than this counts no trades. */
export const CHANGES_MIN_AGE = 60;

/**
 * The first second at which the clock alone may change changes-since's answer (its fills are stamped apart): when
 * `since` comes of age, when the 30-day cap starts moving `effective_since`, and at most POINTS_KEPT_SECONDS on
 * (the P&L points it reads have no stamp).
 */
export function changesSinceUntil(since: number, now: number): number {
  const clockMoves =
    now - since < CHANGES_MIN_AGE
      ? since + CHANGES_MIN_AGE
      : since < now - CHANGES_MAX_LOOKBACK
        ? now + 1
        : since + CHANGES_MAX_LOOKBACK + 1;
  return Math.min(clockMoves, now + POINTS_KEPT_SECONDS);
}

// changes-since's reads are plain text, as `firstRow` says why.
const LAST_FILL = textPerStore((kind) =>
  latestFillSql(
    kind,
    "wallet",
    ["id", "condition_id", "side", "outcome_index", "entry_type", "size", "usd", "price", "ts"],
    "<=",
  ),
);

/**
 * Change of the wallet's P&L points from `from` to `now`, within one series: hourly points when they reach back
 * to `from`, else daily ones; a wallet with no point that old had a P&L of 0 then.
 */
async function pnlDelta(store: Store, wallet: string, from: number, now: number): Promise<number> {
  const [hourly, daily] = await Promise.all([walletSeries(store, wallet, "hour"), walletSeries(store, wallet, "day")]);
  for (const series of [hourly, daily]) {
    const reference = pointAt(series, from);
    if (reference) return (pointAt(series, now)?.pnl ?? reference.pnl) - reference.pnl;
  }
  const latest = pointAt(daily, now) ?? pointAt(hourly, now);
  return latest?.pnl ?? 0;
}

export async function changesSince(store: Store, wallet: string, since: number, now: number) {
  const effective = Math.max(since, now - CHANGES_MAX_LOOKBACK);
  const counted = now - since >= CHANGES_MIN_AGE;
  const [totals, last, delta] = await Promise.all([
    // Whole days from the Deriver's daily sums, the range's first and last days from the fills.
    counted ? walletFillTotals(store.db, store.kind, wallet, effective, now) : undefined,
    firstRow<FillRow>(store.db, store.kind, LAST_FILL[store.kind], [wallet, now]),
    counted ? pnlDelta(store, wallet, effective, now) : 0,
  ]);
  const market = last ? (await loadMarkets(store, [last.condition_id])).get(last.condition_id) : undefined;
  return {
    address: wallet,
    since,
    effective_since: effective,
    trades_count: totals?.fills ?? 0,
    volume_usd: fromMicro(totals?.usd ?? 0),
    pnl_delta: delta,
    last_move: last
      ? {
          condition_id: last.condition_id,
          market_id: market?.market_id ?? null,
          question: market?.question ?? null,
          entry_type: last.entry_type,
          ...labelMove(last),
          ts: last.ts,
        }
      : null,
  };
}
