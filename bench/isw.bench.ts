/**
 * The territory monitor's costs (`npm run bench isw`), on the twelve real snapshots (assets/isw):
 * - a probe that finds a new map, with 50 subscriptions (the 22 built-in ones and 28 more along the Bakhmut and
 *   Zaporizhzhia fronts): the layers in memory (normalise, hash, store the version, index, measure, write), and
 *   a first probe fetching everything from the simulated venue's ArcGIS layers over loopback (goal: under 100 ms);
 * - a probe of an unchanged map, in memory and over loopback (goal: under 5 ms);
 * - territory webhook deliveries per second to a registration's receiver on loopback (the territory alerts matching
 *   the events, the alerts' delivery worker sending them).
 * It prints figures; it asserts no time.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/index.js";
import { BUILT_IN_CITIES, defineCities, type CityInput } from "../src/isw/cities.js";
import { arcgisLayerSource, configuredLayers } from "../src/isw/layers.js";
import { insertEvent } from "../src/isw/monitor-store.js";
import { TerritoryProbe } from "../src/isw/probe.js";
import { iswDb } from "../src/isw/tables.js";
import { startReceiver } from "../src/alerts/webhooks/receiver.js";
import { replayProbe } from "../src/isw/testing/replay-probe.js";
import { DeliveryWorker } from "../src/alerts/delivery-worker.js";
import { alertsDb } from "../src/alerts/tables.js";
import { TerritoryAlerts } from "../src/alerts/territory-alerts.js";
import { registerTerritoryWebhook } from "../src/alerts/territory-registrations.js";
import { SecretBox } from "../src/alerts/webhooks/secret-box.js";
import { ManualClock } from "../src/platform/clock.js";
import { createLogger } from "../src/platform/logger.js";
import { clientsFor, closeVenues, smallVenue } from "../src/sim/servers/testing/venues.js";
import { openStore, type Store } from "../src/store/database.js";
import { migrateStore } from "../src/store/migrate.js";

const DELIVERIES = 2_000;

/** 28 more subscriptions: points and circles on a grid over the two fronts of the snapshots. */
function benchCities(): CityInput[] {
  const extra: CityInput = { name: "Front grid", lon: 37.9, lat: 48.6, subscriptions: [] };
  const kinds = ["single", "enter", "entirety"] as const;
  for (let i = 0; i < 28; i++) {
    const [lon, lat] =
      i < 20
        ? [37.8 + (i % 5) * 0.05, 48.5 + Math.floor(i / 5) * 0.05]
        : [35.6 + (i % 4) * 0.1, 47.5 + Math.floor((i - 20) / 4) * 0.1];
    const kind = kinds[i % 3]!;
    extra.subscriptions.push({
      label: `grid ${i}`,
      check_type: kind,
      point: [lon, lat],
      ...(kind === "single" ? {} : { radius_m: 1_500 }),
      market_slug_pattern: `grid-${i}-*`,
    });
  }
  return [...BUILT_IN_CITIES, extra];
}

async function tempStore(): Promise<{ store: Store; done(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "pelagic-isw-bench-"));
  const store = await openStore({ kind: "sqlite", sqlitePath: join(dir, "bench.sqlite") });
  await migrateStore(store);
  return { store, done: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
}

const ms = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms (${values.length} probes)`;
};

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

async function probesInMemory(): Promise<void> {
  const { store, done } = await tempStore();
  const cities = benchCities();
  const run = replayProbe(store, { cities });
  const subscriptions = cities.reduce((n, c) => n + c.subscriptions.length, 0);
  await run.day(0);
  // A warm-up pass over the days (the JIT), then the measured one: every day a new map.
  for (const day of [1, 2, 3, 0]) await run.day(day);
  const changed: number[] = [];
  const measured: number[] = [];
  for (let day = 1; day < 12; day++) {
    run.replay.show(day);
    run.clock.advance(3_600_000);
    const [report, took] = await timed(() => run.probe.probe());
    changed.push(took);
    measured.push(report.measured);
  }
  const unchanged: number[] = [];
  for (let i = 0; i < 200; i++) {
    run.clock.advance(5_000);
    unchanged.push((await timed(() => run.probe.probe()))[1]);
  }
  console.log(
    `probe of a new map, layers in memory, ${subscriptions} subscriptions (${measured.join("/")} measured again): ${ms(changed)}`,
  );
  console.log(`probe of an unchanged map, layers in memory: ${ms(unchanged)}`);
  await done();
}

async function probesOverLoopback(): Promise<void> {
  const venue = await smallVenue();
  const config = loadConfig({ ISW_ARCGIS_URL: venue.urls.arcgis, LOG_LEVEL: "silent" });
  const cities = defineCities(benchCities(), config.isw.bufferAdvanceM);
  const first: number[] = [];
  const unchanged: number[] = [];
  for (let round = 0; round < 6; round++) {
    const { store, done } = await tempStore();
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
    const probe = new TerritoryProbe({
      store,
      clock,
      logger: createLogger("silent"),
      isw: config.isw,
      cities,
      layers: configuredLayers(config.isw),
      source: arcgisLayerSource(clientsFor(venue).arcgis),
    });
    await probe.init();
    first.push((await timed(() => probe.probe()))[1]);
    for (let i = 0; i < 50; i++) {
      clock.advance(5_000);
      unchanged.push((await timed(() => probe.probe()))[1]);
    }
    await done();
  }
  console.log(
    `first probe over loopback (4 layers fetched from the simulated ArcGIS, 50 subscriptions measured): ${ms(first.slice(1))} after a warm-up probe`,
  );
  console.log(`probe of an unchanged map over loopback (4 edit-date checks): ${ms(unchanged.slice(50))}`);
  await closeVenues();
}

async function deliveries(concurrency: number): Promise<void> {
  const { store, done } = await tempStore();
  const receiver = await startReceiver();
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const box = new SecretBox(randomBytes(32));
  const config = loadConfig({
    ALERTS_ALLOW_LOOPBACK: "true",
    ALERTS_CONCURRENCY: String(concurrency),
    LOG_LEVEL: "silent",
  });
  const logger = createLogger("silent");
  await registerTerritoryWebhook(store, {
    account: "bench",
    url: new URL(receiver.url),
    cities: "all",
    box,
    now: clock.now(),
    config,
  });
  const alerts = new TerritoryAlerts({ store, config, clock, logger });
  const db = iswDb(store.db);
  for (let i = 0; i < DELIVERIES; i++)
    await insertEvent(db, {
      subscription_id: 1,
      city: "Bakhmut",
      event_type: "THREAT_HIGH",
      severity: "HIGH",
      severity_rank: 3,
      previous_severity: "MEDIUM",
      details: `event ${i}`,
      created_at: clock.now(),
      map_version_id: 1,
      check_type: "single",
      subscription_label: "bench",
      market_slug_pattern: "bench-*",
      coverage: null,
      closest_distance_m: 800,
    });
  while ((await alerts.look()) > 0);
  const worker = new DeliveryWorker({ store, clock, logger, config, box: () => box });
  const delivered = () =>
    alertsDb(store.db)
      .selectFrom("alert_deliveries")
      .select((e) => e.fn.countAll<number>().as("n"))
      .where("status", "=", "delivered")
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  const [count, took] = await timed(async () => {
    await worker.start();
    while ((await delivered()) < DELIVERIES) await new Promise((resolve) => setTimeout(resolve, 5));
    await worker.stop();
    return delivered();
  });
  console.log(
    `territory webhook deliveries to a receiver on loopback, ${concurrency} at once: ${Math.round((count / took) * 1000)} per second (${count} of ${DELIVERIES} in ${(took / 1000).toFixed(2)} s)`,
  );
  await receiver.close();
  await done();
}

await probesInMemory();
await probesOverLoopback();
await deliveries(4);
await deliveries(16);
