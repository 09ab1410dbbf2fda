/**
 * Migration 0064 (src/store/migrations/0064_text_keyed_without_rowid.ts): on SQLite `wallet_sync`,
 * `funding_addresses`, `market_stats` and `market_resolutions` are stored in their key's b-tree (WITHOUT ROWID), no
 * automatic index of the key beside them; on PostgreSQL nothing changes. Rows written before read back the same after
 * (every column, its type on SQLite, nulls among them); the pending funding addresses' index and the change counters'
 * triggers stay; the writers' upserts and updates after it leave the same rows and counts as before it; the pending
 * funding read still walks its index. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import type { Store } from "./database.js";
import { upsertRows } from "./derived-tables.js";
import { pendingFundingAddresses, queueSeenWallets, saveTracedFunding } from "./funding.js";
import { recordResolutions } from "./markets.js";
import { migrateStore } from "./migrate.js";
import { TEXT_KEYED, textKeyedWithoutRowid } from "./migrations/0064_text_keyed_without_rowid.js";
import { sqliteColumns } from "./migrations/sqlite-rebuild.js";
import { queryRows } from "./raw-sql.js";
import type { MarketStatsTable } from "./schema.js";
import { indexNamesOf } from "./testing/index-names.js";
import { saveWalletSync } from "./wallet-cache.js";

const MIGRATION = "0064_text_keyed_without_rowid";
const TABLES = Object.keys(TEXT_KEYED) as (keyof typeof TEXT_KEYED)[];
const T0 = 1_770_000_000;
// Written out of key order: a rebuilt table's rows are stored in key order.
const WALLETS = [`0x${"b".repeat(40)}`, `0x${"0".repeat(39)}1`, `0x${"a".repeat(40)}`, `0x${"c".repeat(40)}`];
const FUNDERS = [`0x${"f".repeat(40)}`, `0x${"e".repeat(40)}`, `0x${"d".repeat(40)}`];
const MARKETS = [`0x${"2".repeat(64)}`, `0x${"1".repeat(64)}`, `0x${"3".repeat(64)}`];

/** Every row of a table in key order, and on SQLite each column's stored type beside it. */
async function storedRows(store: Store, table: string, key: string): Promise<Record<string, unknown>[]> {
  const types =
    store.kind === "sqlite"
      ? (await sqliteColumns(store.db as never, table)).map((c) => `, typeof(${c}) as ${c}_type`).join("")
      : "";
  return queryRows(store.db, store.kind, `select *${types} from ${table} order by ${key}`);
}

/** The four tables' rows, and the change counts their triggers keep. */
async function snapshot(store: Store): Promise<Record<string, Record<string, unknown>[]>> {
  const tables = Object.fromEntries(
    await Promise.all(TABLES.map(async (t) => [t, await storedRows(store, t, TEXT_KEYED[t])] as const)),
  );
  return { ...tables, table_changes: await storedRows(store, "table_changes", "name") };
}

function marketStats(condition_id: string, volume: number, trades: number): MarketStatsTable {
  return {
    condition_id,
    computed_at: T0,
    trades,
    volume,
    volume_24h: volume / 3,
    whales_yes: trades % 4,
    whales_no: 0,
    mint_usd: 0.1,
    merge_usd: 1e-7,
    complementary_usd: 2 ** 53,
    unclassified_usd: -0,
    mint_trades: 1,
    merge_trades: 0,
    complementary_trades: 2 ** 31,
    unclassified_trades: trades,
  };
}

const resolution = (condition_id: string, at: number) => ({
  condition_id,
  resolution: "YES" as const,
  payout_numerators: '["1","0"]',
  resolved_at: at,
  block_number: at - T0 + 80_000_000,
  tx_hash: `0x${at.toString(16).padStart(64, "0")}`,
  log_index: at % 7,
});

function walletSync(wallet: string, i: number, ok: boolean) {
  return {
    wallet,
    synced_at: ok ? T0 + i : null,
    status: ok ? ("ok" as const) : ("error" as const),
    positions_count: 3 * i,
    positions_truncated: (i % 2) as 0 | 1,
    closed_positions_count: 500 + i,
    closed_positions_truncated: 0 as const,
    activity_count: 2 ** 40 + i,
    activity_truncated: 1 as const,
    activity_cursor: ok ? T0 - i : null,
    lifetime_pnl: ok ? -123_456_789 * (i + 1) : null,
    venue_history_from: i === 0 ? null : T0 - 86_400 * i,
    last_error: ok ? null : `upstream said ${i}: 'no'`,
    updated_at: T0 + 10 * i,
  };
}

/** What the writers store before the migration: each table's rows of every kind. */
async function writeFirst(store: Store): Promise<void> {
  for (const [i, wallet] of WALLETS.slice(0, 3).entries())
    await saveWalletSync(store.db, walletSync(wallet, i, i !== 1));
  await store.db
    .insertInto("wallets")
    .values(WALLETS.map((address, i) => ({ address, updated_at: T0 + i })))
    .execute();
  await queueSeenWallets(store.db, 3);
  await saveTracedFunding(store, {
    traced: [{ address: WALLETS[0]!, transfers: 2 }],
    toBlock: 80_000_100,
    transfers: [],
    funders: [
      { address: FUNDERS[0]!, hop: 1 },
      { address: FUNDERS[1]!, hop: 2 },
    ],
  });
  await store.transaction(async (tx) => {
    await upsertRows(tx, "market_stats", [marketStats(MARKETS[0]!, 1234.5, 7), marketStats(MARKETS[1]!, 0, 0)]);
    await recordResolutions(tx, [resolution(MARKETS[0]!, T0 + 5), resolution(MARKETS[1]!, T0 + 9)]);
  });
}

/** The writers' upserts and updates over those rows; returns what they answer. */
async function writeAgain(store: Store) {
  await saveWalletSync(store.db, { ...walletSync(WALLETS[1]!, 1, true), updated_at: T0 + 99 });
  await saveWalletSync(store.db, walletSync(WALLETS[3]!, 3, true));
  const queued = await queueSeenWallets(store.db, 10);
  await saveTracedFunding(store, {
    traced: [
      { address: WALLETS[1]!, transfers: 0 },
      { address: FUNDERS[0]!, transfers: 5 },
    ],
    toBlock: 80_000_200,
    transfers: [],
    // Nearer than queued: moves up; farther: keeps its place; new: queued.
    funders: [
      { address: FUNDERS[1]!, hop: 1 },
      { address: FUNDERS[0]!, hop: 2 },
      { address: FUNDERS[2]!, hop: 2 },
    ],
  });
  const pending = await pendingFundingAddresses(store.db, 10);
  const fresh = await store.transaction(async (tx) => {
    await upsertRows(tx, "market_stats", [marketStats(MARKETS[1]!, 99.25, 3), marketStats(MARKETS[2]!, 5, 1)]);
    return recordResolutions(tx, [resolution(MARKETS[1]!, T0 + 50), resolution(MARKETS[2]!, T0 + 60)]);
  });
  return { queued, pending, fresh: fresh.map((r) => r.condition_id) };
}

/** The four tables' definitions, indexes and triggers as the catalog lists them. */
async function layout(store: Store) {
  const out: Record<string, { definition?: string; indexes: string[]; triggers: string[] }> = {};
  for (const table of TABLES) {
    const triggers =
      store.kind === "sqlite"
        ? "select name from sqlite_master where type = 'trigger' and tbl_name = ? order by name"
        : `select distinct trigger_name as name from information_schema.triggers
             where event_object_schema = current_schema() and event_object_table = ? order by name`;
    const [definition] =
      store.kind === "sqlite"
        ? await queryRows<{ sql: string }>(store.db, store.kind, "select sql from sqlite_master where name = ?", [
            table,
          ])
        : [];
    out[table] = {
      definition: definition?.sql,
      indexes: (await indexNamesOf(store, table)).sort(),
      triggers: (await queryRows<{ name: string }>(store.db, store.kind, triggers, [table])).map((r) => r.name),
    };
  }
  return out;
}

const PENDING_READ = `select "address", "hop" from "funding_addresses" where "traced_to_block" is null
  order by "hop", "address" limit ?`;

describe.each(storeBackends)("tables keyed by one text since 0064, on $kind", (backend) => {
  it("migration 0064 keeps every row, index and trigger, and the writers write after it as before", async () => {
    const migrated = await backend.open({ migrations: migrationsBefore(MIGRATION) });
    const earlier = await backend.open({ migrations: migrationsBefore(MIGRATION) });
    try {
      const { store } = migrated;
      await writeFirst(store);
      const before = await snapshot(store);
      expect(before.wallet_sync!.map((r) => r.wallet)).toEqual([...WALLETS.slice(0, 3)].sort());
      expect(before.funding_addresses).toHaveLength(WALLETS.length - 1 + 2);
      const layoutBefore = await layout(store);

      await migrateStore(store);
      expect(await snapshot(store)).toEqual(before);
      const layoutAfter = await layout(store);
      for (const table of TABLES) {
        const { definition, indexes, triggers } = layoutBefore[table]!;
        expect(layoutAfter[table]!.triggers).toEqual(triggers);
        if (store.kind === "postgres") {
          expect(layoutAfter[table]).toEqual(layoutBefore[table]);
          continue;
        }
        expect(layoutAfter[table]!.definition).toBe(`${definition} without rowid`);
        expect(indexes).toContain(`sqlite_autoindex_${table}_1`);
        expect(layoutAfter[table]!.indexes).toEqual(indexes.filter((name) => !name.startsWith("sqlite_autoindex_")));
      }
      expect(layoutAfter.funding_addresses!.indexes).toContain("funding_addresses_pending");
      expect(layoutAfter.market_stats!.triggers).toHaveLength(store.kind === "sqlite" ? 3 : 1);

      await writeFirst(earlier.store);
      const answers = await writeAgain(store);
      expect(answers).toEqual(await writeAgain(earlier.store));
      expect(answers.pending).toEqual([
        { address: WALLETS[2], hop: 0 },
        { address: WALLETS[3], hop: 0 },
        { address: FUNDERS[1], hop: 1 },
        { address: FUNDERS[2], hop: 2 },
      ]);
      expect(answers.fresh).toEqual([MARKETS[2]]);
      const after = await snapshot(store);
      expect(after).toEqual(await snapshot(earlier.store));
      expect(after.table_changes).not.toEqual(before.table_changes);
    } finally {
      await migrated.dispose();
      await earlier.dispose();
    }
  });

  it("a new store has them so, a second run changes nothing, and the pending funding read walks its index", async () => {
    const { store, dispose } = await backend.open();
    try {
      await writeFirst(store);
      const written = await snapshot(store);
      await store.transaction((tx) => textKeyedWithoutRowid.up(tx.db as never, store.kind));
      expect(await snapshot(store)).toEqual(written);
      if (store.sqlite) {
        for (const [table, { definition, indexes }] of Object.entries(await layout(store))) {
          expect(definition, table).toMatch(/without rowid$/i);
          expect(indexes, table).toEqual(table === "funding_addresses" ? ["funding_addresses_pending"] : []);
        }
        const plan = store
          .sqlite!.prepare(`explain query plan ${PENDING_READ}`)
          .all(10)
          .map((r) => (r as { detail: string }).detail);
        expect(plan).toEqual(["SCAN funding_addresses USING INDEX funding_addresses_pending"]);
        const byKey = store
          .sqlite!.prepare("explain query plan select status from wallet_sync where wallet = ?")
          .all(WALLETS[0])
          .map((r) => (r as { detail: string }).detail);
        expect(byKey).toEqual(["SEARCH wallet_sync USING PRIMARY KEY (wallet=?)"]);
      }
      expect(await pendingFundingAddresses(store.db, 10)).toEqual([
        { address: WALLETS[1], hop: 0 },
        { address: WALLETS[2], hop: 0 },
        { address: FUNDERS[0], hop: 1 },
        { address: FUNDERS[1], hop: 2 },
      ]);
    } finally {
      await dispose();
    }
  });
});
