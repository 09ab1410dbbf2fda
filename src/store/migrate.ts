import { Migrator, type Migration, type MigrationProvider, type MigrationResult } from "kysely";
import { migrations } from "./migrations/index.js";
import type { Store } from "./database.js";

/** Brings the store's schema to the latest migration. Safe to run at every start and from several processes. */
export async function migrateStore(store: Store): Promise<MigrationResult[]> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, migration] of Object.entries(migrations)) {
        out[name] = { up: (db) => migration.up(db, store.kind) };
      }
      return out;
    },
  };
  const migrator = new Migrator({
    db: store.db,
    provider,
    migrationTableSchema: store.schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed ?? "(unknown)"} failed: ${reason}`);
  }
  return results ?? [];
}
