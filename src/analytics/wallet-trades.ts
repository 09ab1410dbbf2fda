/**
 * Layer 2: a wallet's raw fills (contract: "Raw trade fill"), newest first, over the (wallet, ts) index; and the
 * fees it paid, aggregated from its fills.
 */
import { sql } from "kysely";
import type { Store } from "../store/database.js";
import type { EntryType } from "../store/schema.js";
import { MICRO } from "../venue/units.js";

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

export async function walletTrades(store: Store, wallet: string, q: TradesQuery, now: number) {
  let query = store.db
    .selectFrom("fills as f")
    .leftJoin("markets as m", "m.condition_id", "f.condition_id")
    .leftJoin("market_tokens as t", "t.token_id", "f.token_id")
    .select([
      "f.condition_id",
      "f.token_id",
      "f.outcome_index",
      "f.side",
      "f.size",
      "f.price",
      "f.usd",
      "f.ts",
      "f.tx_hash",
      "f.entry_type",
      "f.fee",
      "m.id as market_id",
      "m.question",
      "m.slug",
      "t.outcome",
    ])
    .where("f.wallet", "=", wallet);
  const lower = sinceBound(q.since, now);
  if (lower !== null) query = query.where("f.ts", ">", lower);
  if (q.before > 0) query = query.where("f.ts", "<", q.before);
  const rows = await query
    .orderBy("f.ts", "desc")
    .orderBy("f.id", "desc")
    .limit(q.limit + 1)
    .offset(q.offset)
    .execute();
  const page = rows.slice(0, q.limit);
  return {
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
}

function monthOf(day: number): string {
  return new Date(day * 1000).toISOString().slice(0, 7);
}

/** Fees the wallet paid (fills' fee in collateral): total, by month (UTC), by entry type and by role. */
export async function walletFees(store: Store, wallet: string) {
  const byType = await store.db
    .selectFrom("fills")
    .select(["entry_type", "role"])
    .select((eb) => [
      eb.fn.sum<number>("fee").as("fees"),
      eb.fn.sum<number>("usd").as("volume"),
      eb.fn.countAll<number>().as("fills"),
    ])
    .select((eb) => eb.fn.sum<number>(eb.case().when("fee", ">", 0).then(1).else(0).end()).as("charged"))
    .where("wallet", "=", wallet)
    .groupBy(["entry_type", "role"])
    .execute();
  const day = sql<number>`ts - (ts % ${sql.lit(DAY)})`;
  const byDay = await store.db
    .selectFrom("fills")
    .select(day.as("day"))
    .select((eb) => [eb.fn.sum<number>("fee").as("fees"), eb.fn.sum<number>("usd").as("volume")])
    .where("wallet", "=", wallet)
    .groupBy(day)
    .execute();
  const months = new Map<string, { fees: number; volume: number }>();
  for (const d of byDay) {
    const key = monthOf(Number(d.day));
    const m = months.get(key) ?? { fees: 0, volume: 0 };
    m.fees += Number(d.fees);
    m.volume += Number(d.volume);
    months.set(key, m);
  }
  const entryTypes = new Map<EntryType | "UNCLASSIFIED", { fees: number; volume: number; fills: number }>();
  const roles = new Map<string, { fees: number; volume: number; fills: number }>();
  let fees = 0;
  let volume = 0;
  let fills = 0;
  let charged = 0;
  for (const r of byType) {
    const add = (map: Map<string, { fees: number; volume: number; fills: number }>, key: string) => {
      const e = map.get(key) ?? { fees: 0, volume: 0, fills: 0 };
      e.fees += Number(r.fees);
      e.volume += Number(r.volume);
      e.fills += Number(r.fills);
      map.set(key, e);
    };
    add(entryTypes as Map<string, { fees: number; volume: number; fills: number }>, r.entry_type ?? "UNCLASSIFIED");
    add(roles, r.role ?? "unknown");
    fees += Number(r.fees);
    volume += Number(r.volume);
    fills += Number(r.fills);
    charged += Number(r.charged);
  }
  const share = (f: number, v: number) => (v > 0 ? (1e4 * f) / v : 0);
  const rows = (map: Map<string, { fees: number; volume: number; fills: number }>, name: string) =>
    [...map]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, e]) => ({
        [name]: key,
        fees_usd: e.fees / MICRO,
        volume_usd: e.volume / MICRO,
        fills: e.fills,
        fee_bps: share(e.fees, e.volume),
      }));
  return {
    total_fees_usd: fees / MICRO,
    total_volume_usd: volume / MICRO,
    fee_bps: share(fees, volume),
    fills,
    fills_charged: charged,
    by_month: [...months]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([month, m]) => ({ month, fees_usd: m.fees / MICRO, volume_usd: m.volume / MICRO })),
    by_entry_type: rows(
      entryTypes as Map<string, { fees: number; volume: number; fills: number }>,
      "entry_type",
    ) as Array<{ entry_type: string; fees_usd: number; volume_usd: number; fills: number; fee_bps: number }>,
    by_role: rows(roles, "role") as Array<{
      role: string;
      fees_usd: number;
      volume_usd: number;
      fills: number;
      fee_bps: number;
    }>,
  };
}
