/**
 * Migration 0030 on SQLite: the derived tables keyed by text are WITHOUT ROWID, with their rows, their keys still
 * refusing a second row, and a read by key searching the key's b-tree alone. (The P&L series among them are stored
 * by wallet id since 0031: src/store/wallet-keyed.test.ts.)
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { sqliteBackend } from "../../test/support/backends.js";
import { KEYED_BY_TEXT, withoutRowid } from "./migrations/0030_without_rowid.js";
import { WALLET_KEYED, isWalletKeyed } from "./wallet-keyed.js";

describe("derived tables keyed by text, on SQLite", () => {
  it("are WITHOUT ROWID, keep their rows and keys, and read by key from the key's b-tree", async () => {
    const { store, dispose } = await sqliteBackend.open();
    try {
      const tables = [
        ...KEYED_BY_TEXT.filter((t) => !isWalletKeyed(t)),
        ...Object.values(WALLET_KEYED).map((k) => k.rows),
      ].sort();
      const definitions = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
        where type = 'table' and name in (${sql.join(tables)})`.execute(store.db);
      expect(definitions.rows.map((r) => r.name).sort()).toEqual(tables);
      for (const { sql: definition } of definitions.rows) expect(definition).toMatch(/without rowid$/i);

      const day = { wallet: "0xw", day: 20_000, fills: 3, usd: 1_500_000 };
      await store.db.insertInto("wallet_daily_fills").values(day).execute();
      await expect(store.db.insertInto("wallet_daily_fills").values(day).execute()).rejects.toThrow(/UNIQUE/);
      // Run again, it changes nothing and keeps the row.
      await store.transaction((tx) => withoutRowid.up(tx.db as never, "sqlite"));
      expect(await store.db.selectFrom("wallet_daily_fills").selectAll().execute()).toEqual([day]);
      const plan = store
        .sqlite!.prepare("explain query plan select fills from wallet_daily_fills where wallet = ? and day >= ?")
        .all("0xw", 0)
        .map((r) => (r as { detail: string }).detail);
      expect(plan).toEqual([expect.stringMatching(/^SEARCH wallet_daily_fills USING PRIMARY KEY/)]);
    } finally {
      await dispose();
    }
  });
});
