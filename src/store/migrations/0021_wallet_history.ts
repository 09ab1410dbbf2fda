/**
 * Issue 24, a busy wallet's history read one page at a time:
 * - `positions_wallet_closed` (wallet, status, closed_ts, first_ts), in place of `positions_wallet_status` (wallet,
 *   status), whose reads it serves as well. Closed positions newest (or oldest) first read one page of the index and
 *   its rows (ties of one second sorted among themselves) instead of every closed position of the wallet and a sort
 *   of them all; the hold figures read the positions closed within their window, and the open positions' count and
 *   first trades, from the index alone.
 * - `wallet_daily_fills`: a wallet's fills counted and their USD summed per UTC day, so that changes-since reads
 *   whole days from it and only the first and last day of its range from the fills (it read every fill of the range,
 *   up to 30 days). The Deriver and `rebuild` write it (src/derive/wallet-daily-fills.ts); this migration fills it
 *   from the fills already stored, so that a store derived before it answers at once.
 */
import type { Kysely } from "kysely";
import { fillWalletDailyFillsFromFills } from "../wallet-daily-fills.js";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const walletHistory: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    await db.schema
      .createIndex("positions_wallet_closed")
      .ifNotExists()
      .on("positions")
      .columns(["wallet", "status", "closed_ts", "first_ts"])
      .execute();
    await db.schema.dropIndex("positions_wallet_status").ifExists().execute();
    const t = columnTypes(kind);
    await db.schema
      .createTable("wallet_daily_fills")
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("day", t.int, (c) => c.notNull())
      .addColumn("fills", t.int, (c) => c.notNull())
      .addColumn("usd", t.int, (c) => c.notNull())
      .addPrimaryKeyConstraint("wallet_daily_fills_pk", ["wallet", "day"])
      .execute();
    await fillWalletDailyFillsFromFills(db, kind, undefined, "table");
  },
};
