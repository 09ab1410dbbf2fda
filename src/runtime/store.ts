/**
 * The store the configuration names (SQLite in DATA_DIR, or PostgreSQL at DATABASE_URL), as every process opens it;
 * a SQLite process that does not ingest takes the smaller page cache (SQLITE_READ_CACHE_MB).
 */
import type { Config } from "../config/index.js";
import { secretBoxFromConfig } from "../alerts/webhooks/secret-box.js";
import { openStore, type Store } from "../store/database.js";
import { migrateStore } from "../store/migrate.js";
import { migrations } from "../store/migrations/index.js";
import { settleAfterBulkWrite } from "../store/settle.js";

export async function openConfiguredStore(
  config: Config,
  use: { ingests: boolean } = { ingests: true },
): Promise<Store> {
  return openStore({
    kind: config.store.kind,
    sqlitePath: config.store.sqlitePath,
    databaseUrl: config.store.databaseUrl,
    poolSize: config.store.poolSize,
    sqliteCacheMb: use.ingests ? config.store.sqliteCacheMb : config.store.sqliteReadCacheMb,
    sqliteSortThreads: config.store.sqliteSortThreads,
  });
}

/**
 * Brings the store's schema up to date as a configured process does: a migration that carries secrets over opens them
 * with the webhook key (ISW_WEBHOOK_KEY, or the key file in DATA_DIR). A stored layout that migrations rewrote (not a
 * fresh store, whose tables are empty) is then settled as after a first sync (src/store/settle.ts).
 */
export async function migrateConfiguredStore(store: Store, config: Config) {
  const results = await migrateStore(store, undefined, { openSecrets: () => secretBoxFromConfig(config) });
  const applied = results.filter((r) => r.status === "Success").length;
  if (applied > 0 && applied < Object.keys(migrations).length) await settleAfterBulkWrite(store);
  return results;
}

/** The streaming replica the API reads from (DATABASE_READ_URL), or null when there is none. */
export async function openConfiguredReadStore(config: Config): Promise<Store | null> {
  const url = config.store.databaseReadUrl;
  return url ? openStore({ kind: "postgres", databaseUrl: url, poolSize: config.store.poolSize }) : null;
}

/**
 * Opens the configured store, brings its schema up to date, hands it to `use` with the names of the migrations
 * just applied, and closes it.
 */
export async function withMigratedStore<T>(
  config: Config,
  use: (store: Store, applied: string[]) => Promise<T>,
): Promise<T> {
  const store = await openConfiguredStore(config);
  try {
    const results = await migrateConfiguredStore(store, config);
    return await use(
      store,
      results.filter((r) => r.status === "Success").map((r) => r.migrationName),
    );
  } finally {
    await store.close();
  }
}
