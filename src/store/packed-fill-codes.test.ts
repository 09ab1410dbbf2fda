/**
 * Migration 0059 (src/store/migrations/0059_packed_fill_codes.ts): `fill_rows` packs a fill's side, entry type,
 * role, exchange version and source into `codes` (src/store/fill-codes.ts). Packing gives every code back and refuses
 * a value its field cannot hold; a store written before migrates with every fill reading back as before through the
 * view, the whale makers' index holding exactly the whale-size maker fills, and a fill written after reads alike. On
 * SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { columnsOf, insertFillsBefore0059 } from "../../test/support/earlier-layout.js";
import type { Store } from "./database.js";
import {
  FILL_CODES_COLUMN,
  PACKED_FILL_CODES,
  type PackedFillCode,
  packFillCodes,
  unpackFillCode,
} from "./fill-codes.js";
import { chainFillKey } from "./fill-layout.js";
import { insertFills, type NewFill } from "./fills.js";
import { migrateStore } from "./migrate.js";
import { queryRows } from "./raw-sql.js";
import { WHALE_SIZE_USD, whaleSizeMakerFills } from "./schema.js";
import { newFill } from "./testing/new-fill.js";

const SIDES = ["BUY", "SELL"] as const;
const ENTRY_TYPES = ["MINT", "MERGE", "COMPLEMENTARY", null] as const;
const ROLES = ["maker", "taker", null] as const;
const VERSIONS = [1, 2, null] as const;
const SOURCES = ["chain", "data_api"] as const;

/** One fill of every combination of the five, twice (the second whale-size), each at its own place on the chain. */
function everyCombination(): NewFill[] {
  const fills: NewFill[] = [];
  for (const side of SIDES)
    for (const entry_type of ENTRY_TYPES)
      for (const role of ROLES)
        for (const exchange_version of VERSIONS)
          for (const source of SOURCES)
            for (const whale of [false, true]) {
              const n = fills.length;
              fills.push(
                newFill({
                  fill_key: source === "chain" ? chainFillKey(90_000_000 + n, 3) : `data-api:${n}`,
                  block_number: 90_000_000 + n,
                  log_index: 3,
                  tx_hash: `0x${(n + 1).toString(16).padStart(64, "0")}`,
                  ts: 1_772_000_000 + n,
                  side,
                  entry_type,
                  role,
                  exchange_version,
                  source,
                  usd: whale ? WHALE_SIZE_USD * 1_000_000 + n : 1_000 + n,
                }),
              );
            }
  return fills;
}

const viewRows = (store: Store) =>
  queryRows<Record<string, unknown>>(store.db, store.kind, "select * from fills order by id", []);

async function whaleMakerIds(store: Store): Promise<number[]> {
  const from = store.kind === "sqlite" ? "fill_rows indexed by fills_whale_size_makers" : "fill_rows";
  const text = `select id from ${from} where ${whaleSizeMakerFills()} order by id`;
  return (await queryRows<{ id: number }>(store.db, store.kind, text, [])).map((r) => Number(r.id));
}

describe("packed fill codes", () => {
  const fields = Object.keys(PACKED_FILL_CODES) as PackedFillCode[];
  const field = (name: PackedFillCode) => {
    const { mask } = PACKED_FILL_CODES[name];
    const none = (PACKED_FILL_CODES[name] as { none?: number }).none;
    const values = Array.from({ length: mask + 1 }, (_, v) => v).filter((v) => v !== none);
    return none === undefined ? fc.constantFrom(...values) : fc.constantFrom<number | null>(...values, null);
  };
  const codes = fc.record(Object.fromEntries(fields.map((name) => [name, field(name)])) as never) as fc.Arbitrary<
    Record<PackedFillCode, number | null>
  >;

  it("gives back every code packed, and keeps a chain fill of a known exchange in one byte", () => {
    fc.assert(
      fc.property(codes, (given) => {
        const packed = packFillCodes(given);
        for (const name of fields) expect(unpackFillCode(packed, name)).toBe(given[name]);
        if (given.source === 0) expect(packed).toBeLessThan(128);
      }),
    );
  });

  it("refuses a value its field cannot hold", () => {
    const fill = { side: 0, entry_type: 0, role: 0, exchange_version: 2, source: 0 };
    expect(() => packFillCodes({ ...fill, exchange_version: 4 })).toThrow(/exchange_version 4/);
    expect(() => packFillCodes({ ...fill, exchange_version: 0 })).toThrow(/exchange_version 0/);
    expect(() => packFillCodes({ ...fill, entry_type: 3 })).toThrow(/entry_type 3/);
    expect(() => packFillCodes({ ...fill, side: null })).toThrow(/side null/);
  });
});

describe.each(storeBackends)("migration 0059, on $kind", (backend) => {
  it("packs every stored fill's codes: the view reads as before, the whale makers' index on the role's bits", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0059_packed_fill_codes") });
    try {
      const fills = everyCombination();
      await insertFillsBefore0059(store, fills);
      const read = await viewRows(store);
      expect(read.map((r) => [r.side, r.entry_type, r.role, r.source])).toEqual(
        fills.map((f) => [f.side, f.entry_type, f.role, f.source]),
      );
      expect(read.map((r) => (r.exchange_version === null ? null : Number(r.exchange_version)))).toEqual(
        fills.map((f) => f.exchange_version),
      );
      expect(await columnsOf(store, "fill_rows")).toContain("role");

      await migrateStore(store);
      const columns = await columnsOf(store, "fill_rows");
      expect(columns).toContain(FILL_CODES_COLUMN);
      for (const gone of ["side", "entry_type", "role", "exchange_version", "source"])
        expect(columns).not.toContain(gone);
      expect(await viewRows(store)).toEqual(read);
      const whales = read
        .filter((r) => r.role === "maker" && Number(r.usd) >= WHALE_SIZE_USD * 1_000_000)
        .map((r) => Number(r.id));
      expect(whales).toHaveLength(SIDES.length * ENTRY_TYPES.length * VERSIONS.length * SOURCES.length);
      expect(await whaleMakerIds(store)).toEqual(whales);

      const later = newFill({
        fill_key: chainFillKey(95_000_000, 1),
        block_number: 95_000_000,
        log_index: 1,
        side: "SELL",
        entry_type: "MERGE",
        role: "taker",
        exchange_version: 1,
      });
      await store.transaction((tx) => insertFills(tx, [later]));
      const [last] = (await viewRows(store)).slice(-1);
      expect(last).toMatchObject({ side: "SELL", entry_type: "MERGE", role: "taker", source: "chain" });
      expect(Number(last!.exchange_version)).toBe(1);
      // A version the field cannot hold is refused, and nothing of its batch is written.
      const unknown = newFill({ fill_key: chainFillKey(95_000_001, 1), block_number: 95_000_001, exchange_version: 9 });
      await expect(store.transaction((tx) => insertFills(tx, [unknown]))).rejects.toThrow(/exchange_version 9/);
      expect(await viewRows(store)).toHaveLength(fills.length + 1);
    } finally {
      await dispose();
    }
  });
});
