/**
 * Stamp reads on both stores: a write through the store is seen by the next read; on SQLite a write of another
 * connection (another process) is seen once DATA_VERSION_CHECK_MS has passed, and not read again before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { openStore, type Store } from "./database.js";
import { DATA_VERSION_CHECK_MS, stampRow } from "./stamp-reads.js";

const STAMP = "select value from derive_state where name = ?";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(storeBackends)("stamp reads on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
  });
  afterAll(async () => dispose?.());

  const set = (on: Store, name: string, value: number) =>
    on.db
      .insertInto("derive_state")
      .values({ name, value })
      .onConflict((oc) => oc.column("name").doUpdateSet({ value }))
      .execute();
  const read = async (name: string) => (await stampRow<{ value: number }>(store, STAMP, [name]))?.value;

  it("sees each write through the store at the next read, and each parameter's own row", async () => {
    expect(await read("a")).toBeUndefined();
    await set(store, "a", 1);
    await set(store, "b", 10);
    expect(await read("a")).toBe(1);
    expect(await read("b")).toBe(10);
    for (let value = 2; value <= 5; value++) {
      await set(store, "a", value);
      expect(await read("a")).toBe(value);
      expect(await read("b")).toBe(10);
    }
    await store.transaction(async (tx) => {
      await tx.db.updateTable("derive_state").set({ value: 6 }).where("name", "=", "a").execute();
    });
    expect(await read("a")).toBe(6);
  });

  it.runIf(backend.kind === "sqlite")(
    "on SQLite, remembers a read until another connection's commit is seen, at most DATA_VERSION_CHECK_MS later",
    async () => {
      const other = await openStore({ kind: "sqlite", sqlitePath: store.sqlite?.name });
      try {
        await set(store, "c", 1);
        await sleep(DATA_VERSION_CHECK_MS + 5);
        const checked = performance.now();
        expect(await read("c")).toBe(1);
        await set(other, "c", 2);
        const remembered = await read("c");
        // Not read again within the window (unless this machine stalled past it between the two reads).
        if (performance.now() - checked < DATA_VERSION_CHECK_MS) expect(remembered).toBe(1);
        await sleep(DATA_VERSION_CHECK_MS + 5);
        expect(await read("c")).toBe(2);
      } finally {
        await other.close();
      }
    },
  );
});
