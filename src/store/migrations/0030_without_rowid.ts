/**
 * Issue 49, SQLite: the derived tables whose rows are keyed by text (a wallet, a market) and read only by that key
 * become WITHOUT ROWID tables. A rowid table with a composite primary key stores each key twice, in the row and
 * again in the key's automatic index: the 1,000,000-fill world's hourly P&L points cost 95 bytes a fill, about 45 of
 * them the wallet written a second time. Stored in the key's b-tree, each row holds its key once, and a read by key
 * is one seek instead of two. Only tables without other indexes (another index would hold the whole key instead of
 * a rowid). Rows are copied in key order; readers and writers are unchanged. PostgreSQL keeps its heaps.
 */
import type { Kysely } from "kysely";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { rebuildSqliteTable, withoutRowidDefinition } from "./sqlite-rebuild.js";

export const KEYED_BY_TEXT = [
  "pnl_points",
  "venue_pnl_points",
  "venue_positions",
  "venue_closed_positions",
  "position_snapshots",
  "market_daily_prices",
  "wallet_daily_fills",
  "wallet_fees",
  "wallet_last_moves",
] as const;

export const withoutRowid: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    if (kind !== "sqlite") return;
    for (const table of KEYED_BY_TEXT) await rebuildSqliteTable(db, table, withoutRowidDefinition);
  },
};
