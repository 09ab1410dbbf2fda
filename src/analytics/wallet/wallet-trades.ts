/**
 * Layer 2: a wallet's raw fills (contract: "Raw trade fill"), newest first, over the (wallet, ts) index; and the
 * fees it paid, from the sums the Deriver keeps per month, entry type and role (`wallet_fees`).
 */
import type { Store, StoreKind } from "../../store/database.js";
import { FILL_DICTIONARIES, FILLS_JOINED, fillSelectSql, textPerStore } from "../../store/fill-layout.js";
import { idOf } from "../../store/id-keyed.js";
import { queryRows } from "../../store/raw-sql.js";
import type { FillsTable } from "../../store/schema.js";
import { readWalletFees } from "../../store/wallet-fees.js";
import { MICRO } from "../../venue/units.js";

const DAY = 86_400;
/** `since=0` (or omitted) reads this far back; `since=1` reads the full archive. */
export const DEFAULT_TRADES_WINDOW_SECONDS = 30 * DAY;

export interface TradesQuery {
  limit: number;
  offset: number;
  /** Exclusive lower bound (unix s); 0 = the last 30 days; 1 = the full archive. */
  since: number;
  /** Exclusive upper bound (unix s); 0 = none. */
  before: number;
}

/** The exclusive lower bound a `since` parameter stands for. */
export function sinceBound(since: number, now: number): number | null {
  if (since === 1) return null;
  if (since === 0) return now - DEFAULT_TRADES_WINDOW_SECONDS;
  return since;
}

/**
 * `fill_rows` by the wallet's id (`idOf`), its token's dictionary row joined (not the view's subquery) for its
 * outcome: PostgreSQL then walks the wallet's (wallet, ts) range newest first and stops at the page, where through
 * the view it read every fill of the window (178 ms against 5 ms for a busy wallet of the 1,000,000-fill world).
 */
const tradesSql = (kind: StoreKind) => `select
  ${fillSelectSql(kind, ["condition_id", "outcome_index", "side", "size", "price", "usd", "ts", "tx_hash", "entry_type", "fee"])},
  tk.token_id as token_id, mk.id as market_id, mk.question, mk.slug, t.outcome
  from ${FILLS_JOINED} left join ${FILL_DICTIONARIES.tokens.table} tk on tk.id = f.token_ref
  left join markets mk on mk.condition_id = m.condition_id left join market_tokens t on t.token_id = tk.token_id
  where f.wallet_id = ${idOf("wallet")}`;
const TRADES = textPerStore(tradesSql);

type TradeRow = Pick<
  FillsTable,
  "condition_id" | "token_id" | "outcome_index" | "side" | "size" | "price" | "usd" | "tx_hash" | "entry_type" | "fee"
> & { ts: number; market_id: string | null; question: string | null; slug: string | null; outcome: string | null };

export async function walletTrades(store: Store, wallet: string, q: TradesQuery, now: number) {
  return (await walletTradesUntil(store, wallet, q, now)).answer;
}

/**
 * A page of the wallet's raw fills, with the first second at which the clock alone may change it: with `since=0`
 * the window's start moves with the clock, and the page (or its `has_more`) changes once the oldest fill read (the
 * one after the page included) leaves the window; otherwise only new fills change it.
 */
export async function walletTradesUntil(store: Store, wallet: string, q: TradesQuery, now: number) {
  const lower = sinceBound(q.since, now);
  const bounds = [lower !== null ? " and f.ts > ?" : "", q.before > 0 ? " and f.ts < ?" : ""].join("");
  // Plain text: the query builder's form cost more to build and compile than the read (one per computed page).
  const rows = await queryRows<TradeRow>(
    store.db,
    store.kind,
    `${TRADES[store.kind]}${bounds} order by f.ts desc, f.id desc limit ? offset ?`,
    [wallet, ...(lower !== null ? [lower] : []), ...(q.before > 0 ? [q.before] : []), q.limit + 1, q.offset],
  );
  const page = rows.slice(0, q.limit);
  const oldest = rows.at(-1)?.ts;
  const until =
    q.since === 0 && oldest !== undefined ? Number(oldest) + DEFAULT_TRADES_WINDOW_SECONDS : Number.POSITIVE_INFINITY;
  const answer = {
    count: page.length,
    has_more: rows.length > q.limit,
    trades: page.map((r) => ({
      condition_id: r.condition_id,
      market_id: r.market_id ?? "",
      token_id: r.token_id,
      side: r.side,
      outcome: r.outcome ?? (r.outcome_index === 0 ? "Yes" : "No"),
      title: r.question ?? "",
      slug: r.slug ?? "",
      size: r.size / MICRO,
      price: r.price,
      usd_amount: r.usd / MICRO,
      timestamp: r.ts,
      transaction_hash: r.tx_hash,
      entry_type: r.entry_type,
      fee_usd: r.fee / MICRO,
    })),
  };
  return { answer, until };
}

type FeeSums = { fees: number; volume: number; fills: number };

/** Fees the wallet paid (fills' fee in collateral): total, by month (UTC), by entry type and by role. */
export async function walletFees(store: Store, wallet: string) {
  // The Deriver's sums per month, entry type and role (src/derive/wallet-fees.ts): one indexed read.
  const sums = await readWalletFees(store.db, wallet);
  const months = new Map<string, { fees: number; volume: number }>();
  const entryTypes = new Map<string, FeeSums>();
  const roles = new Map<string, FeeSums>();
  const add = (map: Map<string, FeeSums>, key: string, r: FeeSums) => {
    const e = map.get(key) ?? { fees: 0, volume: 0, fills: 0 };
    e.fees += r.fees;
    e.volume += r.volume;
    e.fills += r.fills;
    map.set(key, e);
  };
  let fees = 0;
  let volume = 0;
  let fills = 0;
  let charged = 0;
  for (const r of sums) {
    const m = months.get(r.month) ?? { fees: 0, volume: 0 };
    m.fees += r.fees;
    m.volume += r.volume;
    months.set(r.month, m);
    add(entryTypes, r.entry_type, r);
    add(roles, r.role, r);
    fees += r.fees;
    volume += r.volume;
    fills += r.fills;
    charged += r.charged;
  }
  const share = (f: number, v: number) => (v > 0 ? (1e4 * f) / v : 0);
  const rows = <K extends string>(map: Map<string, FeeSums>, name: K) =>
    [...map]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([key, e]) =>
          ({
            [name]: key,
            fees_usd: e.fees / MICRO,
            volume_usd: e.volume / MICRO,
            fills: e.fills,
            fee_bps: share(e.fees, e.volume),
          }) as Record<K, string> & { fees_usd: number; volume_usd: number; fills: number; fee_bps: number },
      );
  return {
    total_fees_usd: fees / MICRO,
    total_volume_usd: volume / MICRO,
    fee_bps: share(fees, volume),
    fills,
    fills_charged: charged,
    by_month: [...months]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([month, m]) => ({ month, fees_usd: m.fees / MICRO, volume_usd: m.volume / MICRO })),
    by_entry_type: rows(entryTypes, "entry_type"),
    by_role: rows(roles, "role"),
  };
}
