/** The SQLite store's files are its owner's alone: the data folder 0700, the database, WAL and shared memory 0600. */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "./database.js";
import { migrateStore } from "./migrate.js";

const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe("SQLite store files", () => {
  it("creates the data folder 0700 and the database, its WAL and shared memory 0600, whatever the umask", async () => {
    const root = mkdtempSync(join(tmpdir(), "pelagic-modes-"));
    made.push(root);
    const dataDir = join(root, "data", "nested");
    const path = join(dataDir, "pelagic.sqlite");
    const umask = process.umask(0o022);
    try {
      const store = await openStore({ kind: "sqlite", sqlitePath: path, sqliteBackgroundCheckpoints: false });
      await migrateStore(store);
      expect(modeOf(join(root, "data"))).toBe(0o700);
      expect(modeOf(dataDir)).toBe(0o700);
      for (const file of ["pelagic.sqlite", "pelagic.sqlite-wal", "pelagic.sqlite-shm"])
        expect(modeOf(join(dataDir, file)), file).toBe(0o600);
      await store.close();
    } finally {
      process.umask(umask);
    }
  });
});
