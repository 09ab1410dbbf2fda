/**
 * Migration 0030 on SQLite: the derived tables keyed by text are WITHOUT ROWID, with their rows, their keys still
 * refusing a second row, and a read by key searching the key's b-tree alone.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { sqliteBackend } from "../../test/support/backends.js";
import { KEYED_BY_TEXT, withoutRowid } from "./migrations/0030_without_rowid.js";

describe("derived tables keyed by text, on SQLite", () => {
  it("are WITHOUT ROWID, keep their rows and keys, and read by key from the key's b-tree", async () => {
    const { store, dispose } = await sqliteBackend.open();
    try {
      const definitions = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
        where type = 'table' and name in (${sql.join([...KEYED_BY_TEXT])})`.execute(store.db);
      expect(definitions.rows.map((r) => r.name).sort()).toEqual([...KEYED_BY_TEXT].sort());
      for (const { sql: definition } of definitions.rows) expect(definition).toMatch(/without rowid$/i);

      const point = { wallet: "0xw", resolution: "hour" as const, t: 3_600, pnl: 1.5 };
      await store.db.insertInto("pnl_points").values(point).execute();
      await expect(store.db.insertInto("pnl_points").values(point).execute()).rejects.toThrow(/UNIQUE/);
      // Run again, it changes nothing and keeps the row.
      await store.transaction((tx) => withoutRowid.up(tx.db as never, "sqlite"));
      expect(await store.db.selectFrom("pnl_points").selectAll().execute()).toEqual([point]);
      const plan = store
        .sqlite!.prepare("explain query plan select pnl from pnl_points where wallet = ? and resolution = ? and t >= ?")
        .all("0xw", "hour", 0)
        .map((r) => (r as { detail: string }).detail);
      expect(plan).toEqual([expect.stringMatching(/^SEARCH pnl_points USING PRIMARY KEY/)]);
    } finally {
      await dispose();
    }
  });
});
