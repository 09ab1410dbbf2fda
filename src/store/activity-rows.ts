/**
 * Wallet activity written in its compact layout (src/store/activity-layout.ts) through src/store/compact-writer.ts.
 * SQLite numbers each new row (its rows are keyed by wallet, time and id, not by a row id) from the table's counter
 * (migration 0062: no index on the ids). A chain operation already stored is found among its wallet's rows of its time
 * (migration 0057: no index on its transaction and log).
 */
import type { Insertable } from "kysely";
import { ACTIVITY_ROWS, activityKeySql, compactActivity, storedActivityKey } from "./activity-layout.js";
import { type CompactTable, insertCompactRows, takeWriteTurn, withoutStoredPlaces } from "./compact-writer.js";
import type { StoreTransaction } from "./database.js";
import { FILL_DICTIONARIES, storedHash, textPerStore } from "./fill-layout.js";
import { inSlices } from "./raw-sql.js";
import { lastIdSql } from "./row-counters.js";
import type { WalletActivityTable } from "./schema.js";
import { preparedStatement } from "./sqlite-statements.js";

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

/**
 * SQL scalar: the last activity id handed out, so that rows stored after a read of it have higher ids (the Deriver's
 * watermark): SQLite's counter, PostgreSQL's primary key's end (its writers take turns, so ids grow in commit order).
 */
export const LAST_ACTIVITY_ID = textPerStore((kind) =>
  kind === "sqlite" ? lastIdSql(ACTIVITY_ROWS) : `(select max(id) from ${ACTIVITY_ROWS})`,
);

/**
 * PostgreSQL: activity writers take turns, so that a writer's look for stored operations sees every one before it. A
 * transaction that writes fills too takes the fills' lock first (src/ingest/batch-writer.ts): always in that order.
 */
const ACTIVITY_WRITE_LOCK = 0x61637473; // "acts"

/** Inserts activity rows, skipping those whose `activity_key` is already stored; returns the new ones. */
export async function insertCompactActivity(
  tx: StoreTransaction,
  rows: readonly NewActivity[],
): Promise<NewActivity[]> {
  if (rows.length === 0) return [];
  await takeWriteTurn(tx, ACTIVITY_WRITE_LOCK);
  return insertCompactRows(tx, ACTIVITY_TABLE, await withoutStoredChainActivity(tx, rows));
}

/** A chain operation as the look for a stored copy takes it: its place (wallet, time, key) and stored values. */
interface ChainOperation {
  readonly place: string;
  readonly wallet: string;
  readonly ts: number;
  /** The transaction hash's 64 hex digits (canonical: stored as its 32 bytes). */
  readonly txHex: string;
  readonly logIndex: number;
}

/** The row's chain operation, or null when it stores its key's text (a unique index holds that key). */
function chainOperationOf(row: NewActivity): ChainOperation | null {
  const txStoredAsBytes = storedHash(row.tx_hash).bytes !== null;
  if (!txStoredAsBytes || storedActivityKey(row, true) !== null) return null;
  const ts = Number(row.ts);
  const place = `${row.wallet} ${ts} ${row.activity_key}`;
  return { place, wallet: row.wallet, ts, txHex: row.tx_hash.slice(2), logIndex: row.log_index! };
}

/** Operations looked for by one statement; the event loop runs between two (SQLite's driver is synchronous). */
const OPERATIONS_PER_LOOK = 10_000;

/**
 * The rows less the chain operations already stored, each chain operation once (the first given). `activity_rows`
 * has no index on a chain operation's key, its transaction and log (docs/decisions.md,
 * "A chain operation's key is checked among its wallet's rows of its time"): the chain fixes an operation's wallet
 * and time, so a stored copy lies under the table's key (wallet id, time): SQLite's primary key, PostgreSQL's
 * `activity_rows_wallet_ts`. A row keyed by its own text (the Data API's) passes: its key's unique index skips it if
 * stored.
 */
async function withoutStoredChainActivity(tx: StoreTransaction, rows: readonly NewActivity[]): Promise<NewActivity[]> {
  const operations = rows.map(chainOperationOf);
  const distinct = new Map<string, ChainOperation>();
  for (const operation of operations) if (operation) distinct.set(operation.place, operation);
  if (distinct.size === 0) return [...rows];
  const stored = await inSlices(
    [...distinct.values()],
    (slice) => storedChainOperations(tx, slice),
    OPERATIONS_PER_LOOK,
    true,
  );
  return withoutStoredPlaces(
    rows,
    operations.map((operation) => operation?.place ?? null),
    stored.map((operation) => operation.place),
  );
}

const { addresses } = FILL_DICTIONARIES;

/**
 * A stored copy of the operation `q` (its wallet's address, time, hash's bytes and log): the rows of its wallet (the
 * id the dictionary gives its address) and time, under the table's key.
 */
const storedCopySql = (q: { wallet: string; ts: string; txBytes: string; log: string }) =>
  `select 1 from ${ACTIVITY_ROWS} a
    where a.wallet_id = (select w.id from ${addresses.table} w where w.${addresses.column} = ${q.wallet})
      and a.ts = ${q.ts} and a.key_text is null and a.tx_hash = ${q.txBytes} and a.log_index = ${q.log} limit 1`;

/** SQLite: the operations as one JSON array of [wallet, ts, hash's hex, log], each element's index its `key`. */
const STORED_ON_SQLITE = `select q.key as i from json_each(?) q where exists (${storedCopySql({
  wallet: "q.value ->> 0",
  ts: "q.value ->> 1",
  txBytes: "unhex(q.value ->> 2)",
  log: "q.value ->> 3",
})})`;

/**
 * PostgreSQL: the operations as four arrays, each element's place (from 1) its `i`. A lateral subquery with a limit,
 * so that each operation is a look into the key's index: through `exists` PostgreSQL hashed every stored row when a
 * batch was large (a semi join: 75 ms for 5,000 operations over 200,000 rows, against 13 ms).
 */
const STORED_ON_POSTGRES = `select q.i
  from unnest($1::text[], $2::bigint[], $3::text[], $4::integer[]) with ordinality as q(wallet, ts, tx_hex, log_index, i)
  cross join lateral (${storedCopySql({
    wallet: "q.wallet",
    ts: "q.ts",
    txBytes: "decode(q.tx_hex, 'hex')",
    log: "q.log_index",
  })}) stored`;

/** Which of the operations are stored, in one statement. */
async function storedChainOperations(
  tx: StoreTransaction,
  operations: readonly ChainOperation[],
): Promise<ChainOperation[]> {
  if (tx.raw.kind === "sqlite") {
    const batch = JSON.stringify(operations.map((o) => [o.wallet, o.ts, o.txHex, o.logIndex]));
    const found = preparedStatement(tx.raw.handle, STORED_ON_SQLITE).all(batch) as Array<{ i: number }>;
    return found.map((row) => operations[row.i]!);
  }
  const found = await tx.raw.client.query<{ i: string }>(STORED_ON_POSTGRES, [
    operations.map((o) => o.wallet),
    operations.map((o) => o.ts),
    operations.map((o) => o.txHex),
    operations.map((o) => o.logIndex),
  ]);
  return found.rows.map((row) => operations[Number(row.i) - 1]!);
}
