/**
 * A wallet in one market: its raw fills there, newest first (market-trades), and its trades summed per outcome side
 * now or at a past instant (market-summary). Both read the fills index (wallet, condition_id, ts, id, ...), so a
 * busy wallet costs what it traded in that market, not all its history; the summary reads that index alone.
 */
import { marketSides, type SideTotals } from "../../ledger/index.js";
import type { Store, StoreKind } from "../../store/database.js";
import { queryRows } from "../../store/raw-sql.js";
import type { Direction, EntryType, FillsTable } from "../../store/schema.js";
import { fromMicro } from "../../venue/units.js";
import { outcomeSide } from "../markets/market-facts.js";
import { keysetBeforeText, type Keyset } from "../reads/keyset.js";

export interface MarketTradesQuery {
  conditionId: string;
  /** Exclusive upper bound (unix s), unless `beforeId` continues a page inside that second. */
  before: number;
  /** With `before`: rows strictly before (before, beforeId) in (timestamp desc, id desc) order; 0 = none. */
  beforeId: number;
  /** Exclusive lower bound (unix s); 0 = none. */
  after: number;
  limit: number;
}

export interface WalletMarketTrade {
  id: number;
  timestamp: number;
  wallet_role: "maker" | "taker" | null;
  direction: Direction;
  side: "YES" | "NO";
  price: number;
  usd_amount: number;
  token_amount: number;
  fee_usd: number;
  entry_type: EntryType | null;
  tx_hash: string;
  counterparty: string | null;
}

/**
 * How a wallet's fills of one second in one market are ordered: by id. SQLite's `fills_wallet_condition_sums` holds
 * no `id` column since migration 0054 (each entry ends with its row id), and with a plain `id` the planner would take
 * `fills_wallet_ts`, whose entries give (time, id) order without a sort, and read every fill of the wallet; `+id` is
 * no column, so it keeps the covering index and sorts only each second's fills. PostgreSQL's index holds the column.
 */
const SAME_SECOND_ORDER: Record<StoreKind, string> = { sqlite: "+id", postgres: "id" };

const MARKET_TRADES = `select id, ts, role, side, outcome_index, price, usd, size, fee, entry_type, tx_hash, counterparty
  from fills where wallet = ? and condition_id = ?`;

type MarketTradeRow = Pick<
  FillsTable,
  "role" | "side" | "outcome_index" | "price" | "usd" | "size" | "fee" | "entry_type" | "tx_hash" | "counterparty"
> & { id: number; ts: number };

/** The read of a wallet's fills in one market, newest first (timestamp, then id), one page past the cursor. */
export function walletMarketTradesSql(
  kind: StoreKind,
  wallet: string,
  q: MarketTradesQuery,
): { text: string; params: unknown[] } {
  const keyset = keysetBeforeText({ ts: "ts", id: "id" }, { ...q, inclusive: false });
  const bounds = [keyset.text];
  const params: unknown[] = [wallet, q.conditionId, ...keyset.params];
  if (q.after > 0) {
    bounds.push(" and ts > ?");
    params.push(q.after);
  }
  // Plain text: the query builder's form cost more to build and compile than the read.
  return {
    text: `${MARKET_TRADES}${bounds.join("")} order by ts desc, ${SAME_SECOND_ORDER[kind]} desc limit ?`,
    params: [...params, q.limit + 1],
  };
}

/** The wallet's fills in one market, newest first (timestamp, then id), one page past the cursor. */
export async function walletMarketTrades(store: Store, wallet: string, q: MarketTradesQuery) {
  const { text, params } = walletMarketTradesSql(store.kind, wallet, q);
  const rows = await queryRows<MarketTradeRow>(store.db, store.kind, text, params);
  const page = rows.slice(0, q.limit);
  const trades: WalletMarketTrade[] = page.map((r) => ({
    id: r.id,
    timestamp: r.ts,
    wallet_role: r.role,
    direction: r.side,
    side: outcomeSide(r.outcome_index),
    price: r.price,
    usd_amount: fromMicro(r.usd),
    token_amount: fromMicro(r.size),
    fee_usd: fromMicro(r.fee),
    entry_type: r.entry_type,
    tx_hash: r.tx_hash,
    counterparty: r.counterparty,
  }));
  return {
    count: trades.length,
    has_more: rows.length > q.limit,
    ...nextCursor(trades.at(-1), rows.length > q.limit),
    trades,
  };
}

/** Where the next page starts: the last row's (timestamp, id), null on the last page. */
export function nextCursor(last: { timestamp: number; id: number } | undefined, more: boolean): Keyset {
  return more && last
    ? { next_before: last.timestamp, next_before_id: last.id }
    : { next_before: null, next_before_id: null };
}

export interface SideSummary {
  buy_tokens: number;
  buy_cost_usd: number;
  sell_tokens: number;
  sell_cost_usd: number;
  net_tokens: number;
  net_cost_usd: number;
  trade_count: number;
  avg_entry_price: number | null;
  first_trade_ts: number | null;
  last_trade_ts: number | null;
}

function sideSummary(s: SideTotals): SideSummary {
  return {
    buy_tokens: fromMicro(s.buyTokens),
    buy_cost_usd: fromMicro(s.buyCost),
    sell_tokens: fromMicro(s.sellTokens),
    sell_cost_usd: fromMicro(s.sellProceeds),
    net_tokens: fromMicro(s.buyTokens - s.sellTokens),
    net_cost_usd: fromMicro(s.buyCost - s.sellProceeds),
    trade_count: s.trades,
    avg_entry_price: s.avgPrice === null ? null : fromMicro(s.avgPrice),
    first_trade_ts: s.firstTs,
    last_trade_ts: s.lastTs,
  };
}

type SummaryFillRow = Pick<FillsTable, "outcome_index" | "side" | "size" | "usd" | "entry_type"> & { ts: number };

/**
 * The fills a summary sums, in the order it applies them. Every column is in the index `fills_wallet_condition_sums`
 * (migration 0024), so the read is one range of it and no table row.
 */
export function summaryFillsSql(kind: StoreKind, at: number): string {
  const upTo = at > 0 ? " and ts <= ?" : "";
  return `select outcome_index, side, size, usd, ts, entry_type from fills
  where wallet = ? and condition_id = ?${upTo} order by ts, ${SAME_SECOND_ORDER[kind]}`;
}

/**
 * The wallet's trades in the market summed per side (`marketSides`, the ledger's rule), over every fill (`at` 0)
 * or the fills up to `at` inclusive. Fills apply in time order, then in the order they were stored (chain order).
 */
export async function walletMarketSummary(store: Store, wallet: string, conditionId: string, at: number) {
  const rows = await queryRows<SummaryFillRow>(
    store.db,
    store.kind,
    summaryFillsSql(store.kind, at),
    at > 0 ? [wallet, conditionId, at] : [wallet, conditionId],
  );
  const [yes, no] = marketSides(
    rows.map((r) => ({
      outcomeIndex: r.outcome_index === 0 ? 0 : 1,
      side: r.side,
      size: r.size,
      usd: r.usd,
      ts: r.ts,
      entryType: r.entry_type,
    })),
  );
  return {
    wallet,
    condition_id: conditionId,
    at,
    found: rows.length > 0,
    sides: { YES: sideSummary(yes), NO: sideSummary(no) },
  };
}
