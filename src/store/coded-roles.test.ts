/**
 * Migration 0050 (src/store/migrations/0050_coded_roles.ts): `fill_rows` stores a fill's role as a code and its
 * exchange version less one. A store written before migrates: every fill reads back through the view as before, the
 * rows hold the codes (packed with three others since 0059), the whale makers' index holds exactly the whale-size maker fills (test/api/market-whale-trades.test.ts
 * reads a market's whale trades through it), and a fill written after is coded alike. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { fillRowsAsBefore0050, insertFillsBefore0051 } from "../../test/support/earlier-layout.js";
import type { Store } from "./database.js";
import { fillCodeSql } from "./fill-codes.js";
import { chainFillKey } from "./fill-layout.js";
import { insertFills, type NewFill } from "./fills.js";
import { migrateStore } from "./migrate.js";
import { queryRows } from "./raw-sql.js";
import { WHALE_SIZE_USD, whaleSizeMakerFills } from "./schema.js";
import { newFill } from "./testing/new-fill.js";

const FILLS = 2_000;
const ROLES = ["maker", "taker", null] as const;
const VERSIONS = [2, 1, null] as const;

/** Chain fills one a block, roles, versions and sizes taking turns (every seventh a whale-size one). */
function someFills(): NewFill[] {
  return Array.from({ length: FILLS }, (_, i) =>
    newFill({
      fill_key: chainFillKey(70_000_000 + i, 5),
      tx_hash: `0x${(i + 1).toString(16).padStart(64, "0")}`,
      log_index: 5,
      block_number: 70_000_000 + i,
      ts: 1_770_000_000 + 2 * i,
      role: ROLES[i % 3]!,
      exchange_version: VERSIONS[i % 3 === 0 ? 0 : (i >> 1) % 3]!,
      usd: i % 7 === 0 ? WHALE_SIZE_USD * 1_000_000 + i : 1_000 * i,
    }),
  );
}

const viewRows = (store: Store) =>
  queryRows<Record<string, unknown>>(store.db, store.kind, "select * from fills order by id", []);

const storedRoles = async (store: Store) =>
  (
    await queryRows<{ role: number | null }>(
      store.db,
      store.kind,
      `select ${fillCodeSql("role", "")} as role from fill_rows order by id`,
      [],
    )
  ).map((r) => (r.role === null ? null : Number(r.role)));

/** The fills the whale makers' index holds: read through it, by market and time. */
async function whaleMakerIds(store: Store): Promise<number[]> {
  const where = whaleSizeMakerFills();
  const text =
    store.kind === "sqlite"
      ? `select id from fill_rows indexed by fills_whale_size_makers where ${where} order by id`
      : `select id from fill_rows where ${where} order by id`;
  return (await queryRows<{ id: number }>(store.db, store.kind, text, [])).map((r) => Number(r.id));
}

describe.each(storeBackends)("coded roles, on $kind", (backend) => {
  it("migration 0050 codes every stored role and version: the view reads as before, the whale makers' index on the code", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0050_coded_roles") });
    try {
      const fills = someFills();
      await insertFillsBefore0051(store, fills);
      await fillRowsAsBefore0050(store);
      const read = await viewRows(store);
      expect(read.map((r) => r.role)).toEqual(fills.map((f) => f.role));
      expect(read.map((r) => (r.exchange_version === null ? null : Number(r.exchange_version)))).toEqual(
        fills.map((f) => f.exchange_version),
      );
      await migrateStore(store);
      expect(await viewRows(store)).toEqual(read);
      expect(await storedRoles(store)).toEqual(fills.map((f) => (f.role === null ? null : f.role === "maker" ? 0 : 1)));
      const whales = read
        .filter((r) => r.role === "maker" && Number(r.usd) >= WHALE_SIZE_USD * 1_000_000)
        .map((r) => Number(r.id));
      expect(whales.length).toBeGreaterThan(50);
      expect(await whaleMakerIds(store)).toEqual(whales);
      // Written after: the same codes as the migration's.
      const later = newFill({ fill_key: chainFillKey(80_000_000, 1), role: "maker", exchange_version: 1 });
      await store.transaction((tx) => insertFills(tx, [later]));
      const [last] = (await viewRows(store)).slice(-1);
      expect(last).toMatchObject({ role: "maker", fill_key: later.fill_key });
      expect(Number(last!.exchange_version)).toBe(1);
    } finally {
      await dispose();
    }
  });
});
