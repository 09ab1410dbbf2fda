/**
 * The bench world in PostgreSQL, for the scaled mode's column of bench/api.bench.ts: a database of its own
 * (BENCH_DATABASE_URL, default `postgres://postgres@127.0.0.1:5432/pelagic_bench`, created if missing) holding a copy
 * of the SQLite world store (support/world-store.ts), table by table, rows as stored: the derived tables too, so
 * nothing is derived again. Copying is the fastest correct way (COPY in binary through src/store/pg-copy.ts, the
 * fills' wallet and market indexes built once after their rows, as a first sync does); building the world again
 * through the ingest and the Deriver on PostgreSQL would take longer and give the same rows.
 *
 * The database records which world it holds (file name, size and time of the SQLite store) and is reused while that
 * matches; otherwise its schema is emptied and loaded again. Checkpoints and the derive state say "first sync done",
 * so the API processes are ready (they keep their caches) as over a store the ingest has finished; and the tables are
 * vacuumed and analyzed after the load, as the end of a first sync leaves them (src/store/settle.ts).
 */
import { basename, dirname } from "node:path";
import { performance } from "node:perf_hooks";
import SqliteDatabase from "better-sqlite3";
import { sql } from "kysely";
import pg from "pg";
import { loadConfig } from "../../src/config/index.js";
import { SOURCES } from "../../src/ingest/sources.js";
import { saveCheckpoint } from "../../src/store/checkpoints.js";
import { openStore, type Store } from "../../src/store/database.js";
import { FIRST_SYNC_DERIVED, writeDeriveState } from "../../src/store/derive-state.js";
import { fillMonthsBetween, ensureFillPartitions } from "../../src/store/fill-partitions.js";
import { createDeferredFillIndexes, dropDeferredFillIndexes, FILL_ENDS } from "../../src/store/fills.js";
import { indexBuildMemory } from "../../src/ingest/ingest.js";
import { FILL_ROWS } from "../../src/store/fill-layout.js";
import { migrateStore } from "../../src/store/migrate.js";
import { migrations } from "../../src/store/migrations/index.js";
import { copyRows, sqlIdentifier } from "../../src/store/pg-copy.js";
import { settleAfterBulkWrite, storeTableNames } from "../../src/store/settle.js";

export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/pelagic_bench";

const ROWS_PER_COPY = 50_000;

async function ensureDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`create database ${sqlIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/** Which world: its folder's name, and its last fill (the bench writes a key into the store each run, nothing else). */
function worldStamp(sqlitePath: string, sqlite: SqliteDatabase.Database): string {
  const last = sqlite.prepare(`select ${FILL_ENDS.lastId} as id, ${FILL_ENDS.latestTs} as ts`).get() as {
    id: number;
    ts: number;
  };
  // The layout too: a world copied under an earlier migration is copied again.
  // Settled: loaded by code that vacuums after the load (a world loaded before is loaded again).
  return `${basename(dirname(sqlitePath))} ${last.id} ${last.ts} ${Object.keys(migrations).at(-1)} settled`;
}

/** Read each run again: the Premium key the bench has just created in the world's store (support/bench-fixtures.ts). */
const KEY_TABLES = ["accounts", "api_keys"];

async function heldWorld(store: Store): Promise<string | undefined> {
  const result = await sql<{ stamp: string }>`select stamp from bench_world`.execute(store.db).catch(() => undefined);
  return result?.rows[0]?.stamp;
}

/** The PostgreSQL URL of a database holding the world of `sqlitePath`, loading it there when it does not yet. */
export async function preparePostgresWorld(
  sqlitePath: string,
  log: (line: string) => void = console.log,
): Promise<string> {
  const url = BENCH_DATABASE_URL;
  await ensureDatabase(url);
  const sqlite = new SqliteDatabase(sqlitePath, { readonly: true });
  const store = await openStore({ kind: "postgres", databaseUrl: url, poolSize: 2 });
  try {
    const stamp = worldStamp(sqlitePath, sqlite);
    if ((await heldWorld(store)) === stamp) {
      await copyTables(
        store,
        sqlite,
        (table) => KEY_TABLES.includes(table),
        () => undefined,
      );
      log(`reusing the world in ${new URL(url).pathname.slice(1)} (PostgreSQL)`);
      return url;
    }
    const started = performance.now();
    await sql`drop schema public cascade`.execute(store.db);
    await sql`create schema public`.execute(store.db);
    await migrateStore(store);
    await copyTables(store, sqlite, () => true, log);
    const now = Math.floor(Date.now() / 1000);
    // Whichever fills source the API processes' settings expect.
    for (const source of [SOURCES.markets, SOURCES.chain, SOURCES.dataApiTrades])
      await saveCheckpoint(store.db, source, "", now, true);
    await writeDeriveState(store.db, FIRST_SYNC_DERIVED, 1);
    // As the end of a first sync leaves a store: vacuumed and analyzed.
    await settleAfterBulkWrite(store);
    await sql`create table bench_world (stamp text not null)`.execute(store.db);
    await sql`insert into bench_world (stamp) values (${stamp})`.execute(store.db);
    log(`loaded the world into PostgreSQL (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    return url;
  } finally {
    sqlite.close();
    await store.close();
  }
}

/** The tables both stores have (SQLite's search index and the migrations' own tables are the stores' own). */
async function copyTables(
  store: Store,
  sqlite: SqliteDatabase.Database,
  selected: (table: string) => boolean,
  log: (line: string) => void,
): Promise<void> {
  // As the batch that ends a first sync builds them.
  const memory = indexBuildMemory(loadConfig({}));
  const inSqlite = new Set(
    sqlite
      .prepare("select name from sqlite_master where type = 'table'")
      .all()
      .map((r) => (r as { name: string }).name),
  );
  for (const name of await storeTableNames(store)) {
    if (name.startsWith("kysely_") || !inSqlite.has(name) || !selected(name)) continue;
    const rows = await store.transaction(async (tx) => {
      if (tx.raw.kind !== "postgres") throw new Error("a PostgreSQL store");
      const client = tx.raw.client;
      const columns = (
        await client.query<{ name: string }>(
          "select attname as name from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum",
          [name],
        )
      ).rows.map((r) => r.name);
      // The rows migrations seed are in the world's store too.
      await client.query(`truncate ${sqlIdentifier(name)}`);
      if (name === FILL_ROWS) {
        await dropDeferredFillIndexes(tx);
        const span = sqlite.prepare(`select ${FILL_ENDS.earliestTs} as first, ${FILL_ENDS.latestTs} as last`).get() as {
          first: number | null;
          last: number | null;
        };
        if (span.first !== null && span.last !== null)
          await ensureFillPartitions(
            client,
            fillMonthsBetween(span.first, span.last).map((m) => m.from),
          );
      }
      const select = sqlite.prepare(`select ${columns.map(sqlIdentifier).join(", ")} from ${sqlIdentifier(name)}`);
      let batch: Record<string, unknown>[] = [];
      let count = 0;
      for (const row of select.iterate() as Iterable<Record<string, unknown>>) {
        batch.push(row);
        if (batch.length === ROWS_PER_COPY) {
          count += await copyRows(client, name, columns, batch);
          batch = [];
        }
      }
      count += await copyRows(client, name, columns, batch);
      if (name === FILL_ROWS) await createDeferredFillIndexes(tx, memory);
      const sequence = columns.includes("id")
        ? (await client.query<{ name: string | null }>("select pg_get_serial_sequence($1, 'id') as name", [name]))
            .rows[0]?.name
        : null;
      if (sequence)
        await client.query(`select setval($1, greatest(1, (select max(id) from ${sqlIdentifier(name)})))`, [sequence]);
      return count;
    });
    if (rows > 0) log(`  ${name}: ${rows.toLocaleString("en-US")} rows`);
  }
}
