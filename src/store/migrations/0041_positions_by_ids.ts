/**
 * Issue 49: the positions store their wallet, token and market as ids (src/store/id-keyed.ts), as the snapshots and
 * series have since 0036. On the 1,000,000-fill world they were 50 bytes a fill on SQLite with their indexes, mostly a
 * 42-character address, a 78-digit token id and a 66-character condition id in every row and again in every index
 * entry. The rows move to `position_rows` (key: wallet and token); the two reads' indexes are made again on the ids:
 * a wallet's positions by status and close (`positions_wallet_closed`, 0021) and a market's open positions read from
 * the index alone (`positions_condition_holders`, 0025).
 */
import type { Kysely } from "kysely";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { createIdKeyedIndexes, moveToIds, type MovedTable } from "./move-to-ids.js";

const POSITIONS: MovedTable = {
  columns: [
    ["wallet", "id"],
    ["token_id", "id"],
    ["condition_id", "id"],
    ["outcome_index", "int"],
    ["shares", "int"],
    ["avg_price", "real"],
    ["total_bought", "int"],
    ["realized_pnl", "int"],
    ["fees", "int"],
    ["first_ts", "int"],
    ["last_ts", "int"],
    ["closed_ts", "int", "null"],
    ["status", "text"],
  ],
  key: ["wallet", "token_id"],
};

/** The positions' indexes on their rows table, by the columns readers know. */
export const POSITION_INDEXES = {
  positions_wallet_closed: ["wallet", "status", "closed_ts", "first_ts"],
  positions_condition_holders: ["condition_id", "status", "wallet", "outcome_index", "shares", "avg_price"],
} as const;

export const positionsByIds: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    await moveToIds(db, kind, "positions", POSITIONS);
    await createIdKeyedIndexes(db, "positions", POSITION_INDEXES);
  },
};
