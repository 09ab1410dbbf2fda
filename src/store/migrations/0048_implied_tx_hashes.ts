/**
 * Issue 49: a chain fill stores no transaction hash where it is the hash of the chain fill before it in its block
 * (`fillsWithImpliedTx`, src/store/fill-layout.ts): a match's fills share one transaction, whose logs are
 * consecutive in the block, so the view reads the hash at the nearest earlier fill that stores one (`fillTxHashSql`).
 * On the 1,000,000-fill world a fill's 32-byte hash was a third of its row, and 2.65 fills share a transaction.
 * Whale-size maker fills keep their hash: the whale makers' index covers the pages of whale trades with it (and takes
 * the key, block and log the view now reads).
 * SQLite: the table rebuilt without the implied hashes (packed pages; its indexes made again as they stood).
 * PostgreSQL: the hashes cleared, then the table rewritten once by narrowing its block number to a 4-byte integer
 * (Polygon's blocks number about 80 million; 2^31 is a century of 2-second blocks away): the cleared rows' old
 * versions leave the files, and the row loses the padding before its amounts and the natural key's index an 8-byte
 * column (on the 1M world 145.6 -> about 138 bytes a row, the key's entries 40.6 -> about 31).
 */
import { sql, type Kysely } from "kysely";
import { FILL_ROWS, type FillRowsVersion, fillsViewSql } from "../fill-layout.js";
import { whaleSizeMakerFills } from "../schema.js";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { createFillIndex, type FillIndex, indexPresent } from "./0014_drilldown_fill_indexes.js";
import { COMPACT_DEFERRED_FILL_INDEXES } from "./0029_compact_fills.js";
import { rebuildSqliteTable, sqliteColumns } from "./sqlite-rebuild.js";

export const WHALE_SIZE_MAKERS = "fills_whale_size_makers";

const WHALE_SIZE_MAKERS_BEFORE = COMPACT_DEFERRED_FILL_INDEXES.find((index) => index.name === WHALE_SIZE_MAKERS)!;

/** The whale makers' index, with the columns the view reads a fill's hash from (key, block, log) added. */
export const WHALE_SIZE_MAKERS_INDEX: FillIndex = {
  ...WHALE_SIZE_MAKERS_BEFORE,
  columns: [...WHALE_SIZE_MAKERS_BEFORE.columns, "key_text", "block_number", "log_index"],
};

/** SQL: the ids (and times) of the chain fills whose hash is the one of the chain fill before them in their block. */
const IMPLIED = `select id, ts from (
    select id, ts, tx_hash, tx_text, role, usd, lag(tx_hash) over run as before_hash, lag(ts) over run as before_ts
    from ${FILL_ROWS} where key_text is null
    window run as (partition by block_number order by log_index)
  ) r where tx_text is null and tx_hash = before_hash and ts = before_ts and not (${whaleSizeMakerFills("text")})`;

export const impliedTxHashes: StoreMigration = {
  up: (db: Kysely<unknown>, kind: StoreKind) =>
    rewriteFillRows(db, kind, {
      rewrite: () => (kind === "sqlite" ? rebuildSqlite(db) : rewritePostgres(db)),
      whaleIndex: WHALE_SIZE_MAKERS_INDEX,
      view: "implied-tx",
    }),
};

/**
 * A migration that writes `fill_rows` afresh (0048, 0050): the view dropped, the whale makers' index dropped (its
 * predicate or columns may change with the rows) and, if it stood, made again as `whaleIndex` after `rewrite`; then
 * statistics, and the view as of `view`.
 */
export async function rewriteFillRows(
  db: Kysely<unknown>,
  kind: StoreKind,
  steps: { rewrite: () => Promise<void>; whaleIndex: FillIndex; view: FillRowsVersion },
): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run("drop view fills");
  const standing = await indexPresent(db, kind, WHALE_SIZE_MAKERS);
  await run(`drop index if exists ${WHALE_SIZE_MAKERS}`);
  await steps.rewrite();
  if (standing) await createFillIndex(db, steps.whaleIndex, FILL_ROWS);
  if (kind === "postgres") await run(`analyze ${FILL_ROWS}`);
  await run(fillsViewSql(kind, steps.view));
}

async function rebuildSqlite(db: Kysely<unknown>): Promise<void> {
  const implied = "temp.fill_rows_implied_tx";
  await sql.raw(`create table ${implied} (id integer primary key)`).execute(db);
  await sql.raw(`insert into ${implied} select id from (${IMPLIED})`).execute(db);
  const columns = await sqliteColumns(db, FILL_ROWS);
  const select = columns
    .map((name) =>
      name === "tx_hash" ? `case when id in (select id from ${implied}) then null else tx_hash end as tx_hash` : name,
    )
    .join(", ");
  await rebuildSqliteTable(db, FILL_ROWS, (definition) => definition, { order: "id", select });
  await sql.raw(`drop table ${implied}`).execute(db);
}

async function rewritePostgres(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`update ${FILL_ROWS} f set tx_hash = null from (${IMPLIED}) r where f.id = r.id and f.ts = r.ts`)
    .execute(db);
  // A change of type: PostgreSQL writes every partition afresh (live rows only) and builds its indexes again.
  await sql.raw(`alter table ${FILL_ROWS} alter column block_number type integer`).execute(db);
}
