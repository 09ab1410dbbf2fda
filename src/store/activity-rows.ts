/**
 * Wallet activity written in its compact layout (src/store/activity-layout.ts) through src/store/compact-writer.ts.
 * SQLite numbers each new row (its rows are keyed by wallet, time and id, not by a row id).
 */
import type { Insertable } from "kysely";
import { ACTIVITY_ROWS, activityKeySql, compactActivity } from "./activity-layout.js";
import { type CompactTable, insertCompactRows } from "./compact-writer.js";
import type { StoreTransaction } from "./database.js";
import { FILL_DICTIONARIES } from "./fill-layout.js";
import type { WalletActivityTable } from "./schema.js";

type NewActivity = Insertable<WalletActivityTable>;

const STAGING = `${ACTIVITY_ROWS}_staged`;

const ACTIVITY_TABLE: CompactTable<NewActivity> = {
  table: ACTIVITY_ROWS,
  stored: [
    "key_text",
    "source",
    "type",
    "outcome_index",
    "size",
    "usd",
    "price",
    "ts",
    "tx_hash",
    "tx_text",
    "log_index",
    "neg_risk_market_id",
    "index_set",
    "fee",
  ],
  refs: [
    { id: "wallet_id", text: "wallet", dictionary: FILL_DICTIONARIES.addresses },
    { id: "condition_ref", text: "condition_id", dictionary: FILL_DICTIONARIES.conditions },
    { id: "token_ref", text: "token_id", dictionary: FILL_DICTIONARIES.tokens },
  ],
  compact: compactActivity,
  key: (row) => row.activity_key,
  keySql: activityKeySql("postgres", ACTIVITY_ROWS),
  numbered: "id",
  staging: {
    name: STAGING,
    definition: `create temp table if not exists ${STAGING} (
      ord bigint generated always as identity,
      key_text text collate "C", source smallint, type smallint, outcome_index smallint, size bigint, usd bigint,
      price double precision, ts bigint, tx_hash bytea, tx_text text collate "C", log_index integer,
      neg_risk_market_id text collate "C", index_set text collate "C", fee bigint,
      wallet text collate "C", condition_id text collate "C", token_id text collate "C"
    ) on commit delete rows`,
  },
};

/** Inserts activity rows, skipping those whose `activity_key` is already stored; returns the new ones. */
export function insertCompactActivity(tx: StoreTransaction, rows: readonly NewActivity[]): Promise<NewActivity[]> {
  return insertCompactRows(tx, ACTIVITY_TABLE, rows);
}
