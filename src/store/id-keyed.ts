/**
 * Tables stored with their wallet, and their market where they have one, as ids (issue 49): the hourly and daily P&L
 * points and the venue's P&L points (migration 0031), the daily position snapshots, a wallet's fees, daily fill
 * counts and last moves (0036), the positions (0041), the venue's open and closed positions of a wallet (0043), the
 * scored bets (0044), the markets' daily prices (0056). Their rows are mostly their key: a 42-character address and a 66-character condition id in
 * every row and again in every key entry (a position's 78-digit token id too). Each is a
 * table `<rows>` with `wallet_id` (the address's id in `address_ids`, the fills' dictionary), `condition_ref` (the
 * market's id in `condition_ids`) and `token_ref` (`token_ids`) in place of the texts, and a view by the old name
 * that gives every reader the rows as they always were. Since 0056 a table may store columns of a few values as
 * small integers too (`codes`, src/store/coded-columns.ts), which its view reads back as their texts, and since 0061
 * numbers and a JSON text as integers where those give them back exactly (`exact`, src/store/exact-codes.ts); since
 * 0063 a scored bet's score as its count of hundredths (src/store/insider-score-hundredths.ts). Writes
 * go through src/store/derived-tables.ts, which stores the ids and codes. Decisions: docs/decisions.md,
 * "Series keyed by a wallet store its id",
 * "Snapshots, fees, daily fill counts and last moves store wallet and market ids" and
 * "Positions store wallet, token and market ids",
 * "Fees and last moves code their enums and months; daily prices store market ids",
 * "Positions code their status",
 * "Scored bets store their facts, confidence and price as integers" and
 * "Scored bets store their score in hundredths".
 */
import {
  type ColumnCode,
  FEE_CODES,
  LAST_MOVE_CODES,
  listCode,
  MONTH_CODE,
  POSITION_STATUS_CODES,
} from "./coded-columns.js";
import { RUN_DAY_CODES } from "./day-numbers.js";
import type { Dictionary } from "./dictionaries.js";
import { decimalCode, type ExactCode } from "./exact-codes.js";
import { FILL_DICTIONARIES, FILL_ROWS, type FillsLayout } from "./fill-layout.js";
import { INSIDER_FACTS_CODE } from "./insider-facts.js";
import { SNAPSHOT_COST_CODES } from "./snapshot-costs.js";
import { SCORE_CODE } from "./insider-score-hundredths.js";
import type { StoreKind } from "./migrations/column-types.js";

/** The positions' columns in their order (the derived tables' writer's too). */
export const POSITION_COLUMNS = [
  "wallet",
  "token_id",
  "condition_id",
  "outcome_index",
  "shares",
  "avg_price",
  "total_bought",
  "realized_pnl",
  "fees",
  "first_ts",
  "last_ts",
  "closed_ts",
  "status",
] as const;

/** The venue's open positions of a wallet (its per-wallet cache), columns in their order. */
export const VENUE_POSITION_COLUMNS = [
  "wallet",
  "token_id",
  "condition_id",
  "outcome_index",
  "size",
  "avg_price",
  "cur_price",
  "initial_value",
  "current_value",
  "cash_pnl",
  "realized_pnl",
  "total_bought",
  "redeemable",
  "mergeable",
  "title",
  "slug",
  "event_slug",
  "synced_at",
] as const;

/** The venue's closed positions of a wallet, columns in their order. */
export const VENUE_CLOSED_POSITION_COLUMNS = [
  "wallet",
  "token_id",
  "condition_id",
  "outcome_index",
  "avg_price",
  "cur_price",
  "total_bought",
  "realized_pnl",
  "ts",
  "title",
  "slug",
  "event_slug",
  "synced_at",
] as const;

/** The scored bets (src/derive/insider-scores.ts), columns in their order. */
export const INSIDER_SCORE_COLUMNS = [
  "wallet",
  "condition_id",
  "outcome_index",
  "score",
  "confidence",
  "bet_usd",
  "avg_price",
  "first_ts",
  "last_ts",
  "cluster_id",
  "computed_at",
  "facts",
] as const;

/** The markets' daily prices (src/store/market-daily-prices.ts), columns in their order. */
export const MARKET_DAILY_PRICE_COLUMNS = [
  "condition_id",
  "day",
  "weighted",
  "shares",
  "trades",
  "usd",
  "close_ts",
  "close_id",
  "close_yes",
] as const;

/**
 * Each table's rows table and its columns in the table's order, texts by the names readers know; `codes`: the
 * columns stored as small integers since 0056 (a snapshot run's days since 0058, a position's status since 0060, a
 * scored bet's score since 0063);
 * `exact`: the columns stored as integers where those give the value back exactly, else as it is, since 0061 (a
 * snapshot's costs since 0065).
 */
export const ID_KEYED = {
  // Until 0047 packed the P&L series (src/store/pnl-series.ts): the migrations before it make these views.
  pnl_points: { rows: "pnl_point_rows", columns: ["wallet", "resolution", "t", "pnl"] },
  venue_pnl_points: { rows: "venue_pnl_point_rows", columns: ["wallet", "t", "pnl"] },
  // Since 0046 the rows of the day being written (src/store/position-snapshots.ts): the days are stored as runs.
  position_snapshots: {
    rows: "position_snapshot_rows",
    columns: ["day", "wallet", "condition_id", "yes_shares", "yes_cost", "no_shares", "no_cost"],
    // Since 0065 the costs as average prices, as the runs store them (src/store/snapshot-costs.ts).
    exact: SNAPSHOT_COST_CODES,
  },
  position_snapshot_runs: {
    rows: "position_snapshot_run_rows",
    columns: ["wallet", "condition_id", "from_day", "until_day", "yes_shares", "yes_cost", "no_shares", "no_cost"],
    // Since 0058 a run's first day as its day number and its length in days (src/store/day-numbers.ts).
    codes: RUN_DAY_CODES,
    // Since 0065 (src/store/snapshot-costs.ts).
    exact: SNAPSHOT_COST_CODES,
  },
  wallet_fees: {
    rows: "wallet_fee_rows",
    columns: ["wallet", "month", "entry_type", "role", "fees", "volume", "fills", "charged"],
    codes: { month: MONTH_CODE, entry_type: listCode(FEE_CODES, "entry_type"), role: listCode(FEE_CODES, "role") },
  },
  wallet_daily_fills: { rows: "wallet_daily_fill_rows", columns: ["wallet", "day", "fills", "usd"] },
  wallet_last_moves: {
    rows: "wallet_last_move_rows",
    columns: ["wallet", "condition_id", "ts", "fill_id", "side", "outcome_index", "entry_type", "size", "usd", "price"],
    codes: { side: listCode(LAST_MOVE_CODES, "side"), entry_type: listCode(LAST_MOVE_CODES, "entry_type") },
  },
  positions: {
    rows: "position_rows",
    columns: POSITION_COLUMNS,
    // Since 0060 (src/store/position-status.ts).
    codes: { status: listCode(POSITION_STATUS_CODES, "status") },
  },
  venue_positions: { rows: "venue_position_rows", columns: VENUE_POSITION_COLUMNS },
  venue_closed_positions: { rows: "venue_closed_position_rows", columns: VENUE_CLOSED_POSITION_COLUMNS },
  insider_scores: {
    rows: "insider_score_rows",
    columns: INSIDER_SCORE_COLUMNS,
    // Since 0063 (src/store/insider-score-hundredths.ts).
    codes: { score: SCORE_CODE },
    // Since 0061 (src/store/exact-codes.ts, src/store/insider-facts.ts).
    exact: {
      confidence: decimalCode("confidence", "confidence_bps", 4),
      avg_price: decimalCode("avg_price", "avg_price_micro", 6),
      facts: INSIDER_FACTS_CODE,
    },
  },
  market_daily_prices: { rows: "market_daily_price_rows", columns: MARKET_DAILY_PRICE_COLUMNS },
} as const;

export type IdKeyedTable = keyof typeof ID_KEYED;

export function isIdKeyed(table: string): table is IdKeyedTable {
  return Object.hasOwn(ID_KEYED, table);
}

/** The columns a table stores as small integers (since 0056), each with its code; none for most. */
export function codedColumns(table: IdKeyedTable): Readonly<Record<string, ColumnCode>> {
  const entry = ID_KEYED[table];
  return "codes" in entry ? entry.codes : {};
}

/** The columns a table stores as integers where those give them back exactly (since 0061), with their codes. */
export function exactCodes(table: IdKeyedTable): Readonly<Record<string, ExactCode>> {
  const entry = ID_KEYED[table];
  return "exact" in entry ? entry.exact : {};
}

/** The text columns stored as ids: each one's stored name and dictionary. */
export const ID_COLUMNS: Readonly<Record<string, { stored: string; dictionary: Dictionary }>> = {
  wallet: { stored: "wallet_id", dictionary: FILL_DICTIONARIES.addresses },
  condition_id: { stored: "condition_ref", dictionary: FILL_DICTIONARIES.conditions },
  token_id: { stored: "token_ref", dictionary: FILL_DICTIONARIES.tokens },
};

/** An id-keyed table's column as stored: `wallet` becomes `wallet_id`, `condition_id` `condition_ref`. */
export const storedColumn = (column: string): string => ID_COLUMNS[column]?.stored ?? column;

/** SQL: the ids of the values a subquery or list gives for a column stored as an id (`in (...)` of its stored column). */
export function idsOf(column: string, values: string): string {
  const { table, column: text } = ID_COLUMNS[column]!.dictionary;
  return `(select id from ${table} where ${text} in ${values})`;
}

/**
 * SQL: the id of one value (a `?` parameter) of a column stored as an id, as a scalar subquery. PostgreSQL runs it
 * first and reads the rows by the id (an index condition), where a filter on the text through a view's join leaves
 * its planner guessing: for the latest row of a market it walked the whole table's time index backwards (20 s at
 * 10,000,000 fills for a market idle since its first days).
 */
export function idOf(column: string): string {
  const { table, column: text } = ID_COLUMNS[column]!.dictionary;
  return `(select id from ${table} where ${text} = ?)`;
}

/** SQL: the ids of the addresses a subquery or list gives. */
export const walletIdsOf = (addresses: string): string => idsOf("wallet", addresses);

/**
 * The view that reads an id-keyed table as it was: each text by its id, through outer joins on the dictionaries'
 * primary keys, which both stores leave out of a query that does not read the text (a `max(day)` reads the rows'
 * key alone) and turn into inner joins where a query filters on it. Every id is in its dictionary, so the outer
 * joins find what inner ones would. `codesOn`: the store on which a view made since 0056 reads the table's coded
 * columns (`codedColumns`) back as their texts (compared byte by byte on PostgreSQL, as its text columns), and since
 * 0061 its exactly coded ones (`exactCodes`) from their codes or kept values; without it the view reads every
 * column as stored, as the views made before did (and the one `moveToIds` makes: it moves a table's columns as they
 * are). `codedLater`: coded columns read as stored all the same, for a migration that makes the view of its own
 * layout, before a later one coded them.
 */
export function idKeyedViewSql(table: IdKeyedTable, codesOn?: StoreKind, codedLater: readonly string[] = []): string {
  return `create view ${table} as ${idKeyedSelectSql(table, codesOn, [], codedLater)}`;
}

/**
 * SQL: the select of the view by the table's name (`idKeyedViewSql`); `storedToo`: coded columns read as stored as
 * well, each as `<column>_code`, for a read that filters on a code where an index holds it (the view's text is
 * computed: a filter on it reaches no index); `codedLater`: as `idKeyedViewSql`'s.
 */
export function idKeyedSelectSql(
  table: IdKeyedTable,
  codesOn?: StoreKind,
  storedToo: readonly string[] = [],
  codedLater: readonly string[] = [],
): string {
  const { rows, columns } = ID_KEYED[table];
  const unlessLater = <C>(coded: Readonly<Record<string, C>>): Record<string, C> =>
    Object.fromEntries(Object.entries(coded).filter(([c]) => !codedLater.includes(c)));
  const codes = codesOn ? unlessLater(codedColumns(table)) : {};
  const exact = codesOn ? unlessLater(exactCodes(table)) : {};
  const collation = codesOn === "postgres" ? ' collate "C"' : "";
  const joins: string[] = [];
  const select = columns.map((c) => {
    const code = codes[c];
    if (code) return `${code.textSql("r")}${code.number ? "" : collation} as ${c}`;
    const coded = exact[c];
    if (coded && codesOn) return `${coded.valueSql("r", codesOn)}${coded.number ? "" : collation} as ${c}`;
    const id = ID_COLUMNS[c];
    if (!id) return `r.${c} as ${c}`;
    const alias = `d${joins.length}`;
    joins.push(`left join ${id.dictionary.table} ${alias} on ${alias}.id = r.${id.stored}`);
    return `${alias}.${id.dictionary.column} as ${c}`;
  });
  for (const c of storedToo) select.push(`r.${codes[c]?.storedAs ?? c} as ${c}_code`);
  return `select ${select.join(", ")}\n    from ${rows} r ${joins.join(" ")}`;
}

/**
 * Where a statement that fills an id-keyed table from every stored fill reads and writes, and its columns' names
 * there: today from `fill_rows` into its rows table, grouped straight by the ids (no text is joined); for the
 * migrations that ran before 0029 (`layout` "table"), from the `fills` table into the table of texts they created.
 */
export function filledFrom(
  table: IdKeyedTable,
  layout: FillsLayout,
): { source: string; name: string; column: (name: string) => string } {
  return layout === "table"
    ? { source: "fills", name: table, column: (name) => name }
    : { source: FILL_ROWS, name: ID_KEYED[table].rows, column: storedColumn };
}
