import { Migrator, type Migration, type MigrationProvider, type MigrationResult } from "kysely";
import type { MigrationContext, StoreMigration } from "./migrations/column-types.js";
import { migrations as storeMigrations } from "./migrations/index.js";
import type { Store } from "./database.js";

/**
 * Brings the store's schema to the latest migration. Safe to run at every start and from several processes, and
 * all or nothing: a process stopped or failing in the middle leaves the store as it was before (PostgreSQL runs
 * the migrations in one transaction through Kysely; SQLite, which Kysely migrates statement by statement, in one
 * `begin immediate` of ours, which also makes a second process wait for the first instead of racing it).
 */
export async function migrateStore(
  store: Store,
  migrations: Readonly<Record<string, StoreMigration>> = storeMigrations,
  context: MigrationContext = {},
): Promise<MigrationResult[]> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, migration] of Object.entries(migrations)) {
        out[name] = { up: (db) => migration.up(db, store.kind, context) };
      }
      return out;
    },
  };
  const migrator = new Migrator({
    db: store.db,
    provider,
    migrationTableSchema: store.schema,
  });
  const sqlite = store.sqlite;
  sqlite?.exec("begin immediate");
  let outcome: Awaited<ReturnType<typeof migrator.migrateToLatest>> | undefined;
  try {
    outcome = await migrator.migrateToLatest();
  } finally {
    if (sqlite?.inTransaction) sqlite.exec(outcome && !outcome.error ? "commit" : "rollback");
  }
  const { error, results } = outcome;
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed ?? "(unknown)"} failed: ${reason}`);
  }
  return results ?? [];
}
