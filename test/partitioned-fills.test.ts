/**
 * PostgreSQL's fills partitioned by month (migration 0016, `fill_rows` since 0029; src/store/fill-partitions.ts), on the real server:
 * the table's shape in the catalog, where fills of several months land, idempotent re-ingest, the conversion of a
 * stored table, and the plans of the time-bounded reads. Runs only with TEST_DATABASE_URL.
 */
import { CompiledQuery, Kysely, Migrator, PostgresDialect, sql, type Insertable } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categoryVolumes, whaleMoves } from "../src/analytics/windows/home.js";
import { volume24h } from "../src/derive/market-stats.js";
import { emptyStats } from "../src/analytics/wallet/wallet-overview.js";
import { openStore, type Store } from "../src/store/database.js";
import { chainFillKey, insertFills } from "../src/store/fills.js";
import { packFillCodes } from "../src/store/fill-codes.js";
import { fillCode, storedRole } from "../src/store/fill-layout.js";
import { migrateStore } from "../src/store/migrate.js";
import { migrations } from "../src/store/migrations/index.js";
import type { Database, FillsTable } from "../src/store/schema.js";
import { TEST_DATABASE_URL, uniqueName } from "./support/backends.js";

const at = (year: number, month: number, day = 1, seconds = 0) => Date.UTC(year, month - 1, day) / 1000 + seconds;

let block = 80_000_000;
function fill(ts: number, overrides: Partial<Insertable<FillsTable>> = {}): Insertable<FillsTable> {
  block += 1;
  return {
    fill_key: chainFillKey(block, 3),
    source: "chain",
    tx_hash: `0x${block.toString(16)}`,
    log_index: 3,
    block_number: block,
    wallet: "0x1111111111111111111111111111111111111111",
    counterparty: "0x2222222222222222222222222222222222222222",
    role: "taker",
    condition_id: "0xcond",
    token_id: "123",
    outcome_index: 0,
    side: "BUY",
    size: 100_000_000,
    usd: 60_000_000,
    price: 0.6,
    fee: 0,
    ts,
    entry_type: "MINT",
    exchange_version: 2,
    ...overrides,
  };
}

interface Schema {
  store: Store;
  schema: string;
  dispose(): Promise<void>;
}

/** A store in a schema of its own; `upTo` stops the migrations before that one. */
async function openSchema(upTo?: string): Promise<Schema> {
  const schema = uniqueName("part");
  const store = await openStore({ kind: "postgres", databaseUrl: TEST_DATABASE_URL, schema, poolSize: 3 });
  if (upTo === undefined) await migrateStore(store);
  else {
    const names = Object.keys(migrations).filter((name) => name < upTo);
    const provider = {
      getMigrations: async () =>
        Object.fromEntries(
          names.map((name) => [name, { up: (db: Kysely<unknown>) => migrations[name]!.up(db, "postgres") }]),
        ),
    };
    const { error } = await new Migrator({ db: store.db, provider, migrationTableSchema: schema }).migrateToLatest();
    if (error) throw error;
  }
  return {
    store,
    schema,
    async dispose() {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(store.db);
      await store.close();
    },
  };
}

/** Rows per partition of `table` (`fill_rows`, or `fills` before 0029), by the partition's name. */
async function rowsByPartition(store: Store, table = "fill_rows"): Promise<Record<string, number>> {
  const result = await sql<{ partition: string; n: number }>`
    select c.relname as partition, count(f.id)::int as n from pg_inherits i join pg_class c on c.oid = i.inhrelid
      left join ${sql.id(table)} f on f.tableoid = c.oid
     where i.inhparent = to_regclass(current_schema() || '.' || ${table}) group by c.relname order by c.relname`.execute(
    store.db,
  );
  return Object.fromEntries(result.rows.map((r) => [r.partition, r.n]));
}

/** The names of a table's indexes. */
async function indexNames(store: Store, table: string): Promise<string[]> {
  const result = await sql<{ name: string }>`select indexname as name from pg_indexes
    where schemaname = current_schema() and tablename = ${table} order by indexname`.execute(store.db);
  return result.rows.map((r) => r.name);
}

/** The stored fills as readers see them: a fills table from before 0049 also holds an order hash, which none reads. */
const storedFills = async (store: Store) =>
  (await store.db.selectFrom("fills").selectAll().orderBy("id").execute()).map((fill) => {
    const { order_hash: _, ...read } = fill as typeof fill & { order_hash?: unknown };
    return read;
  });

describe.skipIf(!TEST_DATABASE_URL)("fills partitioned by month on PostgreSQL", () => {
  let own: Schema;
  beforeAll(async () => {
    own = await openSchema();
  });
  afterAll(async () => {
    await own?.dispose();
  });

  it("is a table partitioned by range of ts, with a default partition, whose unique keys hold ts", async () => {
    const shape = await sql<{ strategy: string; key: string }>`
      select p.partstrat as strategy, a.attname as key from pg_partitioned_table p
        join pg_attribute a on a.attrelid = p.partrelid and a.attnum = p.partattrs[0]
       where p.partrelid = to_regclass(current_schema() || '.fill_rows')`.execute(own.store.db);
    expect(shape.rows).toEqual([{ strategy: "r", key: "ts" }]);
    const defaults = await sql<{ name: string }>`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
       where i.inhparent = to_regclass(current_schema() || '.fill_rows') and pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT'`.execute(
      own.store.db,
    );
    expect(defaults.rows).toEqual([{ name: "fill_rows_default" }]);
    const keys = await sql<{ definition: string }>`
      select pg_get_constraintdef(oid) as definition from pg_constraint
       where conrelid = to_regclass(current_schema() || '.fill_rows') and contype in ('p', 'u') order by contype`.execute(
      own.store.db,
    );
    expect(keys.rows.map((r) => r.definition)).toEqual(["PRIMARY KEY (id, ts)"]);
    // The natural key, in its two halves (src/store/fill-layout.ts).
    const unique = await sql<{ definition: string }>`select indexdef as definition from pg_indexes
      where schemaname = current_schema() and tablename = 'fill_rows' and indexdef like 'CREATE UNIQUE%'
      order by indexname`.execute(own.store.db);
    expect(unique.rows.map((r) => r.definition.replace(`${own.schema}.`, ""))).toEqual([
      "CREATE UNIQUE INDEX fill_rows_pkey ON ONLY fill_rows USING btree (id, ts)",
      "CREATE UNIQUE INDEX fill_rows_text_key ON ONLY fill_rows USING btree (key_text, ts) WHERE (key_text IS NOT NULL)",
    ]);
  });

  it("writes fills of several months into their months' partitions, the boundaries included, and re-ingests nothing twice", async () => {
    const batch = [
      fill(at(2025, 12, 31, 86_399)),
      fill(at(2026, 1, 1)),
      fill(at(2026, 1, 15)),
      fill(at(2026, 2, 1) - 1),
      fill(at(2026, 2, 1)),
      fill(at(2026, 4, 30, 3_600)),
    ];
    const fresh = await own.store.transaction((tx) => insertFills(tx, batch));
    expect(fresh).toHaveLength(6);
    expect(await rowsByPartition(own.store)).toEqual({
      fill_rows_default: 0,
      fill_rows_p202512: 1,
      fill_rows_p202601: 3,
      fill_rows_p202602: 1,
      fill_rows_p202604: 1,
    });
    const before = await storedFills(own.store);

    // The same batch again (the staged insert skips every row), then mixed with new ones.
    expect(await own.store.transaction((tx) => insertFills(tx, batch))).toEqual([]);
    const later = [fill(at(2026, 3, 10)), fill(at(2026, 4, 1))];
    const mixed = await own.store.transaction((tx) => insertFills(tx, [...batch.slice(2), ...later, later[0]!]));
    expect(mixed.map((f) => f.fill_key)).toEqual(later.map((f) => f.fill_key));
    expect((await storedFills(own.store)).slice(0, before.length)).toEqual(before);
    expect(await rowsByPartition(own.store)).toMatchObject({
      fill_rows_default: 0,
      fill_rows_p202603: 1,
      fill_rows_p202604: 2,
    });
    const total = await own.store.db.selectFrom("fills").select(sql<number>`count(*)::int`.as("n")).executeTakeFirst();
    expect(total?.n).toBe(8);
  });

  it("a fill written around the write path waits in the default partition and moves into its month when that is created", async () => {
    const stray = fill(at(2024, 6, 10));
    // Written straight into fill_rows, with the dictionaries' ids of values stored before and the packed codes.
    const codes = packFillCodes({
      side: fillCode("side", stray.side),
      entry_type: fillCode("entry_type", stray.entry_type),
      role: storedRole(stray.role),
      exchange_version: stray.exchange_version ?? null,
      source: fillCode("source", stray.source),
    });
    await sql`insert into fill_rows (tx_text, log_index, block_number, wallet_id, counterparty_id,
        condition_ref, token_ref, outcome_index, size, usd, price, fee, ts, codes)
      select ${stray.tx_hash}, ${stray.log_index}, ${stray.block_number}, w.id, c.id,
        m.id, t.id, ${stray.outcome_index}, ${stray.size}, ${stray.usd}, ${stray.price}, 0, ${stray.ts}, ${codes}
      from address_ids w, address_ids c, condition_ids m, token_ids t
      where w.address = ${stray.wallet} and c.address = ${stray.counterparty} and m.condition_id = ${stray.condition_id}
        and t.token_id = ${stray.token_id}`.execute(own.store.db);
    expect(await rowsByPartition(own.store)).toMatchObject({ fill_rows_default: 1 });
    expect(await own.store.transaction((tx) => insertFills(tx, [fill(at(2024, 6, 20))]))).toHaveLength(1);
    const counts = await rowsByPartition(own.store);
    expect(counts).toMatchObject({ fill_rows_default: 0, fill_rows_p202406: 2 });
  });

  it("a rolled-back batch leaves no partition behind", async () => {
    await expect(
      own.store.transaction(async (tx) => {
        await insertFills(tx, [fill(at(2023, 2, 2))]);
        throw new Error("abandoned");
      }),
    ).rejects.toThrow("abandoned");
    expect(Object.keys(await rowsByPartition(own.store))).not.toContain("fill_rows_p202302");
  });

  it("the time-bounded reads plan only the partitions of their window", async () => {
    const now = at(2026, 4, 30, 7_200);
    // The reads run on a Kysely that records each statement, then each is explained with its own parameters.
    const recorded: CompiledQuery[] = [];
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1, options: `-c search_path=${own.schema}` });
    const logged = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => {
        if (event.level === "query" && /\bfrom fills\b/.test(event.query.sql)) recorded.push(event.query);
      },
    });
    try {
      const reading = { ...own.store, db: logged };
      // A smart whale, so that the whale moves have a slice of whales to read.
      const whale = { ...emptyStats("0x1111111111111111111111111111111111111111", now), is_smart: 1 as const };
      await own.store.db
        .insertInto("wallet_stats")
        .values({ ...whale, ...NO_BOARD })
        .onConflict((oc) => oc.column("wallet").doNothing())
        .execute();
      // Each read runs in slices (of whales or of hours): one statement at least each, every one within the window.
      const statements: number[] = [];
      for (const read of [
        () => volume24h(reading, now),
        () => whaleMoves(reading, now, 1, 24),
        () => categoryVolumes(reading, now, 24, false),
      ]) {
        const before = recorded.length;
        await read();
        statements.push(recorded.length - before);
      }
      expect(statements.every((n) => n >= 1)).toBe(true);
      for (const query of [...recorded]) {
        // Run, not only planned: a fill's transaction hash may be read at an earlier fill of its block, by a
        // subquery whose partitions are chosen at run time from the fill's own time (migration 0048).
        const plan = await logged.executeQuery<{ "QUERY PLAN": unknown }>(
          CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
        );
        const scanned = new Set(partitionsRead(plan.rows[0]!["QUERY PLAN"]));
        // Every window here is the last 48 hours at most, inside April 2026.
        expect({ sql: query.sql, scanned: [...scanned] }).toEqual({ sql: query.sql, scanned: ["fill_rows_p202604"] });
      }
    } finally {
      await logged.destroy();
    }
  });
});

const NO_BOARD = { avg_entry_price: null, mint_volume_30d: 0, merge_volume_30d: 0, maker_volume_30d: 0, volume_30d: 0 };

describe.skipIf(!TEST_DATABASE_URL)("migration 0016 on a stored fills table", () => {
  it("converts it with its rows, ids, indexes and sequence, and replays stay no-ops", async () => {
    const old = await openSchema("0016");
    try {
      const { store } = old;
      const rows = [fill(at(2025, 11, 5)), fill(at(2025, 11, 30)), fill(at(2026, 2, 14)), fill(at(2026, 2, 28))];
      await store.db.insertInto("fills").values(rows).execute();
      // A first sync that deferred its indexes: one of them is not there, and stays so.
      await sql`drop index fills_condition_ts`.execute(store.db);
      const indexesBefore = await indexNames(store, "fills");
      const before = await storedFills(store);

      // 0016 first, then the later migrations (whatever they are by now), each applied.
      const applied = await migrateStore(store);
      expect(applied[0]).toMatchObject({ migrationName: "0016_partitioned_fills", status: "Success" });
      expect(applied.every((r) => r.status === "Success")).toBe(true);

      expect(await storedFills(store)).toEqual(before);
      // Converted by 0016, then moved to fill_rows by 0029, months and all.
      expect(await rowsByPartition(store)).toEqual({
        fill_rows_default: 0,
        fill_rows_p202511: 2,
        fill_rows_p202512: 0,
        fill_rows_p202601: 0,
        fill_rows_p202602: 2,
      });
      // The same indexes (0024's fills_wallet_condition_sums in place of fills_wallet_condition_ts; the natural key's
      // two halves in place of its constraint; 0051's fill_spans in place of fills_ts), fills_condition_ts still left
      // to the first sync.
      expect(indexesBefore).toEqual([
        "fills_fill_key_key",
        "fills_pkey",
        "fills_ts",
        "fills_wallet_condition_ts",
        "fills_wallet_ts",
        "fills_whale_size_makers",
      ]);
      expect(await indexNames(store, "fill_rows")).toEqual([
        "fill_rows_pkey",
        "fill_rows_text_key",
        "fills_wallet_condition_sums",
        "fills_wallet_ts",
        "fills_whale_size_makers",
      ]);
      expect(await store.transaction((tx) => insertFills(tx, rows))).toEqual([]);
      await store.transaction((tx) => insertFills(tx, [fill(at(2026, 3, 1))]));
      // The id sequence goes on from the converted rows' (a refused replay may use up values: ids only increase).
      const ids = (await storedFills(store)).map((f) => f.id);
      expect(ids.slice(0, before.length)).toEqual(before.map((f) => f.id));
      expect(ids[before.length]).toBeGreaterThan(before[before.length - 1]!.id);
      expect(await migrateStore(store)).toEqual([]);
      expect(await storedFills(store)).toHaveLength(5);
    } finally {
      await old.dispose();
    }
  });
});

/** The `fill_rows` partitions an `explain (analyze, format json)` plan read: its scans that ran at least once. */
function partitionsRead(plan: unknown): string[] {
  const found: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    const relation = node["Relation Name"];
    if (typeof relation === "string" && relation.startsWith("fill_rows") && Number(node["Actual Loops"]) > 0)
      found.push(relation);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  for (const root of plan as Array<{ Plan: Record<string, unknown> }>) walk(root.Plan);
  return found;
}
