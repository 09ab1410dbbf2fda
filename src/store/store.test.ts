import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { listCheckpoints, readCheckpoint, recordSourceError, saveCheckpoint } from "./checkpoints.js";
import type { Store } from "./database.js";
import { insertRows } from "./derived-tables.js";
import {
  chainFillKey,
  createDeferredFillIndexes,
  deferredFillIndexesPresent,
  dropDeferredFillIndexes,
  insertActivity,
  insertFills,
} from "./fills.js";
import { chainOrderedFillKeys } from "./migrations/0006_chain_ordered_fill_keys.js";
import { byteOrderText } from "./migrations/0007_byte_order_text.js";
import { plainRowIds } from "./migrations/0008_plain_row_ids.js";

const COMPACT_FILLS = "0029_compact_fills";
import { migrateStore } from "./migrate.js";
import type { FillsTable } from "./schema.js";
import type { Insertable } from "kysely";

const TABLES = [
  "events",
  "markets",
  "market_tokens",
  "wallets",
  "fills",
  "wallet_activity",
  "positions",
  "wallet_stats",
  "market_stats",
  "position_snapshots",
  "pnl_series",
  "ingest_checkpoints",
  "accounts",
  "api_keys",
];

function fill(key: string, overrides: Partial<Insertable<FillsTable>> = {}): Insertable<FillsTable> {
  return {
    fill_key: key,
    source: "chain",
    tx_hash: "0xabc",
    log_index: 1,
    block_number: 50_000_000,
    wallet: "0x1111111111111111111111111111111111111111",
    counterparty: null,
    role: "maker",
    condition_id: "0xcond",
    token_id: "123",
    outcome_index: 0,
    side: "BUY",
    size: 100_000_000,
    usd: 60_000_000,
    price: 0.6,
    fee: 0,
    ts: 1_777_000_000,
    entry_type: "MINT",
    exchange_version: 2,
    ...overrides,
  };
}

describe.each(storeBackends)("store on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
  });
  afterAll(async () => {
    await dispose();
  });

  it("creates every core table and re-running migrations changes nothing", async () => {
    const tables = (await store.db.introspection.getTables()).map((t) => t.name);
    for (const table of TABLES) expect(tables).toContain(table);
    const again = await migrateStore(store);
    expect(again).toEqual([]);
  });

  it('compares every text column byte by byte (PostgreSQL: COLLATE "C"; SQLite: BINARY)', async () => {
    if (store.kind === "postgres") {
      const other = await sql<{ table_name: string; column_name: string; collation_name: string | null }>`
        select c.table_name, c.column_name, c.collation_name from information_schema.columns c
          join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
        where c.table_schema = current_schema() and c.data_type = 'text' and c.collation_name is distinct from 'C'`.execute(
        store.db,
      );
      expect(other.rows).toEqual([]);
    }
    await store.db
      .insertInto("wallets")
      .values(["0xZb", "0xaa", "0x_a"].map((address) => ({ address, updated_at: 0 })))
      .execute();
    const ordered = await store.db
      .selectFrom("wallets")
      .select("address")
      .where("address", "in", ["0xZb", "0xaa", "0x_a"])
      .orderBy("address")
      .execute();
    expect(ordered.map((r) => r.address)).toEqual(["0xZb", "0x_a", "0xaa"]);
    await store.db.deleteFrom("wallets").where("address", "in", ["0xZb", "0xaa", "0x_a"]).execute();
  });

  it("0007 turns the locale-ordered text columns of a store created before it into byte-ordered ones, indexes included", async () => {
    if (store.kind !== "postgres") return;
    await sql`create table collation_probe (k text primary key, v text, n bigint)`.execute(store.db);
    await sql`create index collation_probe_v on collation_probe (v)`.execute(store.db);
    await sql`insert into collation_probe values ('0xb', '0xZ', 1), ('0xa', '0x_', 2)`.execute(store.db);
    try {
      await byteOrderText.up(store.db as never, "postgres");
      const columns = await sql<{ column_name: string; collation_name: string | null }>`
        select column_name, collation_name from information_schema.columns
        where table_schema = current_schema() and table_name = 'collation_probe' order by ordinal_position`.execute(
        store.db,
      );
      expect(columns.rows).toEqual([
        { column_name: "k", collation_name: "C" },
        { column_name: "v", collation_name: "C" },
        { column_name: "n", collation_name: null },
      ]);
      const rows = await sql<{ k: string }>`select k from collation_probe where v >= '0x' order by v`.execute(store.db);
      expect(rows.rows.map((r) => r.k)).toEqual(["0xb", "0xa"]);
    } finally {
      await sql`drop table collation_probe`.execute(store.db);
    }
  });

  it("keeps a fill once per natural key", async () => {
    const insert = () => store.transaction((tx) => insertFills(tx, [fill("chain:0xabc:1")]));
    expect(await insert()).toHaveLength(1);
    expect(await insert()).toEqual([]);
    const rows = await store.db.selectFrom("fills").selectAll().where("fill_key", "=", "chain:0xabc:1").execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.entry_type).toBe("MINT");
  });

  it("bulk-inserts fills and activity idempotently, inside the caller's transaction", async () => {
    const batch = Array.from({ length: 1200 }, (_, i) =>
      fill(`chain:0xbulk:${i}`, {
        log_index: i,
        counterparty: i % 2 ? null : "0x2222222222222222222222222222222222222222",
        entry_type: i % 3 ? "MINT" : null,
      }),
    );
    const first = await store.transaction((tx) => insertFills(tx, batch));
    const again = await store.transaction((tx) =>
      insertFills(tx, [...batch.slice(0, 10), fill("chain:0xbulk:new"), fill("chain:0xbulk:new")]),
    );
    expect(first).toHaveLength(1200);
    expect(again.map((f) => f.fill_key)).toEqual(["chain:0xbulk:new"]);
    // A stored key in the last of several COPY chunks (PostgreSQL sends 500 rows per chunk): the rows before it are new.
    const later = [...Array.from({ length: 1100 }, (_, i) => fill(`chain:0xlater:${i}`)), batch[1199]!];
    expect((await store.transaction((tx) => insertFills(tx, later))).map((f) => f.fill_key)).toEqual(
      later.slice(0, 1100).map((f) => f.fill_key),
    );
    const stored = await store.db
      .selectFrom("fills")
      .select(["log_index", "counterparty", "entry_type"])
      .where("fill_key", "=", "chain:0xbulk:3")
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ log_index: 3, counterparty: null, entry_type: null });
    await expect(
      store.transaction(async (tx) => {
        await insertFills(tx, [fill("chain:0xbulk:rolled-back")]);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(
      await store.db.selectFrom("fills").select("id").where("fill_key", "=", "chain:0xbulk:rolled-back").execute(),
    ).toEqual([]);
    const activity = {
      activity_key: "redeem:0xr:0",
      source: "chain" as const,
      wallet: "0x1111111111111111111111111111111111111111",
      type: "REDEEM" as const,
      condition_id: "0xcond",
      token_id: null,
      outcome_index: null,
      size: 5_000_000,
      usd: 5_000_000,
      price: 1,
      ts: 1_777_000_100,
      tx_hash: "0xr",
      log_index: 0,
    };
    expect(await store.transaction((tx) => insertActivity(tx, [activity, activity]))).toHaveLength(1);
    const awkward = { ...activity, activity_key: "data:tab\tnew\nline\\slash", index_set: null };
    await store.transaction((tx) => insertActivity(tx, [awkward]));
    const back = await store.db
      .selectFrom("wallet_activity")
      .select("activity_key")
      .where("activity_key", "=", awkward.activity_key)
      .execute();
    expect(back).toEqual([{ activity_key: awkward.activity_key }]);
  });

  it("bulk-inserts every kind of value exactly: signed and fractional numbers, nulls, escapes, non-ASCII, a value larger than a COPY buffer", async () => {
    const awkward = [
      fill("chain:0xvalues:0", {
        size: 0,
        usd: -9_007_199_254_740_991,
        fee: 9_007_199_254_740_991,
        price: 0.123456789,
        log_index: -1,
        counterparty: null,
        tx_hash: `0x${"0a".repeat(32)}`,
      }),
      fill("chain:0xvalues:1", {
        wallet: "0xünïcødé✓𝄞",
        tx_hash: "tab\tnew\nline\\slash\rreturn",
        price: 1e-7,
        block_number: null,
      }),
      fill("chain:0xvalues:2", {
        // Larger than a COPY buffer, in a column no index holds (an id in a dictionary is indexed: PostgreSQL's
        // b-tree takes at most 2,704 bytes a key).
        tx_hash: `0x${"7".repeat(700_000)}é`,
        token_id: "7".repeat(2_000) + "é",
        price: -0.5,
        size: 10,
        usd: -10,
      }),
      fill(chainFillKey(50_000_000, 3), { log_index: 3, tx_hash: `0x${"0".repeat(64)}` }),
      // Hashes written not quite canonically (upper case, 31 bytes) are kept as their text.
      fill("chain:0xvalues:3", { tx_hash: `0x${"AB".repeat(32)}` }),
      fill("chain:0xvalues:4", { tx_hash: `0x${"ab".repeat(31)}` }),
    ];
    expect(await store.transaction((tx) => insertFills(tx, awkward))).toHaveLength(6);
    const columns = [
      "fill_key",
      "wallet",
      "tx_hash",
      "token_id",
      "size",
      "usd",
      "fee",
      "price",
      "log_index",
      "block_number",
      "counterparty",
    ] as const;
    const back = await store.db
      .selectFrom("fills")
      .select(columns)
      .where((eb) => eb.or([eb("fill_key", "like", "chain:0xvalues:%"), eb("fill_key", "=", awkward[3]!.fill_key)]))
      .orderBy("id")
      .execute();
    expect(back).toEqual(
      awkward.map((row) => Object.fromEntries(columns.map((column) => [column, row[column] ?? null]))),
    );
  });

  it.runIf(backend.kind === "postgres")(
    "refuses a value its column cannot hold, naming the column, and writes none of the batch",
    async () => {
      const batch = [fill("chain:0xrefused:0"), fill("chain:0xrefused:1", { size: 1.5 })];
      await expect(
        store.transaction(async (tx) => {
          await insertFills(tx, batch);
          await saveCheckpoint(tx.db, "refused-source", "block:1", 100);
        }),
      ).rejects.toThrow(/column size needs an integer/);
      expect(
        await store.db.selectFrom("fills").select("fill_key").where("fill_key", "like", "chain:0xrefused:%").execute(),
      ).toEqual([]);
      expect(await readCheckpoint(store.db, "refused-source")).toBeUndefined();
    },
  );

  it("returns 64-bit micro-unit amounts as exact numbers", async () => {
    const big = 9_007_199_254_740_000; // 9.007e9 USD in micro-units, above 2^32 and below 2^53
    await store.transaction((tx) => insertFills(tx, [fill("chain:0xbig:7", { size: big, usd: big - 1 })]));
    const row = await store.db
      .selectFrom("fills")
      .select(["size", "usd", "ts"])
      .where("fill_key", "=", "chain:0xbig:7")
      .executeTakeFirstOrThrow();
    expect(row.size).toBe(big);
    expect(row.usd).toBe(big - 1);
    expect(typeof row.ts).toBe("number");
  });

  it("rolls back a failed transaction whole: no fill and no checkpoint", async () => {
    await expect(
      store.transaction(async (tx) => {
        await insertFills(tx, [fill("chain:0xtx:9")]);
        await saveCheckpoint(tx.db, "chain-fills", "block:9", 100);
        throw new Error("crash in the middle");
      }),
    ).rejects.toThrow("crash in the middle");
    expect(await store.db.selectFrom("fills").selectAll().where("fill_key", "=", "chain:0xtx:9").execute()).toEqual([]);
    expect(await readCheckpoint(store.db, "chain-fills")).toBeUndefined();
  });

  it("saves checkpoints, keeps first_sync_done unless told, and counts errors", async () => {
    await saveCheckpoint(store.db, "gamma-markets", "offset:500", 1000);
    await saveCheckpoint(store.db, "gamma-markets", "offset:1000", 1010, true);
    await saveCheckpoint(store.db, "gamma-markets", "offset:1500", 1020);
    await recordSourceError(store.db, "gamma-markets", "malformed market 42", 1030);
    await recordSourceError(store.db, "gamma-markets", "malformed market 43", 1040);
    const c = await readCheckpoint(store.db, "gamma-markets");
    expect(c).toMatchObject({
      cursor: "offset:1500",
      first_sync_done: 1,
      errors: 2,
      last_error: "malformed market 43",
      updated_at: 1020,
    });
    expect((await listCheckpoints(store.db)).map((x) => x.source)).toContain("gamma-markets");
  });

  it("keys chain fills by block and log index, zero-padded into chain order, and migrates the keys of stored fills", async () => {
    expect(chainFillKey(81_000_123, 7)).toBe("chain:0081000123:000007");
    expect([chainFillKey(99, 10), chainFillKey(100, 2), chainFillKey(100, 11)].sort()).toEqual([
      chainFillKey(99, 10),
      chainFillKey(100, 2),
      chainFillKey(100, 11),
    ]);
    // A store of the layout 0006 converted (text keys in the table), then brought to the latest layout.
    const own = await backend.open({ migrations: migrationsBefore(COMPACT_FILLS) });
    try {
      await own.store.db
        .insertInto("fills")
        .values([
          fill("chain:0xabc:7", { block_number: 81_000_123, log_index: 7 }),
          fill("chain:0xabc:12", { block_number: 81_000_123, log_index: 12 }),
          fill("data:0xabc:0x1111:123:BUY:100000000:600000", {
            source: "data_api",
            log_index: null,
            block_number: null,
          }),
        ])
        .execute();
      await chainOrderedFillKeys.up(own.store.db as never, own.store.kind);
      await migrateStore(own.store);
      const keys = await own.store.db.selectFrom("fills").select("fill_key").orderBy("fill_key").execute();
      expect(keys.map((k) => k.fill_key)).toEqual([
        chainFillKey(81_000_123, 7),
        chainFillKey(81_000_123, 12),
        "data:0xabc:0x1111:123:BUY:100000000:600000",
      ]);
      // A replayed log is still a no-op.
      expect(
        await own.store.transaction((tx) =>
          insertFills(tx, [fill(chainFillKey(81_000_123, 7), { block_number: 81_000_123, log_index: 7 })]),
        ),
      ).toEqual([]);
    } finally {
      await own.dispose();
    }
  });

  it("0008 rebuilds SQLite's fills without AUTOINCREMENT: rows, ids and the indexes that stood are kept, ids go on increasing", async () => {
    if (backend.kind !== "sqlite") return;
    const own = await backend.open({ migrations: migrationsBefore(COMPACT_FILLS) });
    try {
      const db = own.store.db;
      // The layout 0008 rebuilt: rows written into the table itself.
      const insert = (rows: Insertable<FillsTable>[]) =>
        db
          .insertInto("fills")
          .values(rows)
          .onConflict((oc) => oc.column("fill_key").doNothing())
          .executeTakeFirst();
      const schemaOf = async () =>
        (
          await sql<{
            type: string;
            name: string;
            sql: string | null;
          }>`select type, name, sql from sqlite_master where tbl_name = 'fills' order by name`.execute(db)
        ).rows;
      const current = await schemaOf();
      const definition = current.find((r) => r.type === "table")!.sql!;
      expect(definition).not.toMatch(/autoincrement/i);
      // The table as migration 0001 made it, in a first sync that has dropped its deferred indexes.
      await sql`drop table fills`.execute(db);
      await sql.raw(definition.replace(/primary key/i, "primary key autoincrement")).execute(db);
      for (const index of current.filter((r) => r.type === "index" && r.sql && r.name !== "fills_wallet_ts"))
        await sql.raw(index.sql!).execute(db);
      const keys = [chainFillKey(81_000_000, 1), chainFillKey(81_000_000, 2), chainFillKey(81_000_001, 0)];
      await insert(keys.map((k, i) => fill(k, { log_index: i })));
      const before = await db.selectFrom("fills").selectAll().orderBy("id").execute();

      await own.store.transaction((tx) => plainRowIds.up(tx.db as never, "sqlite"));

      const after = await schemaOf();
      expect(after.find((r) => r.type === "table")!.sql).not.toMatch(/autoincrement/i);
      expect(after.map((r) => r.name)).toEqual(current.map((r) => r.name).filter((name) => name !== "fills_wallet_ts"));
      expect(await db.selectFrom("fills").selectAll().orderBy("id").execute()).toEqual(before);
      expect(Number((await insert([fill(keys[0]!)]))?.numInsertedOrUpdatedRows)).toBe(0);
      await insert([fill(chainFillKey(81_000_002, 0))]);
      const ids = (await db.selectFrom("fills").select("id").orderBy("fill_key").execute()).map((r) => r.id);
      expect(ids).toEqual([before[0]!.id, before[1]!.id, before[2]!.id, before[2]!.id + 1]);
      await own.store.transaction((tx) => plainRowIds.up(tx.db as never, "sqlite"));
      expect(await schemaOf()).toEqual(after);
    } finally {
      await own.dispose();
    }
  });

  it("drops and rebuilds the deferred fills indexes idempotently, inside the caller's transaction", async () => {
    expect(await store.transaction(deferredFillIndexesPresent)).toBe(true);
    await store.transaction(dropDeferredFillIndexes);
    await store.transaction(dropDeferredFillIndexes);
    expect(await store.transaction(deferredFillIndexesPresent)).toBe(false);
    await expect(
      store.transaction(async (tx) => {
        await createDeferredFillIndexes(tx);
        throw new Error("killed while building");
      }),
    ).rejects.toThrow("killed while building");
    expect(await store.transaction(deferredFillIndexesPresent)).toBe(false);
    const cacheSize = store.sqlite?.pragma("cache_size", { simple: true });
    await store.transaction((tx) => createDeferredFillIndexes(tx, { postgresMb: 16, sqliteCacheMb: 4 }));
    await store.transaction(createDeferredFillIndexes);
    expect(await store.transaction(deferredFillIndexesPresent)).toBe(true);
    // SQLite builds with a small page cache (it sizes the sort's runs), then gets its own back.
    expect(store.sqlite?.pragma("cache_size", { simple: true })).toBe(cacheSize);
  });

  it("enforces the composite primary keys of ledger tables", async () => {
    const position = {
      wallet: "0xw",
      token_id: "1",
      condition_id: "0xc",
      outcome_index: 0,
      shares: 1,
      avg_price: 0.5,
      total_bought: 1,
      realized_pnl: 0,
      fees: 0,
      first_ts: 1,
      last_ts: 1,
      closed_ts: null,
      status: "open" as const,
    };
    await store.transaction((tx) => insertRows(tx, "positions", [position]));
    await expect(store.transaction((tx) => insertRows(tx, "positions", [position]))).rejects.toThrow();
    const count = await sql<{ n: number }>`select count(*) as n from positions`.execute(store.db);
    expect(Number(count.rows[0]?.n)).toBe(1);
  });
});
