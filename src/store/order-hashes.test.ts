/**
 * Migration 0049 (src/store/migrations/0049_no_order_hashes.ts): `fill_rows` stops holding order hashes. A store
 * whose chain fills hold them, as a sync wrote them before, migrates: the columns are gone, every fill reads back
 * through the view as before, and the rows are written afresh without the hashes' bytes. A store that holds none
 * migrates in place. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { columnsOf, fillRowsAsBefore0050, insertFillsBefore0051 } from "../../test/support/earlier-layout.js";
import type { Store } from "./database.js";
import { chainFillKey } from "./fill-layout.js";
import { insertFills, type NewFill } from "./fills.js";
import { migrateStore } from "./migrate.js";
import { queryRows } from "./raw-sql.js";
import { newFill } from "./testing/new-fill.js";

const FILLS = 2_000;
const HASH_BYTES = 32;

const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

/** Chain fills one a block (each keeps its transaction hash), and a Data API fill. */
function someFills(): NewFill[] {
  const chain = Array.from({ length: FILLS }, (_, i) =>
    newFill({
      fill_key: chainFillKey(70_000_000 + i, 5),
      tx_hash: hash(i + 1),
      log_index: 5,
      block_number: 70_000_000 + i,
      ts: 1_770_000_000 + 2 * i,
    }),
  );
  return [...chain, newFill({ fill_key: "data:0xabc:1", source: "data_api", tx_hash: hash(99_999) })];
}

const viewRows = (store: Store) =>
  queryRows<Record<string, unknown>>(store.db, store.kind, "select * from fills order by id", []);

/** Gives back `fill_rows`' free space (the updates' old row versions, on PostgreSQL), so that its rows alone count. */
async function packFillRows(store: Store): Promise<void> {
  if (store.kind === "sqlite") store.sqlite!.exec("vacuum");
  else await sql`vacuum full fill_rows`.execute(store.db);
}

/** The bytes of `fill_rows`' pages (of every partition, on PostgreSQL). */
async function rowBytes(store: Store): Promise<number> {
  const [row] = await queryRows<{ bytes: number | string }>(
    store.db,
    store.kind,
    store.kind === "sqlite"
      ? "select sum(pgsize) as bytes from dbstat where name = 'fill_rows'"
      : "select sum(pg_relation_size(inhrelid)) as bytes from pg_inherits where inhparent = 'fill_rows'::regclass",
    [],
  );
  return Number(row!.bytes);
}

describe.each(storeBackends)("order hashes, on $kind", (backend) => {
  it("leave fill_rows with migration 0049: every fill reads back as before, the rows written without them", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0049_no_order_hashes") });
    try {
      await insertFillsBefore0051(store, someFills());
      await fillRowsAsBefore0050(store);
      // As a sync wrote them before 0049: a chain fill's order hash as 32 bytes; one written not canonically, as text.
      await sql`update fill_rows set order_hash = tx_hash where key_text is null`.execute(store.db);
      await sql`update fill_rows set order_text = 'an order hash as text' where key_text is not null`.execute(store.db);
      const read = await viewRows(store);
      await packFillRows(store);
      const withHashes = await rowBytes(store);
      await migrateStore(store);
      expect(await columnsOf(store, "fill_rows")).not.toContain("order_hash");
      expect(await columnsOf(store, "fill_rows")).not.toContain("order_text");
      expect(await viewRows(store)).toEqual(read);
      expect(withHashes - (await rowBytes(store))).toBeGreaterThan(FILLS * HASH_BYTES * 0.8);
      await store.transaction((tx) => insertFills(tx, [newFill({ fill_key: chainFillKey(80_000_000, 1) })]));
      expect(await viewRows(store)).toHaveLength(FILLS + 2);
    } finally {
      await dispose();
    }
  });

  it("are dropped in place where no fill holds one", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0049_no_order_hashes") });
    try {
      await insertFillsBefore0051(store, someFills());
      await fillRowsAsBefore0050(store);
      const read = await viewRows(store);
      await migrateStore(store);
      expect(await columnsOf(store, "fill_rows")).not.toContain("order_hash");
      expect(await viewRows(store)).toEqual(read);
    } finally {
      await dispose();
    }
  });
});
