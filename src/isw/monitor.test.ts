/**
 * The monitor against the simulated venue's ArcGIS layers over HTTP (the client, the layers' own id fields, the
 * throttling inside HTTP 200), its cadence and back-off, and how health shows it: a source of its own that never
 * holds back `ready`.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openTestApp, type TestApp } from "../../test/support/app.js";
import { loadConfig } from "../config/index.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import { clientsFor, closeVenues, smallVenue } from "../sim/servers/testing/venues.js";
import { saveCheckpoint } from "../store/checkpoints.js";
import { FIRST_SYNC_DERIVED, writeDeriveState } from "../store/derive-state.js";
import { arcgisLayerSource, configuredLayers } from "./layers.js";
import { backoffSeconds, probeIntervalSeconds, TerritoryMonitor } from "./monitor.js";
import { TERRITORY_SOURCE } from "./probe.js";
import { iswDb } from "./tables.js";

afterAll(closeVenues);

describe("cadence and back-off", () => {
  const isw = loadConfig({}).isw;

  it("probes every 5 s from 13:00 to 19:00 UTC and every 30 s otherwise", () => {
    const at = (hour: number, minute = 0) => probeIntervalSeconds(Date.UTC(2026, 0, 5, hour, minute), isw);
    expect([at(12, 59), at(13), at(18, 59), at(19), at(3)]).toEqual([30, 5, 5, 30, 30]);
  });

  it("doubles the pause after each failure from twice the interval, takes a longer one asked for, and stops at the cap", () => {
    let pause = 0;
    const pauses = [1, 2, 3, 4, 5, 6, 7, 8].map(() => (pause = backoffSeconds(pause, 30, 0, 600)));
    expect(pauses).toEqual([60, 120, 240, 480, 600, 600, 600, 600]);
    expect(backoffSeconds(0, 5, 90, 600)).toBe(90);
  });
});

describe("the monitor over the simulated ArcGIS layers", () => {
  let t: TestApp | undefined;
  const monitors: TerritoryMonitor[] = [];
  afterEach(async () => {
    await Promise.all(monitors.splice(0).map((m) => m.stop()));
    await t?.close();
  });

  async function monitorOn(faults: { arcgisThrottle: number }, maxAttempts: number) {
    t = await openTestApp({ expectedSources: ["gamma-markets"] });
    const venue = await smallVenue({ faults });
    const config = loadConfig({ ISW_ARCGIS_URL: venue.urls.arcgis, LOG_LEVEL: "silent" });
    const source = arcgisLayerSource(clientsFor(venue, { maxAttempts }).arcgis);
    const monitor = new TerritoryMonitor({
      config,
      store: t.store,
      clock: new ManualClock(Date.UTC(2026, 5, 1, 12)),
      logger: createLogger("silent"),
      source,
    });
    monitors.push(monitor);
    return monitor;
  }

  it("stores a version of each layer through the server's throttling, and fetches nothing while edit dates stand", async () => {
    const monitor = await monitorOn({ arcgisThrottle: 0.3 }, 30);
    const first = await monitor.probe.probe();
    expect([...first.changedLayers].sort()).toEqual(
      configuredLayers(loadConfig({}).isw)
        .map((l) => l.key)
        .sort(),
    );
    const versions = await iswDb(t!.store.db)
      .selectFrom("isw_layer_versions")
      .select(["layer", "feature_count", "edit_date_ms"])
      .execute();
    const byLayer = Object.fromEntries(versions.map((v) => [v.layer, v]));
    expect(byLayer.control!.feature_count).toBe(6);
    expect(byLayer.advance!.feature_count).toBeGreaterThan(10);
    expect(byLayer.gains24h!.edit_date_ms).toBeNull();
    expect(byLayer.infiltration!.feature_count).toBe(0);
    const second = await monitor.probe.probe();
    expect(second.changedLayers).toEqual([]);
    expect(await iswDb(t!.store.db).selectFrom("isw_layer_versions").select("id").execute()).toHaveLength(4);
  }, 60_000);

  it("is a health source of its own: errors counted while throttled, following once it got through, never holding back ready", async () => {
    const monitor = await monitorOn({ arcgisThrottle: 1 }, 2);
    await saveCheckpoint(t!.store.db, "gamma-markets", "done", t!.clock.now(), true);
    await writeDeriveState(t!.store.db, FIRST_SYNC_DERIVED, 1);
    monitor.start();
    const health = async () =>
      (await t!.app.inject({ url: "/api/v1/health" })).json() as {
        ready: boolean;
        sources: Array<{ source: string; status: string; errors: number; last_error_class: string | null }>;
      };
    let body = await health();
    for (let i = 0; i < 100 && !body.sources.some((s) => s.source === TERRITORY_SOURCE); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      body = await health();
    }
    expect(body.ready).toBe(true);
    expect(body.sources.find((s) => s.source === TERRITORY_SOURCE)).toMatchObject({
      status: "syncing",
      last_error_class: "venue_unavailable",
    });
    await monitor.stop();
    const venue = await smallVenue();
    const config = loadConfig({ ISW_ARCGIS_URL: venue.urls.arcgis, LOG_LEVEL: "silent" });
    const working = new TerritoryMonitor({
      config,
      store: t!.store,
      clock: t!.clock,
      logger: createLogger("silent"),
      source: arcgisLayerSource(clientsFor(venue).arcgis),
    });
    monitors.push(working);
    await working.probe.probe();
    body = await health();
    expect(body.ready).toBe(true);
    expect(body.sources.find((s) => s.source === TERRITORY_SOURCE)).toMatchObject({ status: "following" });
    expect(body.sources.find((s) => s.source === TERRITORY_SOURCE)!.errors).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
