/** The clients of src/venue, unchanged, read the simulated venue correctly. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectPages } from "../../venue/paging.js";
import { logFilterFor } from "../../venue/chain/abi.js";
import { RtdsClient, type RtdsMessage } from "../../venue/rtds.js";
import { fillFromRtdsTrade, normalizeGammaMarket, positionRecordOf } from "../../venue/shapes/index.js";
import { blockAt, referencePnl } from "../world/index.js";
import { ISW_LAYERS, truthFills, truthMarkets, type SimVenue } from "./index.js";
import { clientsFor, closeVenues, smallVenue, TEST_END } from "./testing/venues.js";

let venue: SimVenue;
beforeAll(async () => {
  venue = await smallVenue();
});
afterAll(closeVenues);

const busiest = (v: SimVenue) =>
  v.world.wallets
    .map((w) => w.index)
    .sort((a, b) => v.world.fillsOfWallet(b).length - v.world.fillsOfWallet(a).length)[0]!;

describe("GammaClient", () => {
  it("pages every market, open and closed, and agrees with the ground truth", async () => {
    const { gamma } = clientsFor(venue);
    const open = await collectPages(gamma.markets({}, { pageSize: 7 }));
    const closed = await collectPages(gamma.markets({ closed: true }, { pageSize: 7 }));
    expect(open.rejected.concat(closed.rejected)).toEqual([]);
    const records = [...open.rows, ...closed.rows]
      .map((m) => normalizeGammaMarket(m))
      .map((r) => (r.ok ? r.record : null));
    const truth = truthMarkets(venue.world);
    expect(records.map((r) => r?.conditionId).sort()).toEqual(truth.map((m) => m.conditionId).sort());
    const byCondition = new Map(records.map((r) => [r!.conditionId, r!]));
    for (const m of truth)
      expect([byCondition.get(m.conditionId)!.resolution, byCondition.get(m.conditionId)!.yesTokenId]).toEqual([
        m.resolution,
        m.yesTokenId,
      ]);
    const picked = truth.slice(0, 5).map((m) => m.conditionId);
    expect((await gamma.marketsByConditionIds(picked, { chunk: 2 })).rows.map((m) => m.conditionId).sort()).toEqual(
      [...picked].sort(),
    );
  });

  it("follows the events keyset to the end", async () => {
    const { gamma } = clientsFor(venue);
    const open = await collectPages(gamma.events({}, { pageSize: 3 }));
    const closed = await collectPages(gamma.events({ closed: true }, { pageSize: 3 }));
    expect(open.rows.length + closed.rows.length).toBe(venue.world.events.length);
  });
});

describe("DataApiClient", () => {
  it("pages /trades to the offset ceiling and says the list was truncated", async () => {
    const { dataApi } = clientsFor(venue);
    expect(venue.world.fillCount).toBeGreaterThan(11_000);
    const result = await collectPages(dataApi.trades({ takerOnly: false }, { pageSize: 1_000 }));
    expect(result.truncated).toBe(true);
    expect(result.rows).toHaveLength(11_000);
    expect(result.rows[0]!.transactionHash).toBe(venue.world.txHashOfFill(venue.world.fillCount - 1));
    const takers = await collectPages(dataApi.trades({}, { pageSize: 1_000 }));
    expect([takers.truncated, takers.rows.length]).toEqual([false, venue.world.matchCount]);
  });

  it("reads a whole short history without truncation, and the venue's own positions", async () => {
    const { dataApi, pnl } = clientsFor(venue);
    const w = busiest(venue);
    const user = venue.world.wallets[w]!.proxyWallet;
    const trades = await collectPages(dataApi.trades({ user, takerOnly: false }, { pageSize: 500 }));
    expect(trades.truncated).toBe(false);
    expect(trades.rows).toHaveLength(venue.world.fillsOfWallet(w).length);
    const activity = await collectPages(dataApi.activity(user, {}, { pageSize: 100 }));
    expect(activity.rows.length).toBe(venue.world.fillsOfWallet(w).length + [...venue.world.opsOfWallet(w)].length);
    const reference = referencePnl(venue.world, w);
    const positions = await collectPages(dataApi.positions(user, { sizeThreshold: 0 }, { pageSize: 20 }));
    expect(
      positions.rows
        .map(positionRecordOf)
        .map((p) => [p.tokenId, p.sizeMicro])
        .sort(),
    ).toEqual(reference.positions.map((p) => [venue.world.tokenId(p.token), p.micro.amount]).sort());
    const closed = await collectPages(dataApi.closedPositions(user, {}, { pageSize: 50 }));
    expect(closed.rows).toHaveLength(reference.closedPositions.length);
    expect(await dataApi.value(user)).toBeCloseTo(
      reference.positions.reduce((s, p) => s + p.currentValue, 0),
      6,
    );
    expect((await pnl.lifetimePnlMicro(user))! / 1e6).toBeCloseTo(reference.totalPnl, 5);
    const leaders = await collectPages(dataApi.leaderboard({ timePeriod: "ALL" }));
    expect(leaders.truncated).toBe(false);
    expect(leaders.rows.map((r) => Number(r.rank))).toEqual(leaders.rows.map((_, k) => k + 1));
    const holders = await dataApi.holders([venue.world.markets[1]!.conditionId]);
    expect(holders).toHaveLength(2);
  });
});

describe("ChainClient", () => {
  it("halves a range the node refuses as too large", async () => {
    const strict = await smallVenue({ rpc: { maxLogs: 500 } });
    const { chain } = clientsFor(strict);
    const head = await chain.blockNumber();
    const from = TEST_END - 5 * 86_400;
    const { logs } = await chain.getLogs({
      ...logFilterFor(["OrderFilledV2", "OrdersMatchedV2"]),
      fromBlock: blockAt(from),
      toBlock: head,
    });
    const fills = [...truthFills(strict.world, { from })];
    expect(logs.length).toBeGreaterThan(500);
    expect(logs.length).toBe(fills.length + new Set(fills.map((f) => f.txHash)).size);
    expect(new Set(logs.map((l) => `${l.transactionHash}#${l.logIndex}`)).size).toBe(logs.length);
    const stamps = await chain.blockTimestamps([head, head - 10]);
    expect(stamps.get(head)).toBe(TEST_END);
  });

  it("filters logs by indexed topics (an order's owner)", async () => {
    const { chain } = clientsFor(venue);
    const w = busiest(venue);
    const owner = venue.world.wallets[w]!.proxyWallet;
    const topic = `0x${owner.slice(2).padStart(64, "0")}`;
    const { logs } = await chain.getLogs({
      ...logFilterFor(["OrderFilledV1", "OrderFilledV2"]),
      topics: [logFilterFor(["OrderFilledV1", "OrderFilledV2"]).topics[0], null, topic],
      fromBlock: blockAt(venue.world.start),
      toBlock: blockAt(TEST_END),
    });
    expect(logs.length).toBe(venue.world.fillsOfWallet(w).length);
    expect(logs.every((l) => l.topics[2] === topic)).toBe(true);
  });
});

describe("ArcGisClient", () => {
  it("checks layers and pages their features", async () => {
    const { arcgis } = clientsFor(venue);
    const check = await arcgis.checkLayer(ISW_LAYERS.control.path, null);
    expect(check.changed).toBe(true);
    expect(check.lastEditDate).toBe(TEST_END * 1000);
    expect((await arcgis.checkLayer(ISW_LAYERS.gains24h.path, null)).lastEditDate).toBeNull();
    const pages: number[] = [];
    for await (const item of arcgis.features(ISW_LAYERS.advance.path, { pageSize: 4, geometryPrecision: 4 }))
      if (item.type === "page") pages.push(item.features.length);
    expect(pages.length).toBeGreaterThan(3);
    const all = await arcgis.allFeatures(ISW_LAYERS.advance.path, { pageSize: 2_000 });
    expect(all).toHaveLength(pages.reduce((a, b) => a + b, 0));
    expect(new Set(all.map((f) => f.id)).size).toBe(all.length);
    const settlements = await arcgis.allFeatures(ISW_LAYERS.settlements.path);
    expect(settlements.map((f) => f.properties?.ADM4_EN)).toContain(
      venue.world.markets.find((m) => m.territory)!.territory!.name,
    );
  });
});

describe("RtdsClient", () => {
  it("receives the live trades, each wallet side of each new fill", async () => {
    let nowMs = TEST_END * 1000;
    const live = await smallVenue({ live: { matchesPerSecond: 5 }, clockMs: () => nowMs, liveTickMs: 20 });
    const client = new RtdsClient({ url: live.urls.rtds, pingIntervalMs: 50, reconnectBaseMs: 10 });
    const messages: RtdsMessage[] = [];
    client.onMessage((m) => messages.push(m));
    client.start();
    await until(() => client.stats.connects > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = live.world.fillCount;
    nowMs += 60_000;
    await until(
      () =>
        live.world.fillCount > before &&
        messages.filter((m) => m.type === "trades").length >= live.world.fillCount - before,
    );
    await client.close();
    const trades = messages.filter((m) => m.type === "trades").map((m) => fillFromRtdsTrade(m.payload));
    const fills = Array.from({ length: live.world.fillCount - before }, (_, k) => live.world.fill(before + k));
    expect(trades.map((t) => [t.txHash, t.wallet, t.sizeMicro, t.priceMicro])).toEqual(
      fills.map((f) => [live.world.txHashOfFill(f.index), live.world.wallets[f.wallet]!.proxyWallet, f.size, f.price]),
    );
    expect(client.stats.keepAlives).toBeGreaterThan(0);
    const matched = messages.filter((m) => m.type === "orders_matched");
    expect(matched.length).toBe(new Set(trades.map((t) => t.txHash)).size);
    expect(client.stats.invalid).toBe(0);
  });
});

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
