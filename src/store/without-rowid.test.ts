/**
 * Migration 0030 on SQLite: the derived tables keyed by text are WITHOUT ROWID, with their rows, their keys still
 * refusing a second row, and a read by key searching the key's b-tree alone. (The P&L series among them are stored
 * by wallet id since 0031 and packed since 0047: src/store/pnl-series.test.ts; every other one by its wallet's or
 * market's id since, the markets' daily prices since 0056, each the same way.)
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { sqliteBackend } from "../../test/support/backends.js";
import { KEYED_BY_TEXT, withoutRowid } from "./migrations/0030_without_rowid.js";
import { insertRows } from "./derived-tables.js";
import { ID_KEYED, isIdKeyed } from "./id-keyed.js";
import { PNL_SERIES_TABLE } from "./pnl-series.js";

describe("derived tables keyed by text, on SQLite", () => {
  it("are WITHOUT ROWID, keep their rows and keys, and read by key from the key's b-tree", async () => {
    const { store, dispose } = await sqliteBackend.open();
    try {
      const tables = [
        ...KEYED_BY_TEXT.filter((t) => !isIdKeyed(t)),
        // The P&L series' rows tables are gone since 0047 (packed: src/store/pnl-series.test.ts).
        ...Object.values(ID_KEYED)
          .map((k) => k.rows)
          .filter((rows) => !rows.includes("pnl_point")),
        PNL_SERIES_TABLE,
      ].sort();
      const definitions = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
        where type = 'table' and name in (${sql.join(tables)})`.execute(store.db);
      expect(definitions.rows.map((r) => r.name).sort()).toEqual(tables);
      for (const { sql: definition } of definitions.rows) expect(definition).toMatch(/without rowid$/i);

      const day = {
        condition_id: `0x${"c".repeat(64)}`,
        day: 1_728_000_000,
        weighted: 1_200_000,
        shares: 2_000_000,
        trades: 3,
        usd: 1_500_000,
        close_ts: 1_728_000_600,
        close_id: 7,
        close_yes: 0.6,
      };
      await store.transaction((tx) => insertRows(tx, "market_daily_prices", [day]));
      await expect(store.transaction((tx) => insertRows(tx, "market_daily_prices", [day]))).rejects.toThrow(/UNIQUE/);
      // Run again, it changes nothing and keeps the row.
      await store.transaction((tx) => withoutRowid.up(tx.db as never, "sqlite"));
      expect(await store.db.selectFrom("market_daily_prices").selectAll().execute()).toEqual([day]);
      const plan = store
        .sqlite!.prepare(
          "explain query plan select trades from market_daily_price_rows where condition_ref = ? and day >= ?",
        )
        .all(1, 0)
        .map((r) => (r as { detail: string }).detail);
      expect(plan).toEqual([expect.stringMatching(/^SEARCH market_daily_price_rows USING PRIMARY KEY/)]);
    } finally {
      await dispose();
    }
  });
});
