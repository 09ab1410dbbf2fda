import { afterAll, describe, expect, it } from "vitest";
import { collectPages } from "../../venue/paging.js";
import { VenueUnavailableError } from "../../venue/http.js";
import { RtdsClient } from "../../venue/rtds.js";
import { ISW_LAYERS } from "./index.js";
import { Faults, parseFaults, TYPICAL_FAULTS } from "./faults.js";
import { clientsFor, closeVenues, getJson, smallVenue, TEST_END } from "./testing/venues.js";

afterAll(closeVenues);

describe("faults", () => {
  it("are off by default", async () => {
    const venue = await smallVenue();
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () => getJson(`${venue.urls.dataApi}/trades?limit=1`).then((r) => r.status)),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it("429 and 5xx: a retrying client still reads everything; the faults repeat run to run", async () => {
    const seen: number[][] = [];
    for (let run = 0; run < 2; run++) {
      const venue = await smallVenue({ faults: { rateLimit: 0.2, serverError: 0.1, retryAfterSeconds: 2 } });
      const statuses: number[] = [];
      const { dataApi, time } = clientsFor(venue, {
        maxAttempts: 12,
        onEvent: (e) => e.type === "retry" && statuses.push(e.status ?? 0),
      });
      const user = venue.world.wallets[3]!.proxyWallet;
      const activity = await collectPages(dataApi.activity(user, {}, { pageSize: 10 }));
      expect(activity.rows.length).toBe(venue.world.fillsOfWallet(3).length + venue.world.opsOfWallet(3).length);
      expect(statuses.some((s) => s === 429) && statuses.some((s) => s >= 500)).toBe(true);
      expect(time.sleeps.some((ms) => ms >= 2_000)).toBe(true);
      seen.push(statuses);
    }
    expect(seen[0]).toEqual(seen[1]);
  });

  it("a venue that always fails makes the client give up", async () => {
    const venue = await smallVenue({ faults: { serverError: 1 } });
    const { gamma } = clientsFor(venue, { maxAttempts: 3 });
    await expect(gamma.marketsPage({ limit: 5 })).rejects.toBeInstanceOf(VenueUnavailableError);
  });

  it("ArcGIS throttles with an error object inside HTTP 200, which the client retries", async () => {
    const venue = await smallVenue({ faults: { arcgisThrottle: 0.5 } });
    const raw = await Promise.all(
      Array.from({ length: 20 }, () => getJson(`${venue.urls.arcgis}/${ISW_LAYERS.control.path}?f=json`)),
    );
    const throttled = raw.filter((r) => (r.body as { error?: { code: number } }).error?.code === 429);
    expect(throttled.length).toBeGreaterThan(0);
    expect(throttled.every((r) => r.status === 200)).toBe(true);
    const { arcgis } = clientsFor(venue, { maxAttempts: 20 });
    expect((await arcgis.allFeatures(ISW_LAYERS.advance.path, { pageSize: 3 })).length).toBeGreaterThan(0);
  });

  it("RTDS drops connections and the client reconnects", async () => {
    let nowMs = TEST_END * 1000;
    const venue = await smallVenue({
      live: { matchesPerSecond: 5 },
      clockMs: () => nowMs,
      liveTickMs: 10,
      rtds: { keepAliveMs: 10 },
      faults: { rtdsDisconnect: 0.2 },
    });
    const client = new RtdsClient({
      url: venue.urls.rtds,
      reconnectBaseMs: 5,
      reconnectMaxMs: 10,
      pingIntervalMs: 1_000,
    });
    client.start();
    const deadline = Date.now() + 5_000;
    while (client.stats.connects < 3 && Date.now() < deadline) {
      nowMs += 5_000;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.close();
    expect(client.stats.connects).toBeGreaterThanOrEqual(3);
  });

  it("parse from the command line", () => {
    expect(parseFaults("off")).toEqual({});
    expect(parseFaults("on")).toEqual(TYPICAL_FAULTS);
    expect(parseFaults("rate-limit=0.1, server-error=0.02,retry-after=3")).toEqual({
      rateLimit: 0.1,
      serverError: 0.02,
      retryAfterSeconds: 3,
    });
    expect(() => parseFaults("teapot=1")).toThrow(/unknown fault/);
    expect(() => new Faults({ rateLimit: 2 }, 1)).toThrow(RangeError);
  });
});
