/**
 * Issue 24, the busiest wallets' reads bounded by indexes: `fills (wallet, condition_id, ts, id)` finds a wallet's
 * markets one index seek each and the latest fill of each in one more (last-moves), instead of grouping every fill
 * the wallet ever made. It is one of the fills indexes a first sync defers (src/store/fills.ts).
 */
import type { Kysely } from "kysely";
import type { StoreMigration } from "./column-types.js";

export const busyWalletIndexes: StoreMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex("fills_wallet_condition_ts").ifNotExists().on("fills").columns(["wallet", "condition_id", "ts", "id"]).execute();
  },
};
