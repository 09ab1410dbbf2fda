/**
 * Issue 49: the daily position snapshots, a wallet's fees, daily fill counts and last moves store each wallet and
 * market as its id (src/store/id-keyed.ts), as the P&L series have since 0031. On the 1,000,000-fill world the
 * snapshots alone were 108 bytes a fill on SQLite, mostly the 42-character address and 66-character condition id of
 * every row. Each table's rows are copied to its rows table with the ids (values not in the dictionaries yet are
 * added), in key order; the table is dropped and a view by its name reads the rows as before. The P&L series' views
 * are created again by the same rule (outer joins, which a query that reads no address leaves out).
 */
import { sql, type Kysely } from "kysely";
import { type IdKeyedTable, idKeyedViewSql } from "../id-keyed.js";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { moveToIds, type MovedTable } from "./move-to-ids.js";

/** The moved tables' columns (as they were at 0036), each with its type and whether it may be null, and their keys. */
const MOVED: Record<string, MovedTable> = {
  position_snapshots: {
    columns: [
      ["day", "int"],
      ["wallet", "id"],
      ["condition_id", "id"],
      ["yes_shares", "int"],
      ["yes_cost", "real"],
      ["no_shares", "int"],
      ["no_cost", "real"],
    ],
    key: ["day", "wallet", "condition_id"],
  },
  wallet_fees: {
    columns: [
      ["wallet", "id"],
      ["month", "text"],
      ["entry_type", "text"],
      ["role", "text"],
      ["fees", "int"],
      ["volume", "int"],
      ["fills", "int"],
      ["charged", "int"],
    ],
    key: ["wallet", "month", "entry_type", "role"],
  },
  wallet_daily_fills: {
    columns: [
      ["wallet", "id"],
      ["day", "int"],
      ["fills", "int"],
      ["usd", "int"],
    ],
    key: ["wallet", "day"],
  },
  wallet_last_moves: {
    columns: [
      ["wallet", "id"],
      ["condition_id", "id"],
      ["ts", "int"],
      ["fill_id", "int"],
      ["side", "text"],
      ["outcome_index", "int"],
      ["entry_type", "text", "null"],
      ["size", "int"],
      ["usd", "int"],
      ["price", "real"],
    ],
    key: ["wallet", "condition_id"],
  },
};

export const idKeyedTables: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    for (const table of Object.keys(MOVED) as IdKeyedTable[]) await moveToIds(db, kind, table, MOVED[table]!);
    for (const table of ["pnl_points", "venue_pnl_points"] as const) {
      await sql.raw(`drop view ${table}`).execute(db);
      await sql.raw(idKeyedViewSql(table)).execute(db);
    }
  },
};
