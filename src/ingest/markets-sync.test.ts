import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { gammaMarket } from "../venue/testing/fixtures.js";
import { MarketsSync } from "./markets-sync.js";
import { SOURCES } from "./sources.js";
import { startFakeVenue, type FakeVenue } from "./testing/fake-venue.js";
import { checkpointOf, openIngestHarness, type IngestHarness } from "./testing/harness.js";

const event = (id: number, title: string) => ({
  id: String(id),
  slug: `event-${id}`,
  title,
  negRisk: false,
  tags: [{ id: "2", label: "Politics", slug: "politics" }],
});
const inEvent = (eventId: number) => [{ id: String(eventId), slug: `event-${eventId}`, title: `Event ${eventId}` }];

describe.each(storeBackends)("markets sync on $kind", (backend) => {
  let venue: FakeVenue;
  let h: IngestHarness;

  beforeEach(async () => {
    venue = await startFakeVenue();
    venue.gamma.events = [event(900, "Thing event"), event(901, "Other event")];
    venue.gamma.markets = [
      gammaMarket(1, { events: inEvent(900) }),
      gammaMarket(2, { events: inEvent(900), outcomePrices: '["0.30", "0.70"]' }),
      gammaMarket(3, {
        events: inEvent(901),
        closed: true,
        umaResolutionStatus: "resolved",
        outcomePrices: '["0", "1"]',
        closedTime: "2026-05-02 10:00:00+00",
      }),
    ];
    h = await openIngestHarness(backend, venue);
  });
  afterEach(async () => {
    await h.dispose();
    await venue.close();
  });

  it("writes events, markets and their YES/NO tokens, open and closed, then marks the first sync done", async () => {
    await h.ingest.runUntilCaughtUp();
    const markets = await h.store.db.selectFrom("markets").selectAll().orderBy("id").execute();
    expect(markets.map((m) => [m.id, m.event_id, m.price_yes, m.closed, m.resolution])).toEqual([
      ["1", "900", 0.62, 0, null],
      ["2", "900", 0.3, 0, null],
      ["3", "901", 0, 1, "NO"],
    ]);
    expect(markets[2]?.closed_time).toBe(Date.UTC(2026, 4, 2, 10) / 1000);
    const tokens = await h.store.db
      .selectFrom("market_tokens")
      .selectAll()
      .where("condition_id", "=", markets[0]!.condition_id)
      .orderBy("outcome_index")
      .execute();
    expect(tokens).toEqual([
      { token_id: "1001", condition_id: markets[0]!.condition_id, outcome_index: 0, outcome: "Yes" },
      { token_id: "2001", condition_id: markets[0]!.condition_id, outcome_index: 1, outcome: "No" },
    ]);
    const events = await h.store.db.selectFrom("events").select(["id", "title", "closed"]).orderBy("id").execute();
    expect(events).toEqual([
      { id: "900", title: "Thing event", closed: 0 },
      { id: "901", title: "Other event", closed: 0 },
    ]);
    expect(await checkpointOf(h.store, SOURCES.markets)).toMatchObject({ first_sync_done: 1, errors: 0 });
  });

  it("keeps prices, volumes, closed state and resolutions current in incremental rounds", async () => {
    await h.ingest.runUntilCaughtUp();
    venue.gamma.markets[0] = gammaMarket(1, {
      events: inEvent(900),
      outcomePrices: '["0.81", "0.19"]',
      volume: "50000",
    });
    // Market 2 closes and resolves YES: it leaves the open list, and is found again by condition id.
    venue.gamma.markets[1] = gammaMarket(2, {
      events: inEvent(900),
      closed: true,
      umaResolutionStatus: "resolved",
      outcomePrices: '["1", "0"]',
    });
    venue.gamma.markets.push(gammaMarket(4, { events: inEvent(901) }));
    await h.ingest.runUntilCaughtUp();
    const markets = await h.store.db
      .selectFrom("markets")
      .select(["id", "price_yes", "volume", "closed", "resolution"])
      .orderBy("id")
      .execute();
    expect(markets).toEqual([
      { id: "1", price_yes: 0.81, volume: 50000, closed: 0, resolution: null },
      { id: "2", price_yes: 1, volume: 32257.445115, closed: 1, resolution: "YES" },
      { id: "3", price_yes: 0, volume: 32257.445115, closed: 1, resolution: "NO" },
      { id: "4", price_yes: 0.62, volume: 32257.445115, closed: 0, resolution: null },
    ]);
  });

  it("skips a malformed market (logged with its source, counted) and stores the rest of its page", async () => {
    venue.gamma.markets.push(gammaMarket(5, { events: inEvent(901), outcomes: '["Yes", "No", "Maybe"]' }));
    await h.ingest.runUntilCaughtUp();
    expect((await h.store.db.selectFrom("markets").select("id").orderBy("id").execute()).map((m) => m.id)).toEqual([
      "1",
      "2",
      "3",
    ]);
    expect(await checkpointOf(h.store, SOURCES.markets)).toMatchObject({
      errors: 1,
      last_error: expect.stringContaining("market 5"),
    });
    expect(h.logs).toContainEqual(
      expect.objectContaining({
        source: SOURCES.markets,
        msg: "skipped a malformed venue record",
        origin: expect.stringContaining("gamma /events/keyset"),
      }),
    );
  });

  it("resumes a full sync from its checkpoint after a failure, without losing or repeating a page", async () => {
    venue.gamma.events = Array.from({ length: 5 }, (_, i) => event(910 + i, `E${i}`));
    venue.gamma.markets = Array.from({ length: 5 }, (_, i) => gammaMarket(20 + i, { events: inEvent(910 + i) }));
    const sync = new MarketsSync(h.context(), venue.clients().gamma, { pageSize: 2 });
    const signal = new AbortController().signal;
    await sync.step(signal);
    expect(JSON.parse((await checkpointOf(h.store, SOURCES.markets))!.cursor)).toEqual({ phase: "open", after: "1" });
    venue.gamma.intercept = () => ({ status: 404, body: { error: "gone" } });
    await expect(sync.step(signal)).rejects.toThrow("HTTP 404");
    venue.gamma.intercept = () => undefined;
    for (let i = 0; i < 10 && (await sync.step(signal)).caughtUp === false; i++);
    expect((await h.store.db.selectFrom("markets").select("id").orderBy("id").execute()).map((m) => m.id)).toEqual([
      "20",
      "21",
      "22",
      "23",
      "24",
    ]);
  });
});
