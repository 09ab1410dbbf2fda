/**
 * Opens the store: SQLite through better-sqlite3 (embedded default) or PostgreSQL through `pg`,
 * both behind one Kysely<Database>. Both dialects return plain numbers for integer columns.
 */
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteAdapter, SqliteDialect, sql, type PostgresPool } from "kysely";
import pg from "pg";
import type { Database } from "./schema.js";
import type { StoreKind } from "./migrations/column-types.js";
import { touchPrivateFile } from "../platform/private-files.js";
import { WalCheckpointer } from "./wal-checkpointer.js";
import { reusingStatements } from "./sqlite-statements.js";

export type { StoreKind };

export interface StoreOptions {
  kind: StoreKind;
  /** SQLite file (or ":memory:"). */
  sqlitePath?: string;
  /** postgres:// URL. */
  databaseUrl?: string;
  poolSize?: number;
  /** PostgreSQL schema to work in (tests use one schema each); default `public`. */
  schema?: string;
  /** SQLite page cache in MiB; default 64. Bulk ingest into indexed tables is much faster when the indexes stay cached. */
  sqliteCacheMb?: number;
  /** SQLite file: WAL checkpoints on a worker thread (src/store/wal-checkpointer.ts); default true. */
  sqliteBackgroundCheckpoints?: boolean;
  /** Helper threads SQLite may start for one large sort (index builds, large ORDER BY); default 2. */
  sqliteSortThreads?: number;
}

/** The connection a transaction runs on, for measured bulk paths (prepared statements, COPY). */
export type RawConnection =
  | { readonly kind: "sqlite"; readonly handle: SqliteDatabase.Database }
  | { readonly kind: "postgres"; readonly client: pg.PoolClient };

export interface StoreTransaction {
  readonly kind: StoreKind;
  /** Kysely bound to this transaction. */
  readonly db: Kysely<Database>;
  readonly raw: RawConnection;
}

export interface Store {
  readonly kind: StoreKind;
  readonly db: Kysely<Database>;
  /** PostgreSQL schema in use, undefined on SQLite. */
  readonly schema: string | undefined;
  /**
   * The raw SQLite handle, for measured hot paths only (bulk inserts with prepared statements). It is the same
   * single connection Kysely uses, so statements run on it inside a Kysely transaction belong to that transaction.
   */
  readonly sqlite: SqliteDatabase.Database | undefined;
  /**
   * Runs `fn` in one transaction (committed when it resolves, rolled back when it throws) and hands it both a
   * Kysely bound to the transaction and the raw connection underneath.
   */
  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** pg returns 64-bit integers and numerics as strings; our values fit a double exactly. */
const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export async function openStore(options: StoreOptions): Promise<Store> {
  return options.kind === "postgres" ? openPostgres(options) : openSqlite(options);
}

/**
 * Page size of a new SQLite store: 16 KiB instead of SQLite's 4. Fewer, larger pages make the fills' b-trees
 * shallower and cheaper to append to and scan: a 3,000,000-fill write-path run went from 99-107k to 129-139k
 * fills/s, the deferred index build from 6.3-7.2 to 3.9-5.1 s (32 and 64 KiB measured no better).
 */
const SQLITE_PAGE_SIZE = 16_384;

/** Sets a SQLite connection's page cache, in MiB (a negative `cache_size` counts KiB). */
export function setSqliteCacheMb(database: SqliteDatabase.Database, mb: number): void {
  database.pragma(`cache_size = ${-Math.round(mb * 1024)}`);
}

/**
 * Runs `work` with the connection's page cache at `mb`, then puts it back. SQLite sorts (an index build, a grouping)
 * in runs as large as the page cache, then merges them: one run of 256 MiB sorted 1.6x slower than runs of 8 MiB,
 * which the sort's helper threads also share.
 */
export async function withSqliteCacheMb<T>(
  handle: SqliteDatabase.Database,
  mb: number,
  work: () => T | Promise<T>,
): Promise<T> {
  const cacheSize = handle.pragma("cache_size", { simple: true }) as number;
  setSqliteCacheMb(handle, mb);
  try {
    return await work();
  } finally {
    handle.pragma(`cache_size = ${cacheSize}`);
  }
}

/**
 * SQLite: a transaction that takes the write lock when it begins (BEGIN IMMEDIATE), waiting `busy_timeout` for
 * another process's writer. A deferred transaction that reads and then writes fails at once with SQLITE_BUSY when
 * another connection committed in between (its snapshot is stale; no wait helps), which an API process creating an
 * alert rule while the ingest process committed batches met as a 500. Kysely's transactions begin deferred.
 */
async function immediateTransaction<T>(db: Kysely<Database>, fn: (conn: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}

/**
 * A transaction for code that holds a Kysely rather than the store (the accounts' keys): on SQLite begun IMMEDIATE as
 * `store.transaction` is, elsewhere Kysely's own.
 */
export function writeTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.getExecutor().adapter instanceof SqliteAdapter
    ? immediateTransaction(db, fn)
    : db.transaction().execute(fn);
}

function openSqlite(options: StoreOptions): Store {
  const path = options.sqlitePath ?? ":memory:";
  if (path !== ":memory:") touchPrivateFile(path);
  const database = new SqliteDatabase(path);
  // Takes effect only while the file holds no table yet: a store keeps the page size it was created with.
  database.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("busy_timeout = 5000");
  setSqliteCacheMb(database, options.sqliteCacheMb ?? 64);
  database.pragma(`threads = ${options.sqliteSortThreads ?? 2}`);
  const checkpointer =
    path !== ":memory:" && options.sqliteBackgroundCheckpoints !== false ? new WalCheckpointer(path) : undefined;
  // Checkpointing the WAL every 200 MB instead of every 4 MB: bulk inserts into randomly keyed indexes dirty most
  // index pages, and each checkpoint copies them back into the database file and syncs it (measured 1.3-1.5x on
  // fills backfills at 40 MB; the demo's first sync spent about 6 s of 80 in those syncs at 40 MB). With the
  // checkpointer thread, this connection only checkpoints past 1 GB, when that thread lags. The mark counts pages.
  const pageSize = database.pragma("page_size", { simple: true }) as number;
  database.pragma(`wal_autocheckpoint = ${Math.round(((checkpointer ? 1024 : 200) * 1024 * 1024) / pageSize)}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(database) }) });
  const raw: RawConnection = { kind: "sqlite", handle: database };
  return {
    kind: "sqlite",
    db,
    schema: undefined,
    sqlite: database,
    transaction: (fn) => immediateTransaction(db, (conn) => fn({ kind: "sqlite", db: conn, raw })),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await checkpointer?.close();
      await db.destroy();
    },
  };
}

async function openPostgres(options: StoreOptions): Promise<Store> {
  if (!options.databaseUrl) throw new Error("PostgreSQL store needs a database URL");
  const schema = options.schema ?? "public";
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    types: pgTypes,
    options: `-c search_path=${schema}`,
  });
  // An idle client that loses its server must not crash the process.
  pool.on("error", () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  if (schema !== "public") await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  return {
    kind: "postgres",
    db,
    schema,
    sqlite: undefined,
    transaction: (fn) => postgresTransaction(pool, fn),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/** One pooled client for the whole transaction, with a Kysely that runs every query on it. */
async function postgresTransaction<T>(pool: pg.Pool, fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("begin");
    const onClient: PostgresPool = {
      connect: async () => ({ query: client.query.bind(client) as never, release: () => undefined }),
      end: async () => undefined,
    };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: onClient }) });
    const result = await fn({ kind: "postgres", db, raw: { kind: "postgres", client } });
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback").catch(() => (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
}
