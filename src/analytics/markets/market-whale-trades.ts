/**
 * A market's whale trades (docs/METRICS.md, market whale trades), newest first, paged by keyset on
 * (timestamp desc, id desc).
 *
 * One trade is one maker order filled against one taker order: the maker's fill (role `maker`), whose wallet is the
 * maker and whose counterparty is the taker. The taker's own fill spans all its makers and names only the first
 * (docs/METRICS.md, fills), so it would count a match once per taker and lose the other makers; fills of unknown
 * role (Data API) pair nobody and are not trades here. `side`, `direction`, `price` and `usd_amount` are the maker
 * order's, as its OrderFilled event states them; `min_usd` applies to `usd_amount`.
 *
 * Whale-class: the maker or the taker is in today's Smart Money set (`smart_wallet_ids`). The market's maker fills are
 * read in growing chunks, newest first, as their ids, times and two flags (whether maker and taker are in the set),
 * and filtered here, so that no statement reads far past what a page needs; then the page's fills are read whole over
 * the same range of the same index: with `min_usd` at or above WHALE_SIZE_USD the partial index of whale-size maker
 * fills alone (it holds every column answered), otherwise the market's time index. The read stops with a `timed_out`
 * refusal once it ran WHALE_TRADES_TIMEOUT_MS (checked between chunks; PostgreSQL also cancels a statement past it).
 */
import type { Kysely } from "kysely";
import type { Store, StoreKind } from "../../store/database.js";
import { FILL_ROWS, FILLS_JOINED, fillSelectSql, textPerStore } from "../../store/fill-layout.js";
import { idOf } from "../../store/id-keyed.js";
import { placeholders, queryRows } from "../../store/raw-sql.js";
import {
  WHALE_SIZE_USD,
  roleIsSql,
  whaleSizeMakerFills,
  type Database,
  type Direction,
  type EntryType,
  type FillsTable,
} from "../../store/schema.js";
import { SMART_WALLET_IDS } from "../../store/smart-wallets.js";
import { StatementTimeout, withStatementTimeout } from "../../store/statement-timeout.js";
import { fromMicro, MICRO } from "../../venue/units.js";
import { outcomeSide } from "./market-facts.js";
import { keysetBeforeText, type KeysetBound } from "../reads/keyset.js";
import { ReadError } from "../reads/read-errors.js";
import { nextCursor } from "../wallet/wallet-market.js";

export type WhaleFilter = "smart" | "all";

export interface WhaleTradesQuery {
  conditionId: string;
  /** Upper bound on the timestamp, inclusive without `beforeId`; 0 = none (newest first). */
  before: number;
  /** With `before`: rows strictly before (before, beforeId); 0 = none. */
  beforeId: number;
  /** USD, lower bound on the maker order's collateral. */
  minUsd: number;
  limit: number;
  wallets: WhaleFilter;
}

export interface WhaleTradesLimits {
  timeoutMs: number;
  retryAfterSeconds: number;
  /** Milliseconds since some fixed point (performance.now in production; tests may pass their own). */
  now?: () => number;
}

export interface MarketWhaleTrade {
  id: number;
  timestamp: number;
  maker: string;
  taker: string | null;
  maker_is_whale: boolean;
  taker_is_whale: boolean;
  side: "YES" | "NO";
  direction: Direction;
  price: number;
  usd_amount: number;
  token_amount: number;
  entry_type: EntryType | null;
  tx_hash: string;
}

/**
 * With wallets=smart, the first chunk reads this many rows per row wanted; each next one as many as the share kept
 * so far says the rest needs (a quarter more, at least a 64th of the rows counted as kept), within the bounds.
 */
const FIRST_CHUNK_FACTOR = 2;
const MIN_CHUNK = 128;
const MAX_CHUNK = 16_384;
const chunkSize = (rows: number) => Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.ceil(rows)));

/** SQL: whether the fill's maker (its wallet) or its taker (its counterparty) is in the Smart Money set. */
const MAKER_IN_SET = `exists (select 1 from ${SMART_WALLET_IDS} s where s.wallet_id = f.wallet_id)`;
const TAKER_IN_SET = `exists (select 1 from ${SMART_WALLET_IDS} s where s.wallet_id = f.counterparty_id)`;

/**
 * The market's maker fills, by the market's id (`idOf`): through the view, PostgreSQL walked every fill's time index
 * back looking for the market's (970 ms for a market idle since the 1,000,000-fill world's first days).
 */
const MARKET_MAKER_FILLS = `f.condition_ref = ${idOf("condition_id")} and ${roleIsSql("maker", "packed", "f")} and f.usd >= ?`;

/** The candidates: ids, times and the two flags, from index entries and the set's rows. */
const CANDIDATES = `select f.id, f.ts, ${MAKER_IN_SET} as maker_in_set, ${TAKER_IN_SET} as taker_in_set
  from ${FILL_ROWS} f where ${MARKET_MAKER_FILLS}`;

/**
 * The page's fills read whole, over the time span the candidates came from. `+f.id` keeps SQLite from reading them
 * by row id: the range of the whale-size makers' index holds every column, the table's rows are elsewhere on disk.
 */
const PAGE_ROWS = textPerStore(
  (kind) => `select
  ${fillSelectSql(kind, ["id", "ts", "wallet", "counterparty", "side", "outcome_index", "price", "usd", "size", "entry_type", "tx_hash"])}
  from ${FILLS_JOINED} where ${MARKET_MAKER_FILLS}`,
);

interface Candidate {
  id: number;
  ts: number;
  maker_in_set: number | boolean;
  taker_in_set: number | boolean;
}

type TradeRow = Pick<
  FillsTable,
  "wallet" | "counterparty" | "side" | "outcome_index" | "price" | "usd" | "size" | "entry_type" | "tx_hash"
> & { id: number; ts: number };

const whaleSizeOnly = (q: WhaleTradesQuery) => (q.minUsd >= WHALE_SIZE_USD ? ` and ${whaleSizeMakerFills()}` : "");

function readChunk(db: Kysely<Database>, kind: StoreKind, q: WhaleTradesQuery, bound: KeysetBound, size: number) {
  const keyset = keysetBeforeText({ ts: "f.ts", id: "f.id" }, bound);
  return queryRows<Candidate>(
    db,
    kind,
    `${CANDIDATES}${whaleSizeOnly(q)}${keyset.text} order by f.ts desc, f.id desc limit ?`,
    [q.conditionId, Math.ceil(q.minUsd * MICRO), ...keyset.params, size],
  );
}

/** The page's candidates (and one more, to tell whether there is a next page), in page order. */
async function pickCandidates(
  db: Kysely<Database>,
  kind: StoreKind,
  q: WhaleTradesQuery,
  limits: Required<WhaleTradesLimits>,
  deadline: number,
): Promise<Candidate[]> {
  const want = q.limit + 1;
  const keep = (c: Candidate) => q.wallets === "all" || Boolean(c.maker_in_set) || Boolean(c.taker_in_set);
  const picked: Candidate[] = [];
  let bound: KeysetBound = { before: q.before, beforeId: q.beforeId, inclusive: true };
  let size = q.wallets === "all" ? want : chunkSize(want * FIRST_CHUNK_FACTOR);
  let read = 0;
  for (;;) {
    const rows = await readChunk(db, kind, q, bound, size);
    read += rows.length;
    for (const row of rows) {
      if (keep(row)) picked.push(row);
      if (picked.length === want) return picked;
    }
    const last = rows.at(-1);
    if (rows.length < size || !last) return picked;
    if (limits.now() > deadline) throw new StatementTimeout(limits.timeoutMs);
    bound = { before: last.ts, beforeId: last.id, inclusive: true };
    size = chunkSize(((want - picked.length) / Math.max(picked.length / read, 1 / 64)) * 1.25);
  }
}

/** The picked fills read whole, each with its flags, in page order. */
async function pickTrades(
  db: Kysely<Database>,
  kind: StoreKind,
  q: WhaleTradesQuery,
  limits: Required<WhaleTradesLimits>,
  deadline: number,
) {
  const picked = await pickCandidates(db, kind, q, limits, deadline);
  if (picked.length === 0) return [];
  const rows = await queryRows<TradeRow>(
    db,
    kind,
    `${PAGE_ROWS[kind]}${whaleSizeOnly(q)} and f.ts >= ? and f.ts <= ? and +f.id in ${placeholders(picked.length)}`,
    [q.conditionId, Math.ceil(q.minUsd * MICRO), picked.at(-1)!.ts, picked[0]!.ts, ...picked.map((c) => c.id)],
  );
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return picked.map((c) => ({
    row: byId.get(Number(c.id))!,
    makerInSet: Boolean(c.maker_in_set),
    takerInSet: Boolean(c.taker_in_set),
  }));
}

/** A page of the market's whale-class trades; `timed_out` past the time-out. */
export async function marketWhaleTrades(store: Store, q: WhaleTradesQuery, limits: WhaleTradesLimits) {
  const clock = { ...limits, now: limits.now ?? (() => performance.now()) };
  const deadline = clock.now() + limits.timeoutMs;
  let picked: Awaited<ReturnType<typeof pickTrades>>;
  try {
    picked = await withStatementTimeout(store, limits.timeoutMs, (db) =>
      pickTrades(db, store.kind, q, clock, deadline),
    );
  } catch (error) {
    if (error instanceof StatementTimeout) {
      throw new ReadError(
        "timed_out",
        `Reading this market's whale trades took longer than ${limits.timeoutMs} ms; retry, or narrow it (a higher min_usd, an earlier before)`,
        limits.retryAfterSeconds,
      );
    }
    throw error;
  }
  const trades: MarketWhaleTrade[] = picked.slice(0, q.limit).map(({ row: r, makerInSet, takerInSet }) => ({
    id: r.id,
    timestamp: r.ts,
    maker: r.wallet,
    taker: r.counterparty,
    maker_is_whale: makerInSet,
    taker_is_whale: takerInSet,
    side: outcomeSide(r.outcome_index),
    direction: r.side,
    price: r.price,
    usd_amount: fromMicro(r.usd),
    token_amount: fromMicro(r.size),
    entry_type: r.entry_type,
    tx_hash: r.tx_hash,
  }));
  const more = picked.length > q.limit;
  return {
    market: q.conditionId,
    count: trades.length,
    min_usd: q.minUsd,
    wallets: q.wallets,
    has_more: more,
    ...nextCursor(trades.at(-1), more),
    trades,
  };
}
