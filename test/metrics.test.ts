/**
 * `/metrics` after real traffic: the service (role all: ingest, Deriver, relay, API) follows a simulated venue
 * with live trading; the test sends requests (a wallet overview twice, a 404, a free client past its budget),
 * holds a live stream open and registers a territory webhook whose event the alerts deliver to a receiver on loopback. Every family
 * the operator watches must have moved between a scrape before and one after, the latency histogram must be
 * labelled by route pattern (never the raw URL), and a forwarded (non-local) caller must get 404.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createKey } from "../src/accounts/keys.js";
import { loadConfig } from "../src/config/index.js";
import { SOURCES } from "../src/ingest/sources.js";
import { simIngestEnv } from "../src/ingest/testing/sim-ingest.js";
import { insertEvent } from "../src/isw/monitor-store.js";
import { iswDb } from "../src/isw/tables.js";
import { TerritoryAlerts } from "../src/alerts/territory-alerts.js";
import { startReceiver, type Receiver } from "../src/alerts/webhooks/receiver.js";
import { createLogger } from "../src/platform/logger.js";
import { metrics } from "../src/platform/metrics.js";
import { startService, type Service } from "../src/runtime/index.js";
import { startSimVenue, type SimVenue } from "../src/sim/servers/index.js";
import { generateWorld } from "../src/sim/world/index.js";
import { openSse, until, type SseClient } from "./support/live-clients.js";
import { has, parseExposition, total, type Sample } from "./support/prometheus.js";
import { historyEnd } from "./support/world-end.js";

describe("/metrics after real traffic", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "pelagic-metrics-"));
  let venue: SimVenue | undefined;
  let service: Service | undefined;
  let receiver: Receiver | undefined;
  let stream: SseClient | undefined;

  afterAll(async () => {
    stream?.close();
    await service?.stop();
    await venue?.close();
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function scrape(): Promise<Sample[]> {
    const answer = await fetch(`${service?.url}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(await answer.text());
  }

  it("moves every family the operator watches", async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const world = generateWorld({
      seed: 29,
      end: historyEnd(nowSeconds),
      markets: 30,
      wallets: 200,
      fills: 3_000,
      days: 10,
    });
    venue = await startSimVenue({ world, live: { matchesPerSecond: 10, from: nowSeconds }, liveTickMs: 100 });
    const config = loadConfig({
      ...simIngestEnv(venue, {
        INGEST_POLL_SECONDS: "1",
        INGEST_READ_THREAD: "false",
        VENUE_RPC_REQUESTS_PER_SECOND: "1000",
        ISW_MONITOR: "false",
        // The backfill starts on the world's first day: every wallet's history is whole, so no wallet is synced
        // before ready (the health polls below would otherwise spend the key's budget waiting for those syncs).
        VENUE_HISTORY_START: new Date(world.start * 1000).toISOString().slice(0, 10),
      }),
      DATA_DIR: dataDir,
      PORT: "0",
      LOG_LEVEL: "silent",
      DERIVE_REFRESH_SECONDS: "1",
      RATE_FREE_PER_MINUTE: "5",
      ALERTS_ALLOW_LOOPBACK: "true",
    });
    service = await startService(config, { logger: createLogger("silent") });
    const before = await scrape();
    const url = service.url;
    const { key } = await createKey(service.store.db, { account: "operator", plan: "premium", now: nowSeconds });
    const premium = { "x-api-key": key, authorization: `Bearer ${key}` };

    await until(
      "health ready",
      async () =>
        ((await (await fetch(`${url}/api/v1/health`, { headers: premium })).json()) as { ready: boolean }).ready,
      120_000,
    );
    stream = await openSse(`${url}/api/public/v1/live/trades`, premium);
    expect(stream.status).toBe(200);
    await until("a live trade", () => stream?.trades().length !== 0, 60_000);

    const { wallet } = await service.store.db
      .selectFrom("positions")
      .select("wallet")
      .limit(1)
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 2; i++)
      expect((await fetch(`${url}/api/v2/wallet/${wallet}`, { headers: premium })).status).toBe(200);
    expect((await fetch(`${url}/no/such/path`, { headers: premium })).status).toBe(404);
    // A caller forwarded by a proxy is not local: the metrics are not for it.
    expect((await fetch(`${url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9", ...premium } })).status).toBe(
      404,
    );
    const free = await Promise.all(
      Array.from({ length: 8 }, () => fetch(`${url}/api/v1/health`).then((r) => r.status)),
    );
    expect(free).toContain(429);

    receiver = await startReceiver();
    const registered = await fetch(`${url}/api/v2/isw/webhook/register`, {
      method: "POST",
      headers: { ...premium, "content-type": "application/json" },
      body: JSON.stringify({ url: receiver.url, cities: "all" }),
    });
    expect(registered.status).toBe(201);
    await insertEvent(iswDb(service.store.db), {
      subscription_id: 1,
      city: "Bakhmut",
      event_type: "CAPTURED",
      severity: "CRITICAL",
      severity_rank: 4,
      previous_severity: "HIGH",
      details: "All of Bakhmut: 98.5% of the area shaded",
      created_at: nowSeconds,
      map_version_id: 1,
      check_type: "entirety",
      subscription_label: "All of Bakhmut",
      market_slug_pattern: "will-russia-capture-all-of-bakhmut-by-*",
      coverage: 0.985,
      closest_distance_m: 0,
    });
    // The territory monitor is off here: its alerts look once, by hand; the service's delivery worker sends.
    const territory = new TerritoryAlerts({
      store: service.store,
      config,
      clock: service.platform.clock,
      logger: createLogger("silent"),
    });
    expect(await territory.look()).toBe(1);
    await until("the territory webhook delivered", () => receiver?.received.length === 1, 30_000);

    const after = await scrape();
    const moved = (name: string, where: Record<string, string> = {}) =>
      total(after, name, where) - total(before, name, where);

    // Latency and status by route pattern; no label carries the raw URL (the wallet's address).
    expect(
      moved("pelagic_http_request_duration_seconds_count", { route: "/api/v2/wallet/:address", status_class: "2xx" }),
    ).toBe(2);
    expect(moved("pelagic_http_responses_total", { route: "unmatched", status: "404" })).toBe(1);
    expect(moved("pelagic_http_responses_total", { route: "/api/v1/health", status: "429" })).toBe(
      free.filter((s) => s === 429).length,
    );
    expect(after.some((s) => Object.values(s.labels).some((v) => v.includes(wallet)))).toBe(false);
    expect(moved("pelagic_rate_limit_refusals_total", { budget: "ip" })).toBe(free.filter((s) => s === 429).length);

    // Ingest: rows stored per source, its lag, the age of what it stored.
    expect(moved("pelagic_ingest_records_total", { source: SOURCES.chain, kind: "fills" })).toBeGreaterThan(0);
    expect(moved("pelagic_ingest_batches_total", { source: SOURCES.markets })).toBeGreaterThan(0);
    expect(has(after, "pelagic_ingest_lag_seconds", { source: SOURCES.chain })).toBe(true);
    expect(total(after, "pelagic_ingest_lag_seconds", { source: SOURCES.chain })).toBeLessThan(60);
    expect(has(after, "pelagic_ingest_event_age_seconds", { source: SOURCES.chain })).toBe(true);

    // The Deriver: its jobs, its queue (drained between jobs) and its refreshes' time.
    expect(moved("pelagic_derive_jobs_total", { job: "batch" })).toBeGreaterThan(0);
    expect(moved("pelagic_derive_refresh_duration_seconds_count", { outcome: "ok" })).toBeGreaterThan(0);
    expect(total(after, "pelagic_derive_queue_depth")).toBeGreaterThanOrEqual(0);
    expect(has(after, "pelagic_derive_queue_depth")).toBe(true);

    // The second overview was a hit of the process's kept bodies or of the shared cache.
    expect(moved("pelagic_cache_lookups_total", { result: "hit" })).toBeGreaterThan(0);
    expect(moved("pelagic_cache_lookups_total", { result: "miss" })).toBeGreaterThan(0);

    expect(total(after, "pelagic_stream_connections", { stream: "trades" })).toBe(1);
    expect(moved("pelagic_alert_deliveries_total", { kind: "webhook", outcome: "delivered" })).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(total(after, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThan(0);

    stream.close();
    await until(
      "the stream's subscriber gone",
      async () => total(await scrape(), "pelagic_stream_connections", { stream: "trades" }) === 0,
    );
  }, 240_000);
});

describe("the Grafana dashboard", () => {
  it("charts every pelagic family that /metrics defines, and nothing it does not", async () => {
    const dashboard = JSON.parse(readFileSync(new URL("../docs/grafana-dashboard.json", import.meta.url), "utf8")) as {
      panels: { targets: { expr: string }[] }[];
    };
    const charted = new Set(
      dashboard.panels.flatMap((p) =>
        p.targets.flatMap((t) =>
          [...t.expr.matchAll(/pelagic_[a-z_]+?(?=_bucket|_count|\{|\)|\s|\[)/g)].map((m) => m[0]),
        ),
      ),
    );
    const defined = new Set(
      (await metrics.registry.getMetricsAsJSON()).map((m) => m.name).filter((n) => n.startsWith("pelagic_")),
    );
    expect([...charted].filter((n) => !defined.has(n))).toEqual([]);
    expect(
      [...defined].filter(
        (n) => !charted.has(n) && n !== "pelagic_ingest_batches_total" && n !== "pelagic_derive_jobs_total",
      ),
    ).toEqual([]);
  });
});
