/**
 * Issue 49: three derived tables still stored as text what the store elsewhere stores as ids and codes. On the
 * 1,000,000-fill world (SQLite, dbstat) `wallet_last_move_rows` took 3.28 bytes a fill (58,968 rows of 56 bytes),
 * `wallet_fee_rows` 2.46 (56,580 rows of 43) and `market_daily_prices` 1.84 (13,260 rows of 138).
 * - `market_daily_prices` moves to `market_daily_price_rows`, its market as its id in `condition_ids`, a view by the
 *   old name (`moveToIds`, as 0036 moved the wallets' tables): the 66-character condition id was half of each row.
 * - `wallet_fees`' month, entry type and role and `wallet_last_moves`' side and entry type are stored as small
 *   integers (src/store/coded-columns.ts: the month as months since 1970, the enums by the fills' own codes), and
 *   their views read them back as the texts: a SQLite record keeps 0 and 1 in its header alone. SQLite rebuilds each
 *   rows table with the columns as integers, its rows converted and copied in the new key's order; PostgreSQL changes
 *   the columns to `smallint` in one `alter table` each. A view depends on its table's columns, so it is dropped first
 *   and made again after (`storeCodedColumns`, src/store/migrations/code-columns.ts).
 * The rows of `wallet_fee_rows` now sort by entry type in code order (MINT, MERGE, COMPLEMENTARY, UNCLASSIFIED), not
 * alphabetically; its one reader sorts every list it answers (`walletFees`, src/analytics/wallet/wallet-trades.ts).
 * Migrated, the three take 2.75, 1.51 and 0.80 bytes a fill (7.57 -> 5.06; 6.70 -> 4.46 vacuumed), in 0.07 s on the
 * 1M world (peak RSS 143 MB).
 */
import type { Kysely } from "kysely";
import { storeCodedColumns } from "./code-columns.js";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { moveToIds, type MovedTable } from "./move-to-ids.js";

/** `market_daily_prices` as it was at 0056 (0018's columns), with its key. */
const MARKET_DAILY_PRICES: MovedTable = {
  columns: [
    ["condition_id", "id"],
    ["day", "int"],
    ["weighted", "real"],
    ["shares", "int"],
    ["trades", "int"],
    ["usd", "int"],
    ["close_ts", "int"],
    ["close_id", "int"],
    ["close_yes", "real"],
  ],
  key: ["condition_id", "day"],
};

/** The tables whose columns are coded here (`codedColumns`), each with its rows' key as stored. */
const CODED = {
  wallet_fees: ["wallet_id", "month", "entry_type", "role"],
  wallet_last_moves: ["wallet_id", "condition_ref"],
} as const;

export const codedDerivedTables: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    await moveToIds(db, kind, "market_daily_prices", MARKET_DAILY_PRICES);
    for (const table of Object.keys(CODED) as (keyof typeof CODED)[])
      await storeCodedColumns(db, kind, table, CODED[table]);
  },
};
