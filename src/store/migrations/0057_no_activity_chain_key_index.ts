/**
 * Issue 49: `activity_rows` drops `activity_rows_chain_key`, the unique index on a chain operation's transaction hash
 * and log index (2.34 bytes a fill on the 1,000,000-fill SQLite world: a 32-byte hash in each of its entries), as
 * 0052 dropped the fills' (`fill_rows_chain_key`). The chain fixes an operation's wallet and time, so the writer finds
 * a replayed one among the stored rows of its wallet and time, through the table's key (wallet id, ts): SQLite's
 * primary key, PostgreSQL's `activity_rows_wallet_ts` (src/store/activity-rows.ts). Kept: `activity_rows_text_key`
 * (a Data API row's key is its text, which holds no time: only the index finds a copy listed at another time) and, on
 * SQLite, `activity_rows_id` (the writer's next id is the largest plus one, and the Deriver's watermarks and
 * incremental reads go by id). Nothing recreates the index: a fresh store runs 0045, then this.
 */
import { sql, type Kysely } from "kysely";
import type { StoreKind, StoreMigration } from "./column-types.js";

export const noActivityChainKeyIndex: StoreMigration = {
  async up(db: Kysely<unknown>, _kind: StoreKind) {
    await sql.raw("drop index if exists activity_rows_chain_key").execute(db);
  },
};
