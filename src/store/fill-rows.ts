/**
 * Fills written in the compact layout (src/store/fill-layout.ts): each fill's addresses, market and token replaced by
 * their dictionary ids (new values added to the dictionaries in the same transaction), its hashes, key, enums and
 * price stored as the layout says. Idempotent by natural key: a replayed fill inserts nothing and is not returned.
 * SQLite: one prepared statement run per row, ids looked up once per value and call (a call is one transaction, so
 * no id outlives a rollback). PostgreSQL: the rows COPY'd into a temporary table, then set-based statements add the
 * new dictionary values and move the rows over with their ids, in input order.
 */
import type SqliteDatabase from "better-sqlite3";
import type { Insertable } from "kysely";
import type pg from "pg";
import type { StoreTransaction } from "./database.js";
import {
  FILL_DICTIONARIES,
  FILL_ROWS,
  PLAIN_FILL_COLUMNS,
  fillCode,
  fillKeySql,
  storedFillKey,
  storedHash,
  storedPrice,
} from "./fill-layout.js";
import { ensureFillPartitions } from "./fill-partitions.js";
import type { FillsTable } from "./schema.js";
import { copyRows } from "./pg-copy.js";
import { addToDictionarySql, dictionaryIds } from "./dictionaries.js";
import { rowBinder } from "./row-values.js";
import { preparedStatement } from "./sqlite-statements.js";
import { yieldToLoop } from "../platform/yield-to-loop.js";

type NewFill = Insertable<FillsTable>;

/** SQLite runs this many rows, then lets the event loop breathe (the driver is synchronous). */
const SQLITE_ROWS_PER_SLICE = 10_000;

/** The columns a fill stores as the layout says, whatever the store. */
const STORED_COLUMNS = ["key_text", "tx_hash", "tx_text", "order_hash", "order_text", ...PLAIN_FILL_COLUMNS] as const;
const ID_COLUMNS = ["wallet_id", "counterparty_id", "condition_ref", "token_ref"] as const;
const TEXT_COLUMNS = ["wallet", "counterparty", "condition_id", "token_id"] as const;

type CompactRow = Record<string, unknown>;

/**
 * A fill's values as `fill_rows` stores them, its dictionaries' values still as text: one object literal of a fixed
 * shape, no spread (per-row code: docs/decisions.md, "Object spreads in per-row code").
 */
function compactRow(fill: NewFill): CompactRow {
  const tx = storedHash(fill.tx_hash);
  const order = storedHash(fill.order_hash);
  return {
    key_text: storedFillKey(fill),
    tx_hash: tx.bytes,
    tx_text: tx.text,
    order_hash: order.bytes,
    order_text: order.text,
    source: fillCode("source", fill.source),
    log_index: fill.log_index,
    block_number: fill.block_number,
    role: fill.role,
    outcome_index: fill.outcome_index,
    side: fillCode("side", fill.side),
    size: fill.size,
    usd: fill.usd,
    price: storedPrice(fill),
    fee: fill.fee,
    ts: fill.ts,
    entry_type: fillCode("entry_type", fill.entry_type),
    exchange_version: fill.exchange_version,
    wallet: fill.wallet,
    counterparty: fill.counterparty,
    condition_id: fill.condition_id,
    token_id: fill.token_id,
    wallet_id: null,
    counterparty_id: null,
    condition_ref: null,
    token_ref: null,
  };
}

/** Inserts fills, skipping those whose `fill_key` is already stored; returns the new ones, in input order. */
export function insertCompactFills(tx: StoreTransaction, fills: readonly NewFill[]): Promise<NewFill[]> {
  if (fills.length === 0) return Promise.resolve([]);
  return tx.raw.kind === "sqlite" ? sqliteInsert(tx.raw.handle, fills) : postgresInsert(tx.raw.client, fills);
}

async function sqliteInsert(handle: SqliteDatabase.Database, fills: readonly NewFill[]): Promise<NewFill[]> {
  const columns = [...STORED_COLUMNS, ...ID_COLUMNS];
  const statement = preparedStatement(
    handle,
    `insert into ${FILL_ROWS} (${columns.join(", ")}) values (${columns.map(() => "?").join(", ")}) on conflict do nothing`,
  );
  const address = dictionaryIds(handle, FILL_DICTIONARIES.addresses);
  const condition = dictionaryIds(handle, FILL_DICTIONARIES.conditions);
  const token = dictionaryIds(handle, FILL_DICTIONARIES.tokens);
  const bind = rowBinder(columns);
  const values = new Array<unknown>(columns.length);
  const fresh: NewFill[] = [];
  for (let start = 0; start < fills.length; start += SQLITE_ROWS_PER_SLICE) {
    if (start > 0) await yieldToLoop();
    const end = Math.min(fills.length, start + SQLITE_ROWS_PER_SLICE);
    for (let i = start; i < end; i++) {
      const fill = fills[i] as NewFill;
      const row = compactRow(fill);
      row.wallet_id = address(fill.wallet);
      row.counterparty_id = fill.counterparty == null ? null : address(fill.counterparty);
      row.condition_ref = condition(fill.condition_id);
      row.token_ref = token(fill.token_id);
      bind(row, values);
      if (statement.run(values).changes > 0) fresh.push(fill);
    }
  }
  return fresh;
}

// Named anew with 0042: a session that staged the text columns before the migration keeps its own temporary table.
const STAGING = `${FILL_ROWS}_staged`;

/** The staging table: the stored columns, the dictionaries' values as text, and the input order. */
const STAGING_TABLE = `create temp table if not exists ${STAGING} (
  ord bigint generated always as identity,
  key_text text collate "C", tx_hash bytea, tx_text text collate "C", order_hash bytea, order_text text collate "C",
  source smallint, log_index integer, block_number bigint, role text collate "C", outcome_index smallint,
  side smallint, size bigint, usd bigint, price double precision, fee bigint, ts bigint,
  entry_type smallint, exchange_version smallint,
  wallet text collate "C", counterparty text collate "C", condition_id text collate "C", token_id text collate "C"
) on commit delete rows`;

async function postgresInsert(client: pg.PoolClient, fills: readonly NewFill[]): Promise<NewFill[]> {
  await ensureFillPartitions(
    client,
    fills.map((fill) => Number(fill.ts)),
  );
  await client.query(STAGING_TABLE);
  await client.query(`truncate ${STAGING}`);
  await copyRows(client, STAGING, [...STORED_COLUMNS, ...TEXT_COLUMNS], fills.map(compactRow));
  const { addresses, conditions, tokens } = FILL_DICTIONARIES;
  await client.query(
    addToDictionarySql(
      addresses,
      `select wallet as v from ${STAGING} union select counterparty from ${STAGING} where counterparty is not null`,
    ),
  );
  await client.query(addToDictionarySql(conditions, `select distinct condition_id as v from ${STAGING}`));
  await client.query(addToDictionarySql(tokens, `select distinct token_id as v from ${STAGING}`));
  const stored = STORED_COLUMNS.join(", ");
  const result = await client.query<{ key: string }>(
    `insert into ${FILL_ROWS} (${stored}, ${ID_COLUMNS.join(", ")})
    select ${STORED_COLUMNS.map((c) => `s.${c}`).join(", ")}, w.id, c.id, m.id, t.id
    from ${STAGING} s
    join ${addresses.table} w on w.${addresses.column} = s.wallet
    left join ${addresses.table} c on c.${addresses.column} = s.counterparty
    join ${conditions.table} m on m.${conditions.column} = s.condition_id
    join ${tokens.table} t on t.${tokens.column} = s.token_id
    order by s.ord
    on conflict do nothing
    returning ${fillKeySql("postgres", FILL_ROWS)} as key`,
  );
  // A key repeated within the batch is inserted once and reported once.
  const inserted = new Set(result.rows.map((r) => r.key));
  return fills.filter((fill) => inserted.delete(fill.fill_key));
}
