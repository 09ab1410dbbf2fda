/**
 * Stores for tests that run `pelagic` as a child process: a SQLite file in a fresh DATA_DIR always, and a fresh
 * PostgreSQL database (created and dropped here) when TEST_DATABASE_URL is set (only the latter with
 * TEST_BACKENDS_ONLY=1). `env` points the process at it; `open` reads it alongside (once the process has migrated
 * it), `checksum` reads what it stored.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeChecksum, type StoreChecksum } from "../../src/store/checksum.js";
import { openStore, type Store, type StoreKind } from "../../src/store/database.js";
import {
  BACKENDS_ONLY,
  TEST_DATABASE_URL,
  adminQuery,
  createTestDatabase,
  databaseUrlOf,
  uniqueName,
} from "./backends.js";

export interface ProcessStore {
  readonly kind: StoreKind;
  /** DATA_DIR and DATABASE_URL for the child process. */
  readonly env: Record<string, string>;
  open(): Promise<Store>;
  checksum(): Promise<StoreChecksum>;
  dispose(): Promise<void>;
}

export const processStoreKinds: StoreKind[] = BACKENDS_ONLY
  ? ["postgres"]
  : TEST_DATABASE_URL
    ? ["sqlite", "postgres"]
    : ["sqlite"];

export async function openProcessStore(kind: StoreKind): Promise<ProcessStore> {
  const dataDir = mkdtempSync(join(tmpdir(), "pelagic-process-"));
  if (kind === "sqlite") {
    const sqlitePath = join(dataDir, "pelagic.sqlite");
    return processStore(
      kind,
      { DATA_DIR: dataDir, DATABASE_URL: "" },
      () => openStore({ kind: "sqlite", sqlitePath }),
      async () => rmSync(dataDir, { recursive: true, force: true }),
    );
  }
  const name = uniqueName("pelagic_process");
  await createTestDatabase(name);
  const databaseUrl = databaseUrlOf(name);
  return processStore(
    kind,
    { DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    () => openStore({ kind: "postgres", databaseUrl, poolSize: 2 }),
    async () => {
      await adminQuery(`drop database if exists ${name} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  );
}

function processStore(
  kind: StoreKind,
  env: Record<string, string>,
  open: () => Promise<Store>,
  dispose: () => Promise<void>,
): ProcessStore {
  return {
    kind,
    env,
    open,
    async checksum() {
      const store = await open();
      try {
        return await storeChecksum(store.db);
      } finally {
        await store.close();
      }
    },
    dispose,
  };
}
