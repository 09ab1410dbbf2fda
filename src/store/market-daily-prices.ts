/**
 * `market_daily_prices` (src/store/schema.ts): a market's market-side fills (`marketSideFills`) summed per UTC day,
 * with the YES price of the day's last fill in (ts, id) order. The rows are computed by
 * src/derive/market-daily-prices.ts (the Deriver and `rebuild`); here are the rules that name a fill's row and its
 * YES price (in TypeScript and, for the migration that fills the table from stored fills, in SQL), that fill, and
 * the read. Since migration 0056 the rows store the market as its id (`market_daily_price_rows`, src/store/id-keyed.ts)
 * and the view `market_daily_prices` reads them as before; the reads here go to the rows by the market's id.
 */
import { storedFillSql, type FillsLayout } from "./fill-layout.js";
import { sql, type Kysely } from "kysely";
import { filledFrom, ID_KEYED, idOf } from "./id-keyed.js";
import type { StoreKind } from "./migrations/column-types.js";
import type { Store } from "./database.js";
import { queryRows } from "./raw-sql.js";
import { stampRows } from "./stamp-reads.js";
import { ID_SPAN } from "./wallet-last-moves.js";
import { marketSideFills, type Database, type MarketDailyPricesTable } from "./schema.js";

const DAY = 86_400;

/** Unix seconds of the UTC day's start of a unix time. */
export function priceDay(ts: number): number {
  return ts - (ts % DAY);
}

/** A fill's price as the YES outcome's (a NO fill at p is YES at 1 - p). */
export function yesPrice(outcomeIndex: number, price: number): number {
  return outcomeIndex === 0 ? price : 1 - price;
}

/**
 * Replaces the table's rows with the sums of every stored market-side fill (or of those with an id up to
 * `throughId`), in one statement: the migration that adds the table, and `rebuild` and the Deriver's warm start
 * (src/derive/rebuild.ts). A day's close is the fill of its greatest `ts * 2^32 + id`, read by id after the sums
 * (`ID_SPAN`, wallet-last-moves.ts): ranking every fill of the day took twice the time. Today's `fill_rows` are
 * grouped by the market's id, which the rows store as it is (`filledFrom`).
 */
export async function fillMarketDailyPricesFromFills(
  // biome-ignore lint/suspicious/noExplicitAny: a migration's Kysely<unknown> and a store's Kysely<Database> alike
  db: Kysely<any>,
  throughId = Number.MAX_SAFE_INTEGER,
  layout: FillsLayout = "compact",
): Promise<void> {
  const target = filledFrom("market_daily_prices", layout);
  const table = target.source;
  const market = sql.raw(target.column("condition_id"));
  const yes = (f: string) => {
    const price = storedFillSql(layout, "price", f);
    return `case when ${f}.outcome_index = 0 then ${price} else 1 - ${price} end`;
  };
  await sql`delete from ${sql.raw(target.name)}`.execute(db);
  await sql`insert into ${sql.raw(target.name)}
      (${market}, day, weighted, shares, trades, usd, close_ts, close_id, close_yes)
    select g.${market}, g.day, g.weighted, g.shares, g.trades, g.usd, c.ts, c.id, ${sql.raw(yes("c"))} from (
      select ${market}, ts - ts % ${DAY} as day, sum((${sql.raw(yes(table))}) * size) as weighted, sum(size) as shares,
        count(*) as trades, sum(usd) as usd, max(ts * ${sql.raw(String(ID_SPAN))} + id) as latest
      from ${sql.raw(table)} where ${sql.raw(marketSideFills("", layout === "compact" ? "packed" : "text"))} and id <= ${throughId}
      group by ${market}, day
    ) g join ${sql.raw(table)} c on c.id = g.latest % ${sql.raw(String(ID_SPAN))}`.execute(db);
}

const ROWS = ID_KEYED.market_daily_prices.rows;

/** The rows' columns but the market's id, as the view names them. */
const DAY_COLUMNS = ID_KEYED.market_daily_prices.columns.slice(1).join(", ");

/**
 * The market's rows oldest day first, numbers as numbers on either store: one range of the rows' key, found by the
 * market's id (`idOf`), which PostgreSQL knows before it plans the range (docs/decisions.md,
 * "A latest fill is read by its dictionary id").
 */
export async function readMarketDailyPrices(
  db: Kysely<Database>,
  kind: StoreKind,
  conditionId: string,
): Promise<MarketDailyPricesTable[]> {
  const rows = await queryRows<Omit<MarketDailyPricesTable, "condition_id">>(
    db,
    kind,
    `select ${DAY_COLUMNS} from ${ROWS} where condition_ref = ${idOf("condition_id")} order by day`,
    [conditionId],
  );
  return rows.map((r) => ({
    condition_id: conditionId,
    day: Number(r.day),
    weighted: Number(r.weighted),
    shares: Number(r.shares),
    trades: Number(r.trades),
    usd: Number(r.usd),
    close_ts: Number(r.close_ts),
    close_id: Number(r.close_id),
    close_yes: Number(r.close_yes),
  }));
}

/** How many of the market's fills the table holds: it moves when the Deriver writes a batch's fills there. */
export async function marketDailyPricesStamp(store: Store, conditionId: string) {
  const [row] = await stampRows<{ n: number | null }>(
    store,
    `select sum(trades) as n from ${ROWS} where condition_ref = ${idOf("condition_id")}`,
    [conditionId],
  );
  return Number(row?.n ?? 0);
}
