import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { blockAt } from "../world/index.js";
import { ISW_LAYERS, truthFills } from "./index.js";
import { clientsFor, closeVenues, getJson, smallVenue, TEST_END } from "./testing/venues.js";

afterAll(closeVenues);

describe("live mode", () => {
  it("keeps trading as the clock moves: the head advances, /trades and the chain show the new fills", async () => {
    let nowMs = TEST_END * 1000;
    const venue = await smallVenue({ live: { matchesPerSecond: 2 }, clockMs: () => nowMs, liveTickMs: 60_000 });
    const { chain, dataApi } = clientsFor(venue);
    const before = venue.world.fillCount;
    expect(await chain.blockNumber()).toBe(blockAt(TEST_END));
    nowMs += 600_000;
    const head = await chain.blockNumber();
    expect(head).toBe(blockAt(TEST_END + 600));
    expect(venue.world.fillCount).toBeGreaterThan(before + 1_000);
    const page = await dataApi.trades({ takerOnly: false }, { pageSize: 50 }).next();
    const rows = page.value && page.value.type === "page" ? page.value.rows : [];
    expect(rows[0]!.timestamp).toBeGreaterThan(TEST_END);
    expect(rows[0]!.transactionHash).toBe(venue.world.txHashOfFill(venue.world.fillCount - 1));
    const newFills = [...truthFills(venue.world, { from: TEST_END + 1 })];
    expect(newFills).toHaveLength(venue.world.fillCount - before);
    const { logs } = await chain.getLogs({ fromBlock: blockAt(TEST_END) + 1, toBlock: head });
    // One OrderFilled per fill and one OrdersMatched per match, and a V2 MINT's or MERGE's two adapter logs.
    const [first, end] = venue.world.matchesBetween(TEST_END + 1, TEST_END + 601);
    const mechanics = Array.from({ length: end - first }, (_, k) => venue.world.match(first + k)).filter(
      (m) => m.type !== "COMPLEMENTARY",
    ).length;
    expect(mechanics).toBeGreaterThan(0);
    expect(logs.length).toBe(newFills.length + new Set(newFills.map((f) => f.txHash)).size + 2 * mechanics);
  });

  it("advances the ISW front line every few minutes", async () => {
    let nowMs = TEST_END * 1000 + 5_000;
    const venue = await smallVenue({
      live: { matchesPerSecond: 0 },
      clockMs: () => nowMs,
      arcgis: { liveStepSeconds: 120 },
    });
    const { arcgis } = clientsFor(venue);
    const first = await arcgis.checkLayer(ISW_LAYERS.control.path, null);
    const firstAdvance = await arcgis.allFeatures(ISW_LAYERS.advance.path);
    nowMs += 60_000;
    expect((await arcgis.checkLayer(ISW_LAYERS.control.path, first.lastEditDate)).changed).toBe(false);
    nowMs += 60_000;
    const second = await arcgis.checkLayer(ISW_LAYERS.control.path, first.lastEditDate);
    expect(second.changed).toBe(true);
    expect(second.lastEditDate! - first.lastEditDate!).toBe(120_000);
    const secondAdvance = await arcgis.allFeatures(ISW_LAYERS.advance.path);
    expect(JSON.stringify(secondAdvance.map((f) => f.geometry))).not.toBe(
      JSON.stringify(firstAdvance.map((f) => f.geometry)),
    );
    expect((await arcgis.allFeatures(ISW_LAYERS.gains24h.path)).length).toBeGreaterThan(0);
  });

  it("RTDS: subscriptions filter by market slug; ping is answered; the envelope carries the connection", async () => {
    let nowMs = TEST_END * 1000;
    const venue = await smallVenue({ live: { matchesPerSecond: 20 }, clockMs: () => nowMs, liveTickMs: 10 });
    const open = venue.world.markets.filter((m) => m.startDate <= TEST_END && m.tradingStop > TEST_END + 120);
    const busy = open.sort((a, b) => b.popularity - a.popularity)[0]!.index;
    const slug = venue.world.markets[busy]!.slug;
    const socket = new WebSocket(venue.urls.rtds);
    const frames: string[] = [];
    socket.on("message", (data) => frames.push(String(data)));
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(
      JSON.stringify({
        action: "subscribe",
        subscriptions: [{ topic: "activity", type: "trades", filters: JSON.stringify({ market_slug: slug }) }],
      }),
    );
    socket.send("ping");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = venue.world.matchCount;
    nowMs += 120_000;
    const parse = () =>
      frames
        .filter((f) => f.startsWith("{"))
        .map((f) => JSON.parse(f) as { connection_id: string; topic: string; type: string; payload: { slug: string } });
    const expectedMatches = () =>
      Array.from({ length: venue.world.matchCount - before }, (_, k) => before + k).filter(
        (j) => venue.world.match(j).market === busy,
      );
    const expectedFrames = () => expectedMatches().reduce((n, j) => n + venue.world.match(j).fillCount, 0);
    // Delivery takes as long as the machine needs; wait for it (bounded) instead of a fixed pause.
    for (
      let waited = 0;
      waited < 10_000 && (expectedFrames() === 0 || parse().length < expectedFrames());
      waited += 20
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.close();
    expect(frames).toContain("pong");
    const envelopes = parse();
    expect(expectedMatches().length).toBeGreaterThan(0);
    expect(envelopes.length).toBe(expectedFrames());
    expect(new Set(envelopes.map((e) => `${e.topic}/${e.type}/${e.payload.slug}`))).toEqual(
      new Set([`activity/trades/${slug}`]),
    );
    expect(new Set(envelopes.map((e) => e.connection_id)).size).toBeLessThanOrEqual(1);
  });

  it("without live mode the venue's clock stands still at the world's end", async () => {
    const venue = await smallVenue();
    const { body } = await getJson(`${venue.urls.gamma}/markets?limit=500&closed=true`);
    const resolved = (body as { umaResolutionStatus?: string }[]).filter((m) => m.umaResolutionStatus === "resolved");
    expect(resolved.length).toBe(venue.world.markets.filter((m) => m.status === "resolved").length);
    expect(venue.state.now()).toBe(TEST_END);
  });
});
