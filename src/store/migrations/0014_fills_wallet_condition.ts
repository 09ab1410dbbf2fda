/**
 * Issue 25, the Premium drill-downs: the fills index (wallet, condition_id, ts). A wallet's trades in one market and
 * its summary at an instant then read only that wallet's fills in that market; over (wallet, ts) they walked every
 * fill of the wallet (the busiest wallets of the 10,000,000-fill world have tens of thousands) to keep a few.
 *
 * It is one of the indexes a first sync defers (`DEFERRED_FILL_INDEXES`, src/store/fills.ts, which takes this
 * definition): when a first sync has dropped those, it is left to be built with them when the sync reaches the head.
 */
import { sql, type Kysely } from "kysely";
import type { StoreKind, StoreMigration } from "./column-types.js";

export const FILLS_WALLET_CONDITION_INDEX = { name: "fills_wallet_condition_ts", columns: ["wallet", "condition_id", "ts"] } as const;

export const fillsWalletCondition: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    if (!(await walletIndexPresent(db, kind))) return;
    await db.schema.createIndex(FILLS_WALLET_CONDITION_INDEX.name).ifNotExists().on("fills").columns([...FILLS_WALLET_CONDITION_INDEX.columns]).execute();
  },
};

/** Whether `fills_wallet_ts` exists: it does unless a first sync deferred the fills indexes. */
async function walletIndexPresent(db: Kysely<unknown>, kind: StoreKind): Promise<boolean> {
  const found =
    kind === "sqlite"
      ? await sql`select name from sqlite_master where type = 'index' and name = 'fills_wallet_ts'`.execute(db)
      : await sql`select indexname from pg_indexes where schemaname = current_schema() and indexname = 'fills_wallet_ts'`.execute(db);
  return found.rows.length > 0;
}
