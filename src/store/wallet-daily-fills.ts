/**
 * `wallet_daily_fills` (src/store/schema.ts): a wallet's fills counted and their USD summed per UTC day. The rows are
 * computed by src/derive/wallet-daily-fills.ts (the Deriver and `rebuild`); here are the SQL that fills the table
 * from stored fills (the migration that adds it) and the read of a time range: its whole days from the table, the
 * days it starts and ends within from the fills.
 */
import { sql, type Kysely } from "kysely";
import { DAY_SECONDS, dayNumberSql } from "./day-numbers.js";
import type { FillsLayout } from "./fill-layout.js";
import type { StoreKind } from "./migrations/column-types.js";
import { filledFrom } from "./id-keyed.js";
import { queryRows } from "./raw-sql.js";
import type { Database } from "./schema.js";

/**
 * Replaces the table's rows with the sums of every stored fill (or of those with an id up to `throughId`), in one
 * statement: the migration that adds the table, and `rebuild` and the Deriver's warm start (src/derive/rebuild.ts).
 * The statement is the same on both stores (`_kind`, which callers give, is no longer needed).
 */
export async function fillWalletDailyFillsFromFills(
  // biome-ignore lint/suspicious/noExplicitAny: a migration's Kysely<unknown> and a store's Kysely<Database> alike
  db: Kysely<any>,
  _kind: StoreKind,
  throughId = Number.MAX_SAFE_INTEGER,
  layout: FillsLayout = "compact",
): Promise<void> {
  // A fill's day number (src/store/day-numbers.ts, `dayNumberOf` in TypeScript); `ts` is a 64-bit integer on both stores.
  const day = dayNumberSql("ts");
  const target = filledFrom("wallet_daily_fills", layout);
  const table = target.source;
  const wallet = target.column("wallet");
  await sql`delete from ${sql.raw(target.name)}`.execute(db);
  await sql`insert into ${sql.raw(target.name)} (${sql.raw(wallet)}, day, fills, usd)
    select ${sql.raw(wallet)}, ${sql.raw(day)} as day, count(*) as fills, sum(usd) as usd
    from ${sql.raw(table)} where id <= ${throughId} group by ${sql.raw(wallet)}, ${sql.raw(day)}`.execute(db);
}

export interface FillTotals {
  fills: number;
  /** Micro-units. */
  usd: number;
}

const NONE: FillTotals = { fills: 0, usd: 0 };

const PART = "select count(*) as n, coalesce(sum(usd), 0) as usd from fills where wallet = ? and ts > ? and ts <= ?";
const DAYS =
  "select coalesce(sum(fills), 0) as n, coalesce(sum(usd), 0) as usd from wallet_daily_fills where wallet = ? and day >= ? and day <= ?";

/**
 * The wallet's fills with `from < ts <= to`: counted and summed from the fills themselves over the range's first and
 * last (partial) days, from the table over the whole days between (one range of its primary key). So a request reads
 * at most two days of the wallet's fills, however long the range.
 */
export async function walletFillTotals(
  db: Kysely<Database>,
  kind: StoreKind,
  wallet: string,
  from: number,
  to: number,
): Promise<FillTotals> {
  if (to <= from) return { fills: 0, usd: 0 };
  // Whole days: every second of them in (from, to].
  const first = Math.ceil((from + 1) / DAY_SECONDS);
  const last = Math.floor((to + 1) / DAY_SECONDS) - 1;
  const read = async (text: string, params: readonly unknown[]) => {
    const [row] = await queryRows<{ n: number; usd: number }>(db, kind, text, params);
    return { fills: Number(row?.n ?? 0), usd: Number(row?.usd ?? 0) };
  };
  if (first > last) return read(PART, [wallet, from, to]);
  const before = first * DAY_SECONDS - 1;
  const after = (last + 1) * DAY_SECONDS - 1;
  const parts = await Promise.all([
    before > from ? read(PART, [wallet, from, before]) : NONE,
    read(DAYS, [wallet, first, last]),
    to > after ? read(PART, [wallet, after, to]) : NONE,
  ]);
  return parts.reduce((a, b) => ({ fills: a.fills + b.fills, usd: a.usd + b.usd }));
}
