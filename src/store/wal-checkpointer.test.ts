import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./database.js";
import { insertFills, type NewFill } from "./fills.js";
import { migrateStore } from "./migrate.js";
import { newFill } from "./testing/new-fill.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function fileStore(backgroundCheckpoints: boolean): Promise<{ store: Store; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), "pelagic-wal-"));
  dirs.push(dir);
  const path = join(dir, "store.sqlite");
  const store = await openStore({
    kind: "sqlite",
    sqlitePath: path,
    sqliteBackgroundCheckpoints: backgroundCheckpoints,
  });
  await migrateStore(store);
  return { store, path };
}

/** About 8 MB of fills in one transaction: far below the writing connection's own auto-checkpoint mark. */
async function writeFills(store: Store): Promise<void> {
  const fills = Array.from(
    { length: 20_000 },
    (_, i): NewFill =>
      newFill({
        fill_key: `chain:${String(i).padStart(10, "0")}:000000`,
        tx_hash: `0x${"ab".repeat(32)}`,
        block_number: i,
        wallet: `0x${String(i).padStart(40, "1")}`,
        role: "maker",
        condition_id: `0x${"c".repeat(64)}`,
        token_id: "1".repeat(76),
        ts: 1_777_000_000 + i,
      }),
  );
  await store.transaction((tx) => insertFills(tx, fills));
}

async function databaseFileGrows(path: string, from: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (statSync(path).size > from + 4_000_000) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

describe("WAL checkpoints on a worker thread", () => {
  it("copy committed pages into the database file without the writing connection checkpointing", async () => {
    const { store, path } = await fileStore(true);
    const before = statSync(path).size;
    await writeFills(store);
    expect(await databaseFileGrows(path, before, 5_000)).toBe(true);
    await store.close();
    // The worker's connection closed first, so the store's own close removed the WAL as the last one out.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it("are the writing connection's own past its mark when switched off (the pages stay in the WAL)", async () => {
    const { store, path } = await fileStore(false);
    const before = statSync(path).size;
    await writeFills(store);
    expect(await databaseFileGrows(path, before, 500)).toBe(false);
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(4_000_000);
    await store.close();
  });
});

describe("a SQLite store's pages", () => {
  const pragma = (store: Store, name: string) => store.sqlite?.pragma(name, { simple: true });

  it("are 16 KiB in a new store, with the WAL's auto-checkpoint mark counted in them (1 GiB, or 200 MiB without the worker)", async () => {
    const withWorker = await fileStore(true);
    expect(pragma(withWorker.store, "page_size")).toBe(16_384);
    expect(pragma(withWorker.store, "wal_autocheckpoint")).toBe(65_536);
    await withWorker.store.close();
    const alone = await fileStore(false);
    expect(pragma(alone.store, "wal_autocheckpoint")).toBe(12_800);
    await alone.store.close();
  });

  it("keep the size an existing store was created with", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pelagic-wal-"));
    dirs.push(dir);
    const path = join(dir, "old.sqlite");
    const old = new SqliteDatabase(path);
    old.pragma("page_size = 4096");
    old.exec("create table t (x integer)");
    old.close();
    const store = await openStore({ kind: "sqlite", sqlitePath: path });
    expect(pragma(store, "page_size")).toBe(4_096);
    expect(pragma(store, "wal_autocheckpoint")).toBe(262_144);
    await store.close();
  });
});
