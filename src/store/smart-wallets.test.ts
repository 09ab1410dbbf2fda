/**
 * `smart_wallet_ids` (src/store/smart-wallets.ts, migration 0053) on each store: whatever order wallets move in
 * and out of Smart Money, the set holds the fills' ids of exactly the wallets wallet_stats flags, and a market's
 * Smart Money trades are the newest fills of those wallets in that market (fast-check). Migration 0053 fills the
 * set from a store's statistics and gives the market index each fill's wallet. A change of the set moves
 * `smart_generation`, which a market's kept trades page is keyed by (test/api/markets-detail.test.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { insertFillsBefore0059 } from "../../test/support/earlier-layout.js";
import { recentWhaleTrades } from "../analytics/markets/market-detail.js";
import type { Store } from "./database.js";
import { readDeriveState, SMART_GENERATION } from "./derive-state.js";
import { insertFills, type NewFill } from "./fills.js";
import { migrateStore } from "./migrate.js";
import { indexPresent } from "./migrations/0014_drilldown_fill_indexes.js";
import { queryRows } from "./raw-sql.js";
import { writeSmartWallets } from "./smart-wallets.js";
import { newFill } from "./testing/new-fill.js";
import { heldSmartWallets } from "./testing/smart-wallets.js";

const WALLETS = Array.from({ length: 6 }, (_, i) => `0x${String(i + 1).repeat(40)}`);
const MARKETS = ["0xaa", "0xbb"];
const T0 = 1_770_000_000;

/** Fills of every wallet in both markets, several sharing a second (the page breaks ties by id, newest first). */
const FILLS: NewFill[] = Array.from({ length: 60 }, (_, i) =>
  newFill({
    fill_key: `test:${i}`,
    source: "data_api",
    wallet: WALLETS[(i * 7) % WALLETS.length]!,
    condition_id: MARKETS[i % 2]!,
    ts: T0 + Math.floor(i / 3),
    usd: 1_000_000 + i,
  }),
);

/** Writes wallet_stats' flag of each wallet (the other columns at their defaults). */
async function storeFlags(db: Store["db"], kind: Store["kind"], smart: ReadonlyMap<string, boolean>): Promise<void> {
  for (const [wallet, isSmart] of smart)
    await queryRows(
      db,
      kind,
      `insert into wallet_stats (wallet, computed_at, is_smart) values (?, ?, ?)
        on conflict (wallet) do update set is_smart = excluded.is_smart`,
      [wallet, T0, isSmart ? 1 : 0],
    );
}

/** Flags as the Deriver writes them: the statistics, then the set, in one transaction. */
async function flag(store: Store, smart: ReadonlyMap<string, boolean>): Promise<void> {
  await store.transaction(async (tx) => {
    await storeFlags(tx.db, tx.kind, smart);
    await writeSmartWallets(tx, [...smart.keys()]);
  });
}

/** The wallets `flags` (the latest flag written for each) marks Smart Money. */
function flaggedSmart(flags: ReadonlyMap<string, boolean>): Set<string> {
  return new Set([...flags].filter(([, isSmart]) => isSmart).map(([wallet]) => wallet));
}

/** The page worked out from FILLS: the market's fills of `smart` wallets, newest first, later-stored first. */
function expectedPage(market: string, smart: ReadonlySet<string>, limit: number) {
  return FILLS.map((fill, order) => ({ fill, order }))
    .filter(({ fill }) => fill.condition_id === market && smart.has(fill.wallet))
    .sort((a, b) => b.fill.ts - a.fill.ts || b.order - a.order)
    .slice(0, limit)
    .map(({ fill }) => ({ timestamp: fill.ts, wallet: fill.wallet, usd_amount: fill.usd / 1e6 }));
}

async function expectPages(store: Store, smart: ReadonlySet<string>): Promise<void> {
  for (const market of MARKETS)
    for (const limit of [1, 4, 50]) {
      const page = await recentWhaleTrades(store, market, limit);
      expect(page.map((t) => ({ timestamp: t.timestamp, wallet: t.wallet, usd_amount: t.usd_amount }))).toEqual(
        expectedPage(market, smart, limit),
      );
    }
}

describe.each(storeBackends)("Smart Money wallets' ids on $kind", (backend) => {
  it("hold exactly the flagged wallets after any sequence of writes, and a market's page is their newest fills", async () => {
    const steps = fc.array(fc.array(fc.tuple(fc.constantFrom(...WALLETS), fc.boolean()), { maxLength: 4 }), {
      minLength: 1,
      maxLength: 5,
    });
    await fc.assert(
      fc.asyncProperty(steps, async (sequence) => {
        const { store, dispose } = await backend.open();
        try {
          await store.transaction((tx) => insertFills(tx, FILLS));
          const flags = new Map<string, boolean>();
          for (const step of sequence) {
            const written = new Map(step);
            for (const [wallet, isSmart] of written) flags.set(wallet, isSmart);
            await flag(store, written);
            expect(await heldSmartWallets(store)).toEqual([...flaggedSmart(flags)].sort());
          }
          await expectPages(store, flaggedSmart(flags));
        } finally {
          await dispose();
        }
      }),
      {
        numRuns: 6,
        seed: 53,
        // In, out and in again, and flagged twice in a row.
        examples: [
          [
            [
              [
                [WALLETS[0]!, true],
                [WALLETS[1]!, true],
              ],
              [[WALLETS[0]!, false]],
              [
                [WALLETS[0]!, true],
                [WALLETS[1]!, true],
              ],
            ],
          ],
        ],
      },
    );
  });

  it("move smart_generation when the set changes, and only then", async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.transaction((tx) => insertFills(tx, FILLS));
      const generation = () => readDeriveState(store.db, SMART_GENERATION);
      await flag(store, new Map([[WALLETS[0]!, true]]));
      const first = await generation();
      await flag(
        store,
        new Map([
          [WALLETS[0]!, true],
          [WALLETS[1]!, false],
        ]),
      );
      expect(await generation()).toBe(first);
      await flag(store, new Map([[WALLETS[1]!, true]]));
      expect(await generation()).toBe(first + 1);
      await flag(store, new Map([[WALLETS[0]!, false]]));
      expect(await generation()).toBe(first + 2);
    } finally {
      await dispose();
    }
  });

  it("leave out a wallet flagged both Smart Money and farmer", async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.transaction((tx) => insertFills(tx, FILLS));
      await flag(store, new Map([[WALLETS[0]!, true]]));
      const generation = await readDeriveState(store.db, SMART_GENERATION);
      await flag(store, new Map([[WALLETS[2]!, false]]));
      await store.transaction(async (tx) => {
        await queryRows(tx.db, tx.kind, "update wallet_stats set is_smart = 1, is_farmer = 1 where wallet = ?", [
          WALLETS[2]!,
        ]);
        await writeSmartWallets(tx, [WALLETS[2]!]);
      });
      expect(await heldSmartWallets(store)).toEqual([WALLETS[0]!]);
      expect(await readDeriveState(store.db, SMART_GENERATION)).toBe(generation);
    } finally {
      await dispose();
    }
  });

  it("are made by migration 0053 from the stored statistics, with the market index that holds each fill's wallet on SQLite", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0053_smart_wallet_ids") });
    try {
      await insertFillsBefore0059(store, FILLS);
      const smart = new Set([WALLETS[0]!, WALLETS[3]!, WALLETS[4]!]);
      await storeFlags(store.db, store.kind, new Map(WALLETS.map((wallet) => [wallet, smart.has(wallet)])));
      expect(await indexPresent(store.db, store.kind, "fills_condition_ts")).toBe(true);
      await migrateStore(store);
      expect(await heldSmartWallets(store)).toEqual([...smart].sort());
      // PostgreSQL keeps the index by market and time (its scan reads each entry's row anyway).
      const sqlite = store.kind === "sqlite";
      expect(await indexPresent(store.db, store.kind, "fills_condition_ts")).toBe(!sqlite);
      expect(await indexPresent(store.db, store.kind, "fills_condition_ts_wallet")).toBe(sqlite);
      await expectPages(store, smart);
    } finally {
      await dispose();
    }
  });
});
