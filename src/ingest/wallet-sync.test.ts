import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { readWalletSync } from "../store/wallet-cache.js";
import { storedVenuePnlPoints } from "../store/testing/pnl-points.js";
import { CONTRACTS, type DataActivityRow, type DataClosedPositionRow, type DataPositionRow } from "../venue/index.js";
import { address, hash32, startFakeVenue, type FakeVenue } from "./testing/fake-venue.js";
import { openIngestHarness, type IngestHarness } from "./testing/harness.js";
import { WalletSync } from "./wallet-sync.js";
import { WalletSyncQueue } from "./wallet-sync-queue.js";

const WALLET = address(0xfeed);
const COND = hash32(0xc0);
let serial = 0;

function activity(
  type: DataActivityRow["type"],
  ts: number,
  overrides: Partial<DataActivityRow> = {},
): DataActivityRow {
  serial += 1;
  const trade = type === "TRADE";
  return {
    proxyWallet: WALLET,
    timestamp: ts,
    conditionId: type === "REWARD" ? "" : COND,
    type,
    size: 10,
    usdcSize: trade ? 4.2 : 10,
    transactionHash: hash32(0x5000 + serial),
    price: trade ? 0.42 : 0,
    asset: trade ? "777" : "",
    side: trade ? "BUY" : "",
    outcomeIndex: trade ? 0 : 999,
    name: "whale",
    pseudonym: "Calm-Eagle",
    ...overrides,
  };
}

const position = (i: number): DataPositionRow => ({
  proxyWallet: WALLET,
  asset: String(9000 + i),
  conditionId: COND,
  size: 100,
  avgPrice: 0.4,
  initialValue: 40,
  currentValue: 55,
  cashPnl: 15,
  totalBought: 100,
  realizedPnl: 0,
  curPrice: 0.55,
  redeemable: false,
  mergeable: false,
  outcomeIndex: i % 2,
  title: "Will it?",
});

const closed = (i: number): DataClosedPositionRow => ({
  proxyWallet: WALLET,
  asset: String(8000 + i),
  conditionId: COND,
  avgPrice: 0.3,
  totalBought: 50,
  realizedPnl: i % 3 === 0 ? -5 : 12.5,
  curPrice: 1,
  timestamp: 1_777_000_000 + i,
  outcomeIndex: 0,
});

describe.each(storeBackends)("wallet sync on $kind", (backend) => {
  let venue: FakeVenue;
  let h: IngestHarness;
  const sync = (options: { dataApiMode?: boolean; maxClosed?: number } = {}) =>
    new WalletSync(h.context(), venue.clients().dataApi, venue.clients().pnl, {
      storeTradesAndChainActivity: options.dataApiMode ?? false,
      maxClosedPositions: options.maxClosed ?? 1_000,
    });

  beforeEach(async () => {
    venue = await startFakeVenue();
    venue.dataApi.positions = [position(1), position(2)];
    venue.dataApi.closedPositions = Array.from({ length: 60 }, (_, i) => closed(i));
    venue.dataApi.pnl.set(WALLET, [
      { t: 1_776_000_000, p: 10.5 },
      { t: 1_776_086_400, p: 1234.56 },
    ]);
    venue.dataApi.activity = [
      activity("TRADE", 1_777_000_001),
      activity("REWARD", 1_777_000_002),
      activity("SPLIT", 1_777_000_003),
      activity("REDEEM", 1_777_000_004),
    ];
    h = await openIngestHarness(backend, venue);
  });
  afterEach(async () => {
    await h.dispose();
    await venue.close();
  });

  it("stores the venue's positions, closed positions and P&L curve, with the counts the 95% rule needs", async () => {
    const row = await sync().sync(WALLET.toUpperCase().replace("0X", "0x"));
    expect(row).toMatchObject({
      wallet: WALLET,
      status: "ok",
      positions_count: 2,
      closed_positions_count: 60,
      closed_positions_truncated: 0,
      lifetime_pnl: 1_234_560_000,
    });
    expect(await readWalletSync(h.store.db, WALLET)).toEqual(row);
    const stored = await h.store.db.selectFrom("venue_positions").selectAll().orderBy("token_id").execute();
    expect(stored.map((p) => [p.token_id, p.size, p.avg_price, p.cash_pnl])).toEqual([
      ["9001", 100_000_000, 0.4, 15_000_000],
      ["9002", 100_000_000, 0.4, 15_000_000],
    ]);
    expect(
      await h.store.db
        .selectFrom("venue_closed_positions")
        .select("realized_pnl")
        .where("token_id", "=", "8003")
        .executeTakeFirst(),
    ).toEqual({ realized_pnl: -5_000_000 });
    expect(await storedVenuePnlPoints(h.store)).toEqual([
      { wallet: WALLET, t: 1_776_000_000, pnl: 10_500_000 },
      { wallet: WALLET, t: 1_776_086_400, pnl: 1_234_560_000 },
    ]);
    // A position the venue no longer lists is gone after the next sync.
    venue.dataApi.positions = [position(2)];
    expect(await sync().sync(WALLET)).toMatchObject({ positions_count: 1 });
    expect(await h.store.db.selectFrom("venue_positions").select("token_id").execute()).toEqual([{ token_id: "9002" }]);
  });

  it("marks the closed positions truncated when there are more than it reads", async () => {
    expect(await sync({ maxClosed: 50 }).sync(WALLET)).toMatchObject({
      closed_positions_count: 50,
      closed_positions_truncated: 1,
    });
  });

  it("stores rewards always, and trades and on-chain activity only when fills come from the Data API", async () => {
    await sync().sync(WALLET);
    expect((await h.store.db.selectFrom("wallet_activity").select("type").execute()).map((a) => a.type)).toEqual([
      "REWARD",
    ]);
    expect(await h.store.db.selectFrom("fills").select("id").execute()).toEqual([]);
    // As a deployment without an RPC URL would, from the start of the wallet's history.
    await h.store.db.deleteFrom("wallet_sync").execute();
    await sync({ dataApiMode: true }).sync(WALLET);
    expect(
      (await h.store.db.selectFrom("wallet_activity").select("type").orderBy("ts").execute()).map((a) => a.type),
    ).toEqual(["REWARD", "SPLIT", "REDEEM"]);
    const trade = venue.dataApi.activity[0]!;
    expect(await h.store.db.selectFrom("fills").select(["fill_key", "usd", "source"]).execute()).toEqual([
      {
        fill_key: `data:${trade.transactionHash}:${WALLET}:777:BUY:10000000:420000`,
        usd: 4_200_000,
        source: "data_api",
      },
    ]);
    expect(
      await h.store.db
        .selectFrom("wallets")
        .select(["name", "pseudonym"])
        .where("address", "=", WALLET)
        .executeTakeFirst(),
    ).toEqual({ name: "whale", pseudonym: "Calm-Eagle" });
  });

  it("reads a long activity history to the end in time windows, and flags a single second beyond the ceiling", async () => {
    venue.dataApi.ceiling = 10;
    venue.dataApi.activity = Array.from({ length: 1_200 }, (_, i) => activity("REWARD", 1_777_100_000 + i));
    const row = await sync().sync(WALLET);
    expect(row).toMatchObject({ activity_count: 1_200, activity_truncated: 0, activity_cursor: 1_777_101_199 });
    venue.dataApi.activity.push(...Array.from({ length: 600 }, () => activity("REWARD", 1_777_200_000)));
    expect(await sync().sync(WALLET)).toMatchObject({
      activity_count: 1_700,
      activity_truncated: 1,
      activity_cursor: 1_777_200_000,
    });
  });

  it("queues syncs: one at a time per wallet, fresh ones served from the cache, failures recorded", async () => {
    let requests = 0;
    venue.dataApi.intercept = (r) => void (r.path === "/positions" && requests++);
    const queue = new WalletSyncQueue(sync(), h.store, h.platform.clock, h.logger, {
      concurrency: 1,
      freshSeconds: 600,
    });
    const [a, b] = await Promise.all([queue.request(WALLET), queue.request(WALLET)]);
    expect(a).toEqual(b);
    await queue.request(WALLET);
    expect(requests).toBe(1);
    await queue.request(WALLET, { force: true });
    expect(requests).toBe(2);
    await expect(queue.request(CONTRACTS.ctfExchangeV1)).rejects.toThrow("venue contract");
    venue.dataApi.intercept = (r) => (r.path === "/positions" ? { status: 404, body: { error: "no" } } : undefined);
    await expect(queue.request(address(0xbad), { force: true })).rejects.toThrow("HTTP 404");
    expect(await readWalletSync(h.store.db, address(0xbad))).toMatchObject({
      status: "error",
      last_error: expect.stringContaining("HTTP 404"),
    });
  });
});
