/**
 * Issue 49: the venue's per-wallet cache of open and closed positions stores its wallet, token and market as ids
 * (src/store/id-keyed.ts), as the venue's P&L points have since 0031. On the 1,000,000-fill world the closed ones
 * were 12 bytes a fill on SQLite, most of each row a 42-character address, a 78-digit token id and a 66-character
 * condition id. Both keep their key (wallet and token) and have no other index.
 */
import type { Kysely } from "kysely";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { moveToIds, type MovedTable } from "./move-to-ids.js";

const MARKET_TEXTS: MovedTable["columns"] = [
  ["title", "text", "null"],
  ["slug", "text", "null"],
  ["event_slug", "text", "null"],
  ["synced_at", "int"],
];

const VENUE_POSITIONS: MovedTable = {
  columns: [
    ["wallet", "id"],
    ["token_id", "id"],
    ["condition_id", "id"],
    ["outcome_index", "int"],
    ["size", "int"],
    ["avg_price", "real"],
    ["cur_price", "real"],
    ["initial_value", "int"],
    ["current_value", "int"],
    ["cash_pnl", "int"],
    ["realized_pnl", "int"],
    ["total_bought", "int"],
    ["redeemable", "int"],
    ["mergeable", "int"],
    ...MARKET_TEXTS,
  ],
  key: ["wallet", "token_id"],
};

const VENUE_CLOSED_POSITIONS: MovedTable = {
  columns: [
    ["wallet", "id"],
    ["token_id", "id"],
    ["condition_id", "id"],
    ["outcome_index", "int"],
    ["avg_price", "real"],
    ["cur_price", "real"],
    ["total_bought", "int"],
    ["realized_pnl", "int"],
    ["ts", "int"],
    ...MARKET_TEXTS,
  ],
  key: ["wallet", "token_id"],
};

export const venueCacheByIds: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    await moveToIds(db, kind, "venue_positions", VENUE_POSITIONS);
    await moveToIds(db, kind, "venue_closed_positions", VENUE_CLOSED_POSITIONS);
  },
};
