/**
 * Issue 24: `wallet_last_moves`, a wallet's latest fill in each market, so that last-moves reads one range of this
 * table's primary key (wallet, condition_id) instead of two index seeks per market of the wallet in the fills
 * (55-70 ms for the busiest wallets of the 10,000,000-fill world). The Deriver and `rebuild` keep it
 * (src/derive/wallet-last-moves.ts); this migration fills it from the fills already stored, so that a store derived
 * before it answers at once.
 */
import type { Kysely } from "kysely";
import { fillWalletLastMovesFromFills } from "../wallet-last-moves.js";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const walletLastMoves: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    await db.schema
      .createTable("wallet_last_moves")
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("condition_id", t.text, (c) => c.notNull())
      .addColumn("ts", t.int, (c) => c.notNull())
      .addColumn("fill_id", t.int, (c) => c.notNull())
      .addColumn("side", t.text, (c) => c.notNull())
      .addColumn("outcome_index", t.int, (c) => c.notNull())
      .addColumn("entry_type", t.text)
      .addColumn("size", t.int, (c) => c.notNull())
      .addColumn("usd", t.int, (c) => c.notNull())
      .addColumn("price", t.real, (c) => c.notNull())
      .addPrimaryKeyConstraint("wallet_last_moves_pk", ["wallet", "condition_id"])
      .execute();
    await fillWalletLastMovesFromFills(db, undefined, "table");
  },
};
