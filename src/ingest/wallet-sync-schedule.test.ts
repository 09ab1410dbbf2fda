import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { emptyStats } from "../analytics/wallet/wallet-overview.js";
import { SyncRequester } from "../analytics/wallet/sync-requests.js";
import { BackgroundWork } from "../platform/background-work.js";
import { readCheckpoint } from "../store/checkpoints.js";
import { readWalletSync } from "../store/wallet-cache.js";
import { countWalletSyncRequests, requestWalletSyncs } from "../store/wallet-sync-requests.js";
import { address, startFakeVenue, type FakeVenue } from "./testing/fake-venue.js";
import { openIngestHarness, type IngestHarness } from "./testing/harness.js";
import { WalletSync } from "./wallet-sync.js";
import { WalletSyncQueue } from "./wallet-sync-queue.js";
import { WalletSyncSchedule } from "./wallet-sync-schedule.js";
import { SOURCES } from "./sources.js";

const SMART = address(0x5a1);
const TOP = address(0x70b);
const OTHER = address(0x07e);
const HOUR = 3_600;
const NO_BOARD = { avg_entry_price: null, mint_volume_30d: 0, merge_volume_30d: 0, maker_volume_30d: 0, volume_30d: 0 };

describe.each(storeBackends)("the wallet sync schedule on $kind", (backend) => {
  let venue: FakeVenue;
  let h: IngestHarness;
  let queue: WalletSyncQueue;
  let schedule: WalletSyncSchedule;
  const synced: string[] = [];

  beforeEach(async () => {
    venue = await startFakeVenue();
    venue.dataApi.intercept = (request) =>
      void (request.path === "/user-pnl" && synced.push(request.query.get("user_address")!));
    h = await openIngestHarness(backend, venue);
    const sync = new WalletSync(h.context(), venue.clients().dataApi, venue.clients().pnl, {
      storeTradesAndChainActivity: false,
      maxClosedPositions: 1_000,
    });
    queue = new WalletSyncQueue(sync, h.store, h.platform.clock, h.logger, { concurrency: 2, freshSeconds: 600 });
    schedule = new WalletSyncSchedule(queue, h.store, h.platform.clock, h.logger, {
      concurrency: 2,
      pollSeconds: 1,
      refreshSeconds: HOUR,
      refreshTop: 1,
    });
    synced.length = 0;
  });
  afterEach(async () => {
    queue.close();
    await h.dispose();
    await venue.close();
  });

  const settle = async () => {
    for (let i = 0; i < 200 && ((await countWalletSyncRequests(h.store.db)) > 0 || queue.size > 0); i++)
      await new Promise((r) => setTimeout(r, 10));
  };

  it("syncs the wallets another process asked for, oldest first, and deletes each request once its sync has run", async () => {
    const now = h.platform.clock.now();
    await requestWalletSyncs(h.store.db, [OTHER], now - 10);
    await requestWalletSyncs(h.store.db, [SMART, TOP], now);
    // Asking again for a wallet already waiting adds nothing.
    await requestWalletSyncs(h.store.db, [OTHER], now);
    expect(await countWalletSyncRequests(h.store.db)).toBe(3);
    // The queue runs two at once: it takes up to twice that.
    expect(await schedule.takeRequests()).toEqual([OTHER, ...[SMART, TOP].sort()]);
    await settle();
    expect(await countWalletSyncRequests(h.store.db)).toBe(0);
    expect(synced.sort()).toEqual([OTHER, SMART, TOP].sort());
    for (const wallet of [OTHER, SMART, TOP])
      expect(await readWalletSync(h.store.db, wallet)).toMatchObject({ status: "ok" });
    // The syncs show on the wallet-sync source, which health lists.
    expect(await readCheckpoint(h.store.db, SOURCES.wallets)).toMatchObject({ first_sync_done: 1, errors: 0 });
  });

  it("a failed sync still ends its request, and counts on the wallet-sync source", async () => {
    venue.dataApi.intercept = (request) =>
      request.path === "/positions" ? { status: 500, body: { error: "down" } } : undefined;
    await requestWalletSyncs(h.store.db, [OTHER], h.platform.clock.now());
    await schedule.takeRequests();
    await settle();
    expect(await countWalletSyncRequests(h.store.db)).toBe(0);
    expect(await readWalletSync(h.store.db, OTHER)).toMatchObject({ status: "error" });
    expect((await readCheckpoint(h.store.db, SOURCES.wallets))?.errors).toBeGreaterThan(0);
  });

  it("keeps the listed wallets fresh: Smart Money and the best by P&L, the stalest first, one at a time", async () => {
    const now = h.platform.clock.now();
    await h.store.db
      .insertInto("wallet_stats")
      .values([
        { ...emptyStats(SMART, now), ...NO_BOARD, is_smart: 1 },
        { ...emptyStats(TOP, now), ...NO_BOARD, rank_pnl: 1 },
        { ...emptyStats(OTHER, now), ...NO_BOARD, rank_pnl: 2 },
      ])
      .execute();
    // SMART was synced two hours ago, TOP never: TOP goes first.
    await h.store.db
      .insertInto("wallet_sync")
      .values({ ...(await syncRow(SMART)), synced_at: now - 2 * HOUR, updated_at: now - 2 * HOUR })
      .execute();
    expect(await schedule.refreshOne()).toBe(TOP);
    // One background sync at a time.
    expect(await schedule.refreshOne()).toBeNull();
    await schedule.idle();
    expect(await schedule.refreshOne()).toBe(SMART);
    await schedule.idle();
    // Both fresh now; OTHER ranks second where the top 1 is kept: none left.
    expect(await schedule.refreshOne()).toBeNull();
    expect(synced).toEqual([TOP, SMART]);
  });

  it("a first look syncs the heads of Smart Money and the P&L, volume and trades boards never synced, and waits for them", async () => {
    const now = h.platform.clock.now();
    const BUSY = address(0xb5);
    const BIG = address(0xb16);
    const TAIL = address(0x7a1);
    await h.store.db
      .insertInto("wallet_stats")
      .values([
        { ...emptyStats(SMART, now), ...NO_BOARD, is_smart: 1, total_pnl: -5 },
        { ...emptyStats(TOP, now), ...NO_BOARD, total_pnl: 900 },
        { ...emptyStats(BIG, now), ...NO_BOARD, total_volume: 50_000 },
        { ...emptyStats(BUSY, now), ...NO_BOARD, total_trades: 700 },
        { ...emptyStats(TAIL, now), ...NO_BOARD, total_pnl: 1, total_volume: 1, total_trades: 1 },
        { ...emptyStats(OTHER, now), ...NO_BOARD, total_pnl: 800, total_volume: 40_000, total_trades: 600 },
      ])
      .execute();
    // OTHER is second on every board but synced already.
    await h.store.db
      .insertInto("wallet_sync")
      .values(await syncRow(OTHER))
      .execute();
    // A limit of 8 takes two of each list's head: SMART; TOP and OTHER; BIG and OTHER; BUSY and OTHER.
    expect(await schedule.firstLook(8)).toBe(4);
    expect(synced.sort()).toEqual([SMART, TOP, BIG, BUSY].sort());
    for (const wallet of [SMART, TOP, BIG, BUSY])
      expect(await readWalletSync(h.store.db, wallet)).toMatchObject({ status: "ok" });
    // Again: nothing new in any head.
    expect(await schedule.firstLook(8)).toBe(0);
    // TAIL moves into the P&L board's head: only it is synced.
    await h.store.db.updateTable("wallet_stats").set({ total_pnl: 2_000 }).where("wallet", "=", TAIL).execute();
    expect(await schedule.firstLook(8)).toBe(1);
    expect(synced.at(-1)).toBe(TAIL);
    expect(synced).toHaveLength(5);
  });

  it("is fed by the API's first views: a stored wallet asked about is requested once per freshness window", async () => {
    const requester = new SyncRequester(h.store, h.platform.clock, 600, new BackgroundWork());
    requester.request(SMART);
    requester.request(SMART);
    requester.request(TOP);
    await requester.flush();
    expect(
      (await h.store.db.selectFrom("wallet_sync_requests").select("wallet").orderBy("wallet").execute()).map(
        (r) => r.wallet,
      ),
    ).toEqual([SMART, TOP].sort());
    await h.store.db.deleteFrom("wallet_sync_requests").execute();
    requester.request(SMART);
    await requester.close();
    expect(await countWalletSyncRequests(h.store.db)).toBe(0);
  });

  async function syncRow(wallet: string) {
    return {
      wallet,
      synced_at: null,
      status: "ok" as const,
      positions_count: 0,
      positions_truncated: 0 as const,
      closed_positions_count: 0,
      closed_positions_truncated: 0 as const,
      activity_count: 0,
      activity_truncated: 0 as const,
      activity_cursor: null,
      lifetime_pnl: null,
      venue_history_from: null,
      last_error: null,
      updated_at: 0,
    };
  }
});
