/**
 * The real backends tests run against: SQLite always, PostgreSQL when TEST_DATABASE_URL is set;
 * in-process platform always, Redis when TEST_REDIS_URL is set. With TEST_BACKENDS_ONLY=1 (`npm run
 * test:backends`, after `npm test` has run every case on SQLite and the in-process platform) only PostgreSQL
 * and Redis. Each opened backend is isolated (its own SQLite file, PostgreSQL database cloned from a migrated
 * template, or Redis key prefix) so test files can run in parallel.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { sql } from "kysely";
import pg from "pg";
import { afterEach, describe, inject } from "vitest";
import type { Clock } from "../../src/platform/clock.js";
import { createPlatform, type Platform } from "../../src/platform/index.js";
import { openStore, type Store, type StoreKind } from "../../src/store/database.js";
import { migrateStore } from "../../src/store/migrate.js";
import type { StoreMigration } from "../../src/store/migrations/column-types.js";
import { migrations } from "../../src/store/migrations/index.js";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
/**
 * Only the server backends: `storeBackends`, `platformBackends` and `processStoreKinds` leave out SQLite and the
 * in-process platform, and `describeLocal` suites (which open neither PostgreSQL nor Redis) are skipped.
 */
export const BACKENDS_ONLY = process.env.TEST_BACKENDS_ONLY === "1";
if (BACKENDS_ONLY && !(TEST_DATABASE_URL && TEST_REDIS_URL))
  throw new Error("TEST_BACKENDS_ONLY=1 needs TEST_DATABASE_URL and TEST_REDIS_URL: it would run no backend at all");

/** A suite that opens neither PostgreSQL nor Redis, in a file that others do: `npm run test:backends` skips it. */
export const describeLocal = describe.skipIf(BACKENDS_ONLY);

export interface StoreBackend {
  kind: StoreKind;
  /** A fresh, migrated (by `migrations`, else all), isolated store; `dispose` drops what it created. */
  open(options?: OpenOptions): Promise<{ store: Store; dispose(): Promise<void> }>;
}

interface OpenOptions {
  readonly migrations?: Readonly<Record<string, StoreMigration>>;
}

/** The migrations before `name`: a store as it stood before that migration landed. */
export function migrationsBefore(name: string): Record<string, StoreMigration> {
  if (!(name in migrations)) throw new Error(`no migration ${name}`);
  return Object.fromEntries(Object.entries(migrations).filter(([other]) => other < name));
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
}

/**
 * A SQLite store in the folder `dataDir`, removed with it, named as DATA_DIR=<dataDir> names it to a `pelagic`
 * command (so that a child process reads the store a test wrote).
 */
export function sqliteBackendIn(dataDir: string): StoreBackend {
  return {
    kind: "sqlite",
    async open(options = {}) {
      const store = await openStore({ kind: "sqlite", sqlitePath: join(dataDir, "pelagic.sqlite") });
      await migrateStore(store, options.migrations);
      return {
        store,
        async dispose() {
          await store.close();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  };
}

/** The local store: what a test that needs one store and is not about PostgreSQL opens. */
export const sqliteBackend: StoreBackend = {
  kind: "sqlite",
  open: (options) => sqliteBackendIn(mkdtempSync(join(tmpdir(), "pelagic-test-"))).open(options),
};

/**
 * This test file's PostgreSQL database for stores at an earlier migration, created for the first and dropped after
 * the file's last test; each such store takes a schema of its own in it. Not one database for all files: a migration
 * reads the catalog of every table of its database (Kysely's introspection), and failed with 3F000 ("schema ... does
 * not exist") when a file running alongside dropped a schema meanwhile.
 */
let fileDatabase: Promise<{ name: string; url: string }> | undefined;

/** One statement on TEST_DATABASE_URL's database, on a connection of its own (`create database`, `drop database`). */
export async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A database for tests. A commit does not wait for its WAL record to reach the disk (synchronous_commit off): the
 * database lives as long as the run, and the ingest tests commit often. Nothing else of PostgreSQL's changes.
 */
export async function createTestDatabase(name: string, template?: string): Promise<void> {
  await adminQuery(`create database ${name}${template ? ` template ${template}` : ""}`);
  await adminQuery(`alter database ${name} set synchronous_commit = off`);
}

function fileDatabaseUrl(): Promise<string> {
  fileDatabase ??= (async () => {
    const name = uniqueName("pelagic_file");
    await createTestDatabase(name);
    return { name, url: databaseUrlOf(name) };
  })();
  return fileDatabase.then((database) => database.url);
}

/** Drops this test file's database; test/support/setup.ts calls it after each file's last test. */
export async function dropFileDatabase(): Promise<void> {
  const database = await fileDatabase;
  fileDatabase = undefined;
  if (database) await adminQuery(`drop database if exists ${database.name} with (force)`);
}

/**
 * A store migrated by every migration, as a database cloned from this worker's template (`create database ...
 * template`: about a quarter of a second, where migrating a new schema took about a second, and the PostgreSQL half
 * of CI opens some 150 stores). The template is migrated once per worker, by the same migrateStore a store's first
 * start runs; a clone is migrated again at open, which finds nothing to do. Dropped by test/support/global-setup.ts.
 */
const TEMPLATE_SCHEMA = "pelagic_test";
let templateDatabase: Promise<string> | undefined;

function migratedTemplate(): Promise<string> {
  templateDatabase ??= (async () => {
    const name = uniqueName(`pelagic_template_${inject("testRun")}`);
    await createTestDatabase(name);
    const store = await openStore({ kind: "postgres", databaseUrl: databaseUrlOf(name), schema: TEMPLATE_SCHEMA });
    try {
      await migrateStore(store);
    } finally {
      await store.close();
    }
    return name;
  })();
  return templateDatabase;
}

/** TEST_DATABASE_URL with another database. */
export function databaseUrlOf(name: string): string {
  const url = new URL(TEST_DATABASE_URL as string);
  url.pathname = `/${name}`;
  return url.toString();
}

async function openMigratedClone(): Promise<{ store: Store; dispose(): Promise<void> }> {
  const template = await migratedTemplate();
  const name = uniqueName("pelagic_store");
  await createTestDatabase(name, template);
  const store = await openStore({
    kind: "postgres",
    databaseUrl: databaseUrlOf(name),
    schema: TEMPLATE_SCHEMA,
    poolSize: 4,
  });
  await migrateStore(store);
  return {
    store,
    async dispose() {
      await store.close();
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

/** A store at some earlier migration (`migrations`): a schema of its own in the test file's database. */
async function openSchemaAt(migrations: Readonly<Record<string, StoreMigration>>) {
  const schema = uniqueName("t");
  const databaseUrl = await fileDatabaseUrl();
  const store = await openStore({ kind: "postgres", databaseUrl, schema, poolSize: 4 });
  await migrateStore(store, migrations);
  return {
    store,
    async dispose() {
      // A read the app started in the background (a reload, a warm-up) may still hold a lock the drop wants:
      // PostgreSQL then ends one of them as a deadlock (40P01); the drop is tried again once it has.
      for (let attempt = 1; ; attempt++) {
        try {
          await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(store.db);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== "40P01" || attempt >= 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
        }
      }
      await store.close();
    },
  };
}

const postgresBackend: StoreBackend = {
  kind: "postgres",
  open: (options = {}) => (options.migrations ? openSchemaAt(options.migrations) : openMigratedClone()),
};

export const storeBackends: StoreBackend[] = BACKENDS_ONLY
  ? [postgresBackend]
  : TEST_DATABASE_URL
    ? [sqliteBackend, postgresBackend]
    : [sqliteBackend];

export interface PlatformBackend {
  kind: "memory" | "redis";
  open(clock?: Clock): Promise<{ platform: Platform; dispose(): Promise<void> }>;
}

/** The in-process platform: what a test that needs one platform and is not about Redis opens. */
export const memoryPlatform: PlatformBackend = {
  kind: "memory",
  async open(clock) {
    const platform = await createPlatform({ redisPrefix: "", cacheMaxEntries: 1000, cacheStaleSeconds: 3600 }, clock);
    return { platform, dispose: () => platform.close() };
  },
};

/** Deletes every key under a prefix (SCAN, never KEYS). */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

const redisPlatform: PlatformBackend = {
  kind: "redis",
  async open(clock) {
    const prefix = uniqueName("pelagic_test") + ":";
    const platform = await createPlatform(
      { redisUrl: TEST_REDIS_URL, redisPrefix: prefix, cacheMaxEntries: 1000, cacheStaleSeconds: 3600 },
      clock,
    );
    return {
      platform,
      async dispose() {
        await platform.close();
        await deleteRedisPrefix(TEST_REDIS_URL as string, prefix);
      },
    };
  },
};

export const platformBackends: PlatformBackend[] = BACKENDS_ONLY
  ? [redisPlatform]
  : TEST_REDIS_URL
    ? [memoryPlatform, redisPlatform]
    : [memoryPlatform];

/** For a test file: opens platforms that are disposed after each test. */
export function platformsPerTest(): (backend: PlatformBackend, clock?: Clock) => Promise<Platform> {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (disposers.length) await disposers.pop()?.();
  });
  return async (backend, clock) => {
    const { platform, dispose } = await backend.open(clock);
    disposers.push(dispose);
    return platform;
  };
}
