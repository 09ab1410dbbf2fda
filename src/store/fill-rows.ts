/**
 * Fills written in the compact layout (src/store/fill-layout.ts) through src/store/compact-writer.ts: each fill's
 * hashes, key, packed codes (src/store/fill-codes.ts) and price stored as the layout says, its addresses, market and token as
 * dictionary ids.
 */
import type { Insertable } from "kysely";
import { type CompactTable, insertCompactRows, takeWriteTurn, withoutStoredPlaces } from "./compact-writer.js";
import type { StoreTransaction } from "./database.js";
import {
  FILL_DICTIONARIES,
  FILL_ROWS,
  PLAIN_FILL_COLUMNS,
  fillCode,
  fillKeySql,
  fillsWithImpliedTx,
  storedFillKey,
  storedHash,
  storedPrice,
  storedRole,
} from "./fill-layout.js";
import { packFillCodes } from "./fill-codes.js";
import { ensureFillPartitions } from "./fill-partitions.js";
import { bucketOf, FILL_SPANS, recordFillSpans, SPAN_SECONDS } from "./fill-spans.js";
import { inSlices, placeholders, queryRows } from "./raw-sql.js";
import type { FillsTable } from "./schema.js";

type NewFill = Insertable<FillsTable>;

/** The columns a fill stores as the layout says, whatever the store. */
const STORED_COLUMNS = ["key_text", "tx_hash", "tx_text", ...PLAIN_FILL_COLUMNS] as const;

type CompactRow = Record<string, unknown>;

/**
 * A fill's values as `fill_rows` stores them, its dictionaries' values still as text: one object literal of a fixed
 * shape, no spread (per-row code: docs/decisions.md, "Object spreads in per-row code").
 */
function compactRow(fill: NewFill, txImplied: boolean): CompactRow {
  const tx = txImplied ? { bytes: null, text: null } : storedHash(fill.tx_hash);
  return {
    key_text: storedFillKey(fill),
    tx_hash: tx.bytes,
    tx_text: tx.text,
    log_index: fill.log_index,
    block_number: fill.block_number,
    outcome_index: fill.outcome_index,
    size: fill.size,
    usd: fill.usd,
    price: storedPrice(fill),
    fee: fill.fee,
    ts: fill.ts,
    codes: packFillCodes({
      side: fillCode("side", fill.side),
      entry_type: fillCode("entry_type", fill.entry_type),
      role: storedRole(fill.role),
      exchange_version: fill.exchange_version ?? null,
      source: fillCode("source", fill.source),
    }),
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

// Named anew with 0059: a session that staged the five code columns before the migration keeps its own temporary table.
const STAGING = `${FILL_ROWS}_packed_staged`;

const { addresses, conditions, tokens } = FILL_DICTIONARIES;

const FILL_TABLE: CompactTable<NewFill> = {
  table: FILL_ROWS,
  stored: STORED_COLUMNS,
  refs: [
    { id: "wallet_id", text: "wallet", dictionary: addresses },
    { id: "counterparty_id", text: "counterparty", dictionary: addresses },
    { id: "condition_ref", text: "condition_id", dictionary: conditions },
    { id: "token_ref", text: "token_id", dictionary: tokens },
  ],
  compact: (fill) => compactRow(fill, false),
  key: (fill) => fill.fill_key,
  keySql: fillKeySql("postgres", FILL_ROWS),
  staging: {
    name: STAGING,
    definition: `create temp table if not exists ${STAGING} (
      ord bigint generated always as identity,
      key_text text collate "C", tx_hash bytea, tx_text text collate "C",
      log_index integer, block_number integer, outcome_index smallint,
      size bigint, usd bigint, price double precision, fee bigint, ts bigint, codes smallint,
      wallet text collate "C", counterparty text collate "C", condition_id text collate "C", token_id text collate "C"
    ) on commit delete rows`,
  },
  prepare: (client, fills) =>
    ensureFillPartitions(
      client,
      fills.map((fill) => Number(fill.ts)),
    ),
};

/**
 * PostgreSQL: fill writers take turns (SQLite's transactions already do), so that ids come in the order spans are
 * kept, and a writer's look for stored fills sees every fill stored before its own.
 */
const FILL_WRITE_LOCK = 0x66696c73; // "fils"

/**
 * Inserts fills, skipping those whose `fill_key` is already stored; returns the new ones, in input order, each given
 * the id it was stored under. Their ids go into `fill_spans` in the same transaction (src/store/fill-spans.ts): each
 * above every id stored before, as the spans' rule needs, since concurrent writers on PostgreSQL wait for each other's
 * commit.
 */
export async function insertCompactFills(tx: StoreTransaction, fills: readonly NewFill[]): Promise<NewFill[]> {
  if (fills.length === 0) return [];
  await takeWriteTurn(tx, FILL_WRITE_LOCK);
  const unstored = await withoutStoredChainFills(tx, fills);
  const implied = fillsWithImpliedTx(unstored);
  const layout =
    implied.size === 0
      ? FILL_TABLE
      : { ...FILL_TABLE, compact: (fill: NewFill) => compactRow(fill, implied.has(fill)) };
  const stored: Array<{ id: number; ts: number }> = [];
  const fresh = await insertCompactRows(tx, layout, unstored, (id, fill) => {
    fill.id = id;
    stored.push({ id, ts: Number(fill.ts) });
  });
  await recordFillSpans(tx, stored);
  return fresh;
}

/**
 * The fills less the chain fills already stored, each chain fill once (the first given). `fill_rows` has no index on
 * a chain fill's key, its block and log (docs/decisions.md,
 * "A chain fill's key is checked among the fills of its time"): a place on the chain fixes the block, so the time, so
 * a stored one lies in the spans of its time's bucket, which are read whole (a sync's batch covers a few buckets, the
 * live feed's the newest). A fill keyed by its own text (the Data API's) passes: its key's unique index skips it if
 * stored.
 */
async function withoutStoredChainFills(tx: StoreTransaction, fills: readonly NewFill[]): Promise<NewFill[]> {
  const places = fills.map((fill) => (storedFillKey(fill) === null ? `${fill.block_number}:${fill.log_index}` : null));
  const buckets = new Set(fills.filter((_, i) => places[i] !== null).map((fill) => bucketOf(Number(fill.ts))));
  if (buckets.size === 0) return [...fills];
  // The buckets' time bounds also keep PostgreSQL's plan to the partitions that hold them.
  const stored = await inSlices([...buckets], (slice) =>
    queryRows<{ block_number: number; log_index: number }>(
      tx.db,
      tx.kind,
      `select f.block_number, f.log_index from ${FILL_SPANS} s
        join ${FILL_ROWS} f on f.id between s.first_id and s.last_id
        where s.bucket in ${placeholders(slice.length)} and f.key_text is null and f.ts >= ? and f.ts < ?`,
      [...slice, Math.min(...slice), Math.max(...slice) + SPAN_SECONDS],
    ),
  );
  return withoutStoredPlaces(
    fills,
    places,
    stored.map((row) => `${row.block_number}:${row.log_index}`),
  );
}
