/**
 * Issue 5, backfill throughput: a chain fill's natural key becomes its block and log index, zero-padded
 * (`chainFillKey`, src/store/fills.ts), so that keys sort in chain order and a backfill appends to the right edge
 * of `fills.fill_key`'s unique index (a transaction hash put each insert at a random place in it). Fills stored
 * before keep their row and get the new key, so a replay of their logs stays a no-op.
 */
import { sql, type Kysely } from "kysely";
import { CHAIN_KEY_BLOCK_DIGITS, CHAIN_KEY_LOG_DIGITS } from "../fills.js";
import type { StoreKind, StoreMigration } from "./column-types.js";

export const chainOrderedFillKeys: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const newKey =
      kind === "sqlite"
        ? sql`printf('chain:%0${sql.raw(String(CHAIN_KEY_BLOCK_DIGITS))}d:%0${sql.raw(String(CHAIN_KEY_LOG_DIGITS))}d', block_number, log_index)`
        : sql`'chain:' || lpad(block_number::text, ${sql.lit(CHAIN_KEY_BLOCK_DIGITS)}, '0') || ':' || lpad(log_index::text, ${sql.lit(CHAIN_KEY_LOG_DIGITS)}, '0')`;
    await sql`update fills set fill_key = ${newKey} where source = 'chain' and block_number is not null and log_index is not null`.execute(
      db,
    );
  },
};
