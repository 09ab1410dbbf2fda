/**
 * A store settled after a bulk write (src/store/settle.ts): on PostgreSQL every table of the store's schema is
 * vacuumed and analyzed (the fills' partitions' row counts then known to the planner); on SQLite nothing is written
 * (no statistics table appears, which would change SQLite's plans). A process that migrates a stored layout settles
 * it; one that migrates a fresh store (empty tables) does not. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { loadConfig } from "../config/index.js";
import { migrateConfiguredStore } from "../runtime/store.js";
import type { Store } from "./database.js";
import { migrations } from "./migrations/index.js";
import { insertFills } from "./fills.js";
import { settleAfterBulkWrite } from "./settle.js";
import { newFill } from "./testing/new-fill.js";

const FILLS = Array.from({ length: 3_000 }, (_, i) =>
  newFill({ fill_key: `k${i}`, log_index: i, tx_hash: `0x${i.toString(16)}`, ts: 1_770_000_000 + i * 60 }),
);

/** The store's tables (with rows of their own) that were not vacuumed and analyzed; SQLite: none, or its stat table. */
async function unsettledTables(store: Store): Promise<string[]> {
  if (store.kind === "sqlite") {
    const stat = await sql<{ name: string }>`select name from sqlite_master where name = 'sqlite_stat1'`.execute(
      store.db,
    );
    return stat.rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_stat_user_tables
    where schemaname = ${store.schema ?? "public"} and (last_vacuum is null or last_analyze is null)
      and relid in (select oid from pg_class where relkind = 'r') order by relname`.execute(store.db);
  return rows.map((r) => r.name);
}

describe.each(storeBackends)("settling a store after a bulk write, on $kind", (backend) => {
  it("vacuums and analyzes every table on PostgreSQL, and writes nothing on SQLite", async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.transaction((tx) => insertFills(tx, FILLS));
      await settleAfterBulkWrite(store);
      expect(await unsettledTables(store)).toEqual([]);
      if (store.kind === "sqlite") return;
      const schema = store.schema ?? "public";
      const partitions = await sql<{ name: string; tuples: number }>`
        select c.relname as name, c.reltuples as tuples
        from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = ${`${schema}.fill_rows`}::regclass`.execute(store.db);
      // The planner's row counts: analyzed, the fills' partitions hold every fill written.
      expect(partitions.rows.reduce((sum, p) => sum + Number(p.tuples), 0)).toBe(FILLS.length);
    } finally {
      await dispose();
    }
  });

  it("settles a stored layout the process migrated, and leaves a fresh store to autovacuum", async () => {
    const names = Object.keys(migrations);
    const config = loadConfig({ LOG_LEVEL: "silent" });
    const stored = await backend.open({ migrations: migrationsBefore(names.at(-1)!) });
    const fresh = await backend.open({ migrations: migrationsBefore(names[0]!) });
    try {
      await stored.store.transaction((tx) => insertFills(tx, FILLS));
      await migrateConfiguredStore(stored.store, config);
      expect(await unsettledTables(stored.store)).toEqual([]);
      await migrateConfiguredStore(fresh.store, config);
      const untouched = await unsettledTables(fresh.store);
      if (fresh.store.kind === "sqlite") expect(untouched).toEqual([]);
      else expect(untouched).toContain("markets");
    } finally {
      await stored.dispose();
      await fresh.dispose();
    }
  });
});
