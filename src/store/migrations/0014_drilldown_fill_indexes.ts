/**
 * Issue 25, the Premium drill-downs: two fills indexes.
 * - `fills_wallet_condition_ts` (wallet, condition_id, ts, id): a wallet's trades in one market and its summary at an
 *   instant read only that wallet's fills in that market; over (wallet, ts) they walked every fill of the wallet (the
 *   busiest wallets of the 10,000,000-fill world have tens of thousands) to keep a few. Last-moves finds a wallet's
 *   markets one index seek each and the latest fill of each in one more (`id` breaks ties of one second).
 * - `fills_whale_size_makers`: the maker fills of at least WHALE_SIZE_USD (src/store/schema.ts), by market and time,
 *   with every column a market's whale trades answer, so that a page of them is read from this index alone, where
 *   over (condition_id, ts) it read a table row for every fill of the market, most of them small or takers' (about 6%
 *   of the fills of the simulated world are in it).
 *
 * Both are among the indexes a first sync defers (`DEFERRED_FILL_INDEXES`, src/store/fills.ts, which takes the
 * whale makers' definition from here): when a first sync has dropped those, they are left to be built with them
 * when it reaches the head.
 */
import { sql, type Kysely } from "kysely";
import { whaleSizeMakerFills } from "../schema.js";
import type { StoreKind, StoreMigration } from "./column-types.js";

export interface FillIndex {
  readonly name: string;
  readonly columns: readonly string[];
  /** A partial index's condition, as SQL. */
  readonly where?: string;
  readonly unique?: boolean;
}

/** As it stood when this migration landed: 0024_wallet_market_fill_sums replaces it with a covering index. */
const WALLET_CONDITION_TS_INDEX: FillIndex = {
  name: "fills_wallet_condition_ts",
  columns: ["wallet", "condition_id", "ts", "id"],
};

export const WHALE_SIZE_MAKERS_INDEX: FillIndex = {
  name: "fills_whale_size_makers",
  columns: [
    "condition_id",
    "ts",
    "id",
    "usd",
    "role",
    "wallet",
    "counterparty",
    "side",
    "outcome_index",
    "price",
    "size",
    "entry_type",
    "tx_hash",
  ],
  where: whaleSizeMakerFills("text"),
};

/** Creates a fills index unless it exists: on `fills`, or on `fill_rows` since migration 0029. */
// biome-ignore lint/suspicious/noExplicitAny: a migration's Kysely<unknown> and a transaction's Kysely<Database> alike
export async function createFillIndex(db: Kysely<any>, index: FillIndex, table = "fills"): Promise<void> {
  const named = db.schema.createIndex(index.name);
  const create = (index.unique ? named.unique() : named)
    .ifNotExists()
    .on(table)
    .columns([...index.columns]);
  await (index.where ? create.where(sql.raw<boolean>(index.where)) : create).execute();
}

export const drilldownFillIndexes: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    if (!(await walletIndexPresent(db, kind))) return;
    for (const index of [WALLET_CONDITION_TS_INDEX, WHALE_SIZE_MAKERS_INDEX]) await createFillIndex(db, index);
  },
};

/** Whether `fills_wallet_ts` exists: it does unless a first sync deferred the fills indexes. */
export function walletIndexPresent(db: Kysely<unknown>, kind: StoreKind): Promise<boolean> {
  return indexPresent(db, kind, "fills_wallet_ts");
}

/** Whether the index `name` exists. */
export async function indexPresent(
  // biome-ignore lint/suspicious/noExplicitAny: a migration's Kysely<unknown> and a store's Kysely<Database> alike
  db: Kysely<any>,
  kind: StoreKind,
  name: string,
): Promise<boolean> {
  const found =
    kind === "sqlite"
      ? await sql`select name from sqlite_master where type = 'index' and name = ${name}`.execute(db)
      : await sql`select indexname from pg_indexes where schemaname = current_schema() and indexname = ${name}`.execute(
          db,
        );
  return found.rows.length > 0;
}
