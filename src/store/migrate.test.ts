import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./database.js";
import { migrateStore } from "./migrate.js";
import { migrations } from "./migrations/index.js";

const tablesOf = async (store: Store) =>
  (
    await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(store.db)
  ).rows.map((r) => r.name);

describe("migrateStore on SQLite", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const open = () => {
    const dir = mkdtempSync(join(tmpdir(), "pelagic-migrate-"));
    dirs.push(dir);
    return openStore({ kind: "sqlite", sqlitePath: join(dir, "store.sqlite") });
  };

  it("is all or nothing: a migration that fails after others ran leaves the store as it was", async () => {
    const store = await open();
    try {
      const before = await tablesOf(store);
      const failing = {
        ...migrations,
        "9999_fails_halfway": {
          async up(db: Parameters<(typeof migrations)[string]["up"]>[0]) {
            await sql`create table half_done (id integer)`.execute(db);
            throw new Error("stopped halfway");
          },
        },
      };
      await expect(migrateStore(store, failing)).rejects.toThrow(/9999_fails_halfway failed: stopped halfway/);
      expect(await tablesOf(store)).toEqual(before);
      // The next start migrates from scratch, without "table already exists".
      const results = await migrateStore(store);
      expect(results.map((r) => r.migrationName)).toEqual(Object.keys(migrations));
      expect(await tablesOf(store)).toContain("fill_rows");
    } finally {
      await store.close();
    }
  });
});
