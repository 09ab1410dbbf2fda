/**
 * SQLite's transactions take the write lock when they begin (src/store/database.ts): a transaction that reads and
 * then writes while another process writes the same file commits, the other process waiting its turn. Begun
 * deferred, the read's snapshot went stale when the other process committed first, and the write failed at once with
 * SQLITE_BUSY (an API process creating an alert rule while the ingest process committed).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "./database.js";

const dir = mkdtempSync(join(tmpdir(), "pelagic-sqlite-tx-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Another process writing one row into the file, waiting up to 10 s for the lock; resolves with its exit code. */
function writeFromAnotherProcess(path: string): Promise<number> {
  const sqlite = createRequire(import.meta.url).resolve("better-sqlite3");
  const script = `const D = require(${JSON.stringify(sqlite)}); const d = new D(${JSON.stringify(path)});
    d.pragma("busy_timeout = 10000"); d.prepare("insert into notes (text) values ('other')").run(); d.close();`;
  return new Promise((resolve) => spawn(process.execPath, ["-e", script], { stdio: "ignore" }).on("exit", resolve));
}

describe("SQLite transactions", () => {
  it("commit a read then a write while another process writes, which waits for the lock", async () => {
    const path = join(dir, "store.sqlite");
    const store = await openStore({ kind: "sqlite", sqlitePath: path });
    try {
      await sql`create table notes (id integer primary key, text text not null)`.execute(store.db);
      let other: Promise<number> | undefined;
      await store.transaction(async (tx) => {
        const before = await sql<{ n: number }>`select count(*) as n from notes`.execute(tx.db);
        other = writeFromAnotherProcess(path);
        // Long enough for the other process to start and try its write.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await sql`insert into notes (text) values (${`after ${before.rows[0]!.n}`})`.execute(tx.db);
      });
      expect(await other).toBe(0);
      const rows = await sql<{ text: string }>`select text from notes order by id`.execute(store.db);
      expect(rows.rows.map((r) => r.text)).toEqual(["after 0", "other"]);
    } finally {
      await store.close();
    }
  });
});
