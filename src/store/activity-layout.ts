/**
 * The compact layout of wallet activity (issue 49, migration 0045), as fills have had since 0029
 * (src/store/fill-layout.ts). `activity_rows` holds an operation with:
 * - its wallet, market and token as ids from the fills' dictionaries;
 * - its transaction hash as a 32-byte blob (`tx_hash`), or as its text (`tx_text`) when not written canonically;
 * - no key of its own where the key follows from its transaction and log (`chainActivityKey`, every chain operation),
 *   and no index on that key since 0057 (src/store/activity-rows.ts looks among its wallet's rows of its time):
 *   `key_text` holds the others (the Data API's rewards and rebates);
 * - its source and type as small integers (`ACTIVITY_CODES`).
 * On SQLite the rows are stored WITHOUT ROWID by (wallet, time, id): a wallet's page of activity is a few adjacent
 * pages of the file, not a row looked up per operation; the writer gives each new row the next id, as the table's
 * row ids were before, from the table's counter (src/store/row-counters.ts, since 0062: no index holds the ids).
 * PostgreSQL keeps its heap and sequence.
 * The view `wallet_activity` gives every reader the rows as they always were.
 */
import type { Insertable } from "kysely";
import { FILL_CODES, FILL_DICTIONARIES, codeTextSql, hashText, storedCode, storedHash } from "./fill-layout.js";
import type { StoreKind } from "./migrations/column-types.js";
import type { ActivityType, WalletActivityTable } from "./schema.js";

export const ACTIVITY_ROWS = "activity_rows";

/** Every activity type, in the order of their codes. */
export const ACTIVITY_TYPES: readonly ActivityType[] = [
  "SPLIT",
  "MERGE",
  "REDEEM",
  "CONVERSION",
  "REWARD",
  "MAKER_REBATE",
  "TAKER_REBATE",
];

export const ACTIVITY_CODES = { source: FILL_CODES.source, type: ACTIVITY_TYPES } as const;

/** A chain operation's natural key: its transaction and its log's index there. */
export const chainActivityKey = (txHash: string, logIndex: number): string => `chain:${txHash}:${logIndex}`;

type KeyedActivity = Pick<Insertable<WalletActivityTable>, "activity_key" | "tx_hash" | "log_index">;

/** The key an operation stores: none when it follows from its (canonical) transaction hash and log, else its text. */
export function storedActivityKey(row: KeyedActivity, txStoredAsBytes: boolean): string | null {
  const derivable = txStoredAsBytes && row.log_index != null;
  return derivable && row.activity_key === chainActivityKey(row.tx_hash, row.log_index!) ? null : row.activity_key;
}

/** SQL over `activity_rows` under alias `a`: the natural key, as `chainActivityKey` writes it where not stored. */
export function activityKeySql(kind: StoreKind, a = "a"): string {
  return `coalesce(${a}.key_text, 'chain:' || ${hashText(kind, `${a}.tx_hash`, `${a}.tx_text`)} || ':' || ${a}.log_index)`;
}

/** The view's columns over `activity_rows` under alias `a`, the wallet's dictionary row `w` and the market's `m`. */
export function activityColumnsSql(kind: StoreKind): Record<keyof WalletActivityTable, string> {
  const text = kind === "postgres" ? ' collate "C"' : "";
  const { tokens } = FILL_DICTIONARIES;
  return {
    id: "a.id",
    activity_key: `(${activityKeySql(kind)})${text}`,
    source: `${codeTextSql(ACTIVITY_CODES, "source", "a")}${text}`,
    wallet: "w.address",
    type: `${codeTextSql(ACTIVITY_CODES, "type", "a")}${text}`,
    condition_id: "m.condition_id",
    token_id: `(select t.token_id from ${tokens.table} t where t.id = a.token_ref)`,
    outcome_index: "a.outcome_index",
    size: "a.size",
    usd: "a.usd",
    price: "a.price",
    ts: "a.ts",
    tx_hash: `(${hashText(kind, "a.tx_hash", "a.tx_text")})${text}`,
    log_index: "a.log_index",
    neg_risk_market_id: "a.neg_risk_market_id",
    index_set: "a.index_set",
    fee: "a.fee",
  };
}

/** The view `wallet_activity` (migration 0045 creates it from here: a change to it is a new migration). */
export function activityViewSql(kind: StoreKind): string {
  const columns = Object.entries(activityColumnsSql(kind)).map(([name, expression]) => `${expression} as ${name}`);
  return `create view wallet_activity as select
    ${columns.join(",\n    ")}
  from ${ACTIVITY_ROWS} a
  left join ${FILL_DICTIONARIES.addresses.table} w on w.id = a.wallet_id
  left join ${FILL_DICTIONARIES.conditions.table} m on m.id = a.condition_ref`;
}

/**
 * SQLite: the view's tables joined with wallets in the order of their ids, for the Deriver's replay of every wallet's
 * activity by wallet id, time and id without a sort (as `readFillPage` of src/derive/fill-pages.ts reads fills).
 */
export function activityInWalletOrderSql(): string {
  const { addresses, conditions } = FILL_DICTIONARIES;
  return `${addresses.table} w cross join ${ACTIVITY_ROWS} a on a.wallet_id = w.id
    left join ${conditions.table} m on m.id = a.condition_ref`;
}

/** An operation's values as `activity_rows` stores them, its dictionaries' values still as text (fixed shape, no spread). */
export function compactActivity(row: Insertable<WalletActivityTable>): Record<string, unknown> {
  const hash = storedHash(row.tx_hash);
  return {
    key_text: storedActivityKey(row, hash.bytes !== null),
    source: storedCode(ACTIVITY_CODES, "source", row.source),
    type: storedCode(ACTIVITY_CODES, "type", row.type),
    outcome_index: row.outcome_index,
    size: row.size,
    usd: row.usd,
    price: row.price,
    ts: row.ts,
    tx_hash: hash.bytes,
    tx_text: hash.text,
    log_index: row.log_index,
    neg_risk_market_id: row.neg_risk_market_id,
    index_set: row.index_set,
    fee: row.fee,
    wallet: row.wallet,
    condition_id: row.condition_id,
    token_id: row.token_id,
    wallet_id: null,
    condition_ref: null,
    token_ref: null,
    id: null,
  };
}
