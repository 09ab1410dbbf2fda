import { afterAll, afterEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { loadConfig } from "../config/index.js";
import { SECONDS_PER_DAY } from "../ledger/index.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import { smallWorld } from "../sim/world/testing/worlds.js";
import type { Store } from "../store/database.js";
import { FIRST_SYNC_DERIVED, readDeriveState } from "../store/derive-state.js";
import { storedPnlPoints } from "../store/testing/pnl-points.js";
import { createDeferredFillIndexes, dropDeferredFillIndexes } from "../store/fills.js";
import type { DerivedTable } from "../store/derived-tables.js";
import { heldSmartWallets } from "../store/testing/smart-wallets.js";
import type { CommittedRows } from "./batch-applier.js";
import { Deriver } from "./deriver.js";
import { dayStart, rebuild } from "./rebuild.js";
import { deriveConfig, loadWorld, type LoadedRows } from "./testing/stored-world.js";

const world = smallWorld(5);
const config = loadConfig({});
const mid = dayStart(world.start + (world.end - world.start) / 2);

async function rows(
  store: Store,
  table: DerivedTable,
  where?: (row: Record<string, unknown>) => boolean,
): Promise<string[]> {
  const all = (await store.db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
  return all
    .filter((row) => !where || where(row))
    .map((row) => JSON.stringify(row))
    .sort();
}

/** The addresses `smart_wallet_ids` holds, checked against wallet_stats' flags. */
async function smartWallets(store: Store): Promise<string[]> {
  const held = await heldSmartWallets(store);
  const flagged = await store.db
    .selectFrom("wallet_stats")
    .select("wallet")
    .where("is_smart", "=", 1)
    .where("is_farmer", "=", 0)
    .orderBy("wallet")
    .execute();
  expect(flagged.length).toBeGreaterThan(0);
  expect(held).toEqual(flagged.map((r) => r.wallet));
  return held;
}

const storedTrades = async (store: Store, wallet: string) =>
  (await store.db.selectFrom("wallet_stats").select("total_trades").where("wallet", "=", wallet).executeTakeFirst())
    ?.total_trades ?? 0;
const count = (batch: CommittedRows, wallet: string) => batch.fills.filter((f) => f.wallet === wallet).length;

describe.each(storeBackends)("the Deriver on $kind", (backend) => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (disposers.length) await disposers.pop()!();
  });
  async function open(): Promise<Store> {
    const { store, dispose } = await backend.open();
    disposers.push(dispose);
    return store;
  }
  /** A store holding the first half of the world, its Deriver started, and the second half's batches, stored but not yet handed over. */
  async function halfway(clock: ManualClock): Promise<{ store: Store; deriver: Deriver; batches: LoadedRows[] }> {
    const store = await open();
    await loadWorld(store, world, { range: { to: mid }, updatedAt: clock.now() });
    const deriver = new Deriver({ store, config, clock, logger: createLogger("silent") });
    disposers.push(() => deriver.stop());
    await deriver.start();
    const batches: LoadedRows[] = [];
    await loadWorld(store, world, {
      range: { from: mid },
      updatedAt: clock.now(),
      batchRows: 400,
      onBatch: async (batch) => void batches.push(batch),
    });
    return { store, deriver, batches };
  }
  /** The world loaded whole and rebuilt at the clock's time: built once per time and kept for the file's tests. */
  const references = new Map<number, Promise<{ store: Store; dispose(): Promise<void> }>>();
  afterAll(async () => {
    for (const reference of references.values()) await (await reference).dispose();
  });
  async function rebuilt(clock: ManualClock): Promise<Store> {
    const at = clock.nowMs();
    if (!references.has(at))
      references.set(
        at,
        (async () => {
          const opened = await backend.open();
          await loadWorld(opened.store, world, { updatedAt: clock.now() });
          await rebuild(opened.store, deriveConfig(), new ManualClock(at));
          return opened;
        })(),
      );
    return (await references.get(at)!).store;
  }
  async function expectSameAsRebuild(store: Store, clock: ManualClock): Promise<void> {
    const reference = await rebuilt(clock);
    for (const table of [
      "positions",
      "wallet_stats",
      "market_stats",
      "wallet_fees",
      "wallet_daily_fills",
      "wallet_last_moves",
    ] as const)
      expect(await rows(store, table), table).toEqual(await rows(reference, table));
    expect(await smartWallets(store)).toEqual(await smartWallets(reference));
    // The daily price sums to 12 digits: a batch's are added to the stored ones, in another order than a rebuild's.
    const prices = async (s: Store) =>
      (await s.db.selectFrom("market_daily_prices").selectAll().execute())
        .map((r) => JSON.stringify({ ...r, weighted: Number(Number(r.weighted).toPrecision(12)) }))
        .sort();
    expect(await prices(store), "market_daily_prices").toEqual(await prices(reference));
    const daily = { resolution: "day" } as const;
    expect(await storedPnlPoints(store, daily)).toEqual(await storedPnlPoints(reference, daily));
    // The hourly points of the kept window too: the rebuild writes the ones the batches' path took hour by hour.
    const kept = clock.now() - config.derive.hourlyPointsDays * SECONDS_PER_DAY;
    const hourly = async (s: Store) => (await storedPnlPoints(s, { resolution: "hour" })).filter((p) => p.t >= kept);
    const expected = await hourly(reference);
    expect(expected.length).toBeGreaterThan(100);
    expect(await hourly(store)).toEqual(expected);
  }

  /** Nothing derived while the first sync runs; once its last batch builds the index, what a rebuild derives. */
  async function expectDerivedAtSyncEnd(store: Store, deriver: Deriver, clock: ManualClock): Promise<void> {
    await deriver.idle();
    for (const table of ["positions", "wallet_stats"] as const) expect(await rows(store, table), table).toEqual([]);
    expect(await storedPnlPoints(store)).toEqual([]);
    await store.transaction((tx) => createDeferredFillIndexes(tx));
    await deriver.firstSyncCaughtUp();
    await expectSameAsRebuild(store, clock);
    expect(await readDeriveState(store.db, FIRST_SYNC_DERIVED)).toBe(1);
  }

  it("leaves the same tables as one rebuild when the world comes in two halves, the second batch by batch", async () => {
    const clock = new ManualClock((world.end + 3_600) * 1000);
    const { store, deriver, batches } = await halfway(clock);
    for (const batch of batches) await deriver.onCommitted(batch);
    await deriver.refresh({ full: true });
    await expectSameAsRebuild(store, clock);
    // The day's snapshot is the state at its start, as the rebuild's.
    const today = (row: Record<string, unknown>) => row.day === dayStart(world.end);
    expect(await rows(store, "position_snapshots", today)).toEqual(
      await rows(await rebuilt(clock), "position_snapshots", today),
    );
  });

  it("started in a first sync without the fills' wallet index, reads nothing until the sync completes, then derives what a rebuild does", async () => {
    // A restart in the middle of a first sync that deferred its indexes: streaming the store in wallet order
    // now would sort every stored fill. The Deriver waits for the sync's last batch, which builds the index.
    const clock = new ManualClock((world.end + 3_600) * 1000);
    const store = await open();
    await loadWorld(store, world, { range: { to: mid }, updatedAt: clock.now() });
    await store.transaction(dropDeferredFillIndexes);
    const deriver = new Deriver({ store, config, clock, logger: createLogger("silent") });
    disposers.push(() => deriver.stop());
    await deriver.start();
    await loadWorld(store, world, {
      range: { from: mid },
      updatedAt: clock.now(),
      batchRows: 400,
      onBatch: (batch) => deriver.onCommitted(batch),
    });
    await expectDerivedAtSyncEnd(store, deriver, clock);
  });

  it("derives a first sync that deferred the fills' wallet index once, at its end, as a rebuild does", async () => {
    // Started on an empty store, as a fresh service is; the ingest's backfill then drops the index. Applying each
    // batch and rewriting the same wallets' rows again and again would cost more than one replay at the end.
    const clock = new ManualClock((world.end + 3_600) * 1000);
    const store = await open();
    const deriver = new Deriver({ store, config, clock, logger: createLogger("silent") });
    disposers.push(() => deriver.stop());
    await deriver.start();
    await store.transaction(dropDeferredFillIndexes);
    await loadWorld(store, world, {
      updatedAt: clock.now(),
      batchRows: 400,
      onBatch: (batch) => deriver.onCommitted(batch),
    });
    await expectDerivedAtSyncEnd(store, deriver, clock);
  });

  it("moves the leaderboards' 30-day window at each refresh, and counts the writes of wallet_stats in stats_generation", async () => {
    const clock = new ManualClock((world.end + 3_600) * 1000);
    const { store, deriver, batches } = await halfway(clock);
    const generation = async () =>
      Number(
        (
          await store.db
            .selectFrom("derive_state")
            .select("value")
            .where("name", "=", "stats_generation")
            .executeTakeFirstOrThrow()
        ).value,
      );
    const volumes = async () =>
      new Map(
        (await store.db.selectFrom("wallet_stats").select(["wallet", "volume_30d"]).execute()).map((r) => [
          r.wallet,
          r.volume_30d,
        ]),
      );
    const started = await generation();
    for (const batch of batches) await deriver.onCommitted(batch);
    expect(await generation()).toBe(started);
    await deriver.refresh();
    expect(await generation()).toBe(started + 1);
    const before = await volumes();
    // Two weeks on, no new fills: the fills of the window's first two weeks leave it.
    clock.set((world.end + 14 * SECONDS_PER_DAY) * 1000);
    await deriver.refresh({ full: true });
    const after = await volumes();
    expect([...after].filter(([wallet, v]) => v < before.get(wallet)!).length).toBeGreaterThan(0);
    // (market_stats rows that did not change keep their computed_at, so only wallet_stats compares whole here.)
    expect(await rows(store, "wallet_stats")).toEqual(await rows(await rebuilt(clock), "wallet_stats"));
  });

  it("derives again from the store the wallets whose events come out of order", async () => {
    const clock = new ManualClock((world.end + 3_600) * 1000);
    const { store, deriver, batches } = await halfway(clock);
    const shuffled = batches
      .map((batch, i) => [Math.sin(i * 7.3), batch] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, batch]) => batch);
    for (const batch of shuffled.slice(0, shuffled.length >> 1)) await deriver.onCommitted(batch);
    // A refresh in between derives the late wallets from rows that later batches still hand over: they count once.
    await deriver.refresh();
    for (const batch of shuffled.slice(shuffled.length >> 1)) await deriver.onCommitted(batch);
    await deriver.refresh({ full: true });
    await expectSameAsRebuild(store, clock);
  });

  it("updates touched positions and statistics with each batch, before any refresh (both wait for it while catching up)", async () => {
    const clock = new ManualClock(mid * 1000);
    const { store, deriver, batches } = await halfway(clock);
    const first: CommittedRows = batches[0]!;
    const second: CommittedRows = batches[1]!;
    const trades = (wallet: string) => storedTrades(store, wallet);
    const wallet = first.fills[0]!.wallet;
    const before = await trades(wallet);
    clock.set((Math.max(...first.fills.map((f) => f.ts)) + 60) * 1000);
    await deriver.onCommitted(first);
    expect(await trades(wallet)).toBe(before + count(first, wallet));
    const position = await store.db
      .selectFrom("positions")
      .selectAll()
      .where("wallet", "=", wallet)
      .where("token_id", "=", first.fills[0]!.token_id)
      .executeTakeFirstOrThrow();
    expect(position.last_ts).toBeGreaterThanOrEqual(
      first.fills.filter((f) => f.wallet === wallet && f.token_id === position.token_id).at(-1)!.ts,
    );

    // Days behind the clock (a backfill), a batch writes nothing; the refresh writes its positions and statistics.
    clock.set((world.end + 3_600) * 1000);
    const other = second.fills[0]!.wallet;
    const otherBefore = await trades(other);
    const lastFill = second.fills.filter((f) => f.wallet === other).at(-1)!;
    const lastTs = async () =>
      (
        await store.db
          .selectFrom("positions")
          .select("last_ts")
          .where("wallet", "=", other)
          .where("token_id", "=", lastFill.token_id)
          .executeTakeFirst()
      )?.last_ts ?? 0;
    await deriver.onCommitted(second);
    expect(await trades(other)).toBe(otherBefore);
    expect(await lastTs()).toBeLessThan(lastFill.ts);
    await deriver.refresh();
    expect(await trades(other)).toBe(otherBefore + count(second, other));
    expect(await lastTs()).toBeGreaterThanOrEqual(lastFill.ts);
  });

  // idle() runs it now, not seconds later; stop() runs it instead of dropping it.
  it.each(["idle", "stop"] as const)(
    "has written what a backfill's batch deferred once %s() resolves",
    async (step) => {
      const clock = new ManualClock((world.end + 3_600) * 1000);
      const { store, deriver, batches } = await halfway(clock);
      const wallet = batches[0]!.fills[0]!.wallet;
      const before = await storedTrades(store, wallet);
      await deriver.onCommitted(batches[0]!);
      expect(await storedTrades(store, wallet)).toBe(before);
      await deriver[step]();
      expect(await storedTrades(store, wallet)).toBe(before + count(batches[0]!, wallet));
    },
  );

  it("snapshots each day as its first event arrives and writes hourly points as the clock passes hours", async () => {
    // The clock follows the events, as it does when the ingest keeps up.
    const clock = new ManualClock(mid * 1000);
    const { store, deriver, batches } = await halfway(clock);
    const days = new Set<number>();
    for (const batch of batches.slice(0, 12)) {
      const last = Math.max(...batch.fills.map((f) => f.ts));
      clock.set((last + 60) * 1000);
      await deriver.onCommitted(batch);
      days.add(dayStart(last));
      await deriver.refresh();
    }
    const snapshotDays = new Set(
      (await store.db.selectFrom("position_snapshots").select("day").distinct().execute()).map((r) => r.day),
    );
    for (const day of days) expect(snapshotDays.has(day)).toBe(true);
    const hours = await storedPnlPoints(store, { resolution: "hour" });
    expect(hours.length).toBeGreaterThan(1);
    expect(hours.every(({ t }) => t % 3_600 === 0 && t <= clock.now())).toBe(true);
    // pnl_24h compares with the hourly point a day back.
    const withChange = await store.db
      .selectFrom("wallet_stats")
      .select("pnl_24h")
      .where("pnl_24h", "is not", null)
      .execute();
    expect(withChange.length).toBeGreaterThan(0);
    // Old snapshots and hourly points are pruned as the clock moves on.
    clock.set((clock.now() + 60 * SECONDS_PER_DAY) * 1000);
    const late = batches[12]!;
    await deriver.onCommitted(late);
    await deriver.refresh();
    const oldest = (await storedPnlPoints(store, { resolution: "hour" })).reduce(
      (min, p) => Math.min(min, p.t),
      Number.POSITIVE_INFINITY,
    );
    expect(oldest ?? Infinity).toBeGreaterThanOrEqual(clock.now() - config.derive.hourlyPointsDays * SECONDS_PER_DAY);
  });
});
