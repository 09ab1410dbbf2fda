/**
 * Issue 49: a market's Smart Money trades (`/api/v2/market/{market_id}/trades`) walked the market's fills newest
 * first and read, for each, its row and its wallet's statistics, to keep one in twelve: at 10,000,000 fills those
 * reads ran from disk and the page's first answers took twice as long as at 1,000,000. `smart_wallet_ids` now holds
 * the Smart Money wallets' ids (src/store/smart-wallets.ts), and on SQLite `fills_condition_ts` gives way to
 * `fills_condition_ts_wallet`, which holds each fill's wallet too: the walk reads the index alone until it has its
 * page. PostgreSQL keeps `fills_condition_ts`: its index scan reads each entry's row anyway, and its B-tree stores
 * the repeated (market, time) keys deduplicated, in half the bytes of keys made unique by the wallet.
 */
import { sql, type Kysely } from "kysely";
import { FILL_ROWS } from "../fill-layout.js";
import { refillSmartWallets, SMART_WALLET_IDS } from "../smart-wallets.js";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { createFillIndex, type FillIndex, indexPresent } from "./0014_drilldown_fill_indexes.js";

const MARKET_INDEX = "fills_condition_ts";

export const MARKET_WALLET_INDEX: FillIndex = {
  name: "fills_condition_ts_wallet",
  columns: ["condition_ref", "ts", "wallet_id"],
};

export const smartWalletIds: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    await sql.raw(`create table ${SMART_WALLET_IDS} (wallet_id integer primary key)`).execute(db);
    await refillSmartWallets(db, kind);
    // A first sync under way has none of the deferred indexes yet: it builds the new one when it completes.
    if (kind === "postgres" || !(await indexPresent(db, kind, MARKET_INDEX))) return;
    await createFillIndex(db, MARKET_WALLET_INDEX, FILL_ROWS);
    await sql.raw(`drop index ${MARKET_INDEX}`).execute(db);
  },
};
