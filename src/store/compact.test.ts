/** `compactStore`: SQLite's free pages given back (the file shrinks, nothing stored is lost); PostgreSQL: nothing to do. */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { compactStore } from "./compact.js";

describe.each(storeBackends)("compacting a store on $kind", (backend) => {
  it("gives SQLite's free pages back and keeps every row; has nothing to do on PostgreSQL", async () => {
    const { store, dispose } = await backend.open();
    try {
      await sql`insert into derive_state (name, value) values ('compact-probe', 7)`.execute(store.db);
      if (store.kind === "postgres") {
        expect(await compactStore(store)).toBeNull();
        return;
      }
      const handle = store.sqlite!;
      handle.exec("create table filler (v text)");
      const insert = handle.prepare("insert into filler (v) values (?)");
      handle.transaction(() => {
        for (let i = 0; i < 5_000; i++) insert.run("x".repeat(1_000));
      })();
      handle.exec("drop table filler");
      expect(handle.pragma("freelist_count", { simple: true })).toBeGreaterThan(100);
      const compacted = await compactStore(store);
      expect(compacted!.bytesAfter).toBeLessThan(compacted!.bytesBefore - 4_000_000);
      expect(handle.pragma("freelist_count", { simple: true })).toBe(0);
      const kept = await store.db
        .selectFrom("derive_state")
        .select("value")
        .where("name", "=", "compact-probe")
        .execute();
      expect(kept).toEqual([{ value: 7 }]);
    } finally {
      await dispose();
    }
  });
});
