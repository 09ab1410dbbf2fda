/**
 * The service the dashboard's browser tests open: the simulated venue (history, live trading from now, the territory
 * snapshots replayed a day every few seconds) and Pelagic ingesting it into a fresh SQLite store, as `pelagic demo`
 * runs them (its thresholds included), on a smaller world so the first sync is quick. Waits until health says ready.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKey } from "../../src/accounts/keys.js";
import { demoThresholds } from "../../src/commands/demo.js";
import { demoTerritoryConfig } from "../../src/commands/demo-territory.js";
import { loadConfig } from "../../src/config/index.js";
import { simIngestEnv } from "../../src/ingest/testing/sim-ingest.js";
import { createLogger } from "../../src/platform/logger.js";
import { startService, type Service } from "../../src/runtime/index.js";
import { startSimVenue, type SimVenue } from "../../src/sim/servers/index.js";
import { historyEnd } from "./world-end.js";

export interface DashboardWorld {
  readonly url: string;
  readonly service: Service;
  /** A Premium key of this store, for the pages that need one. */
  readonly premiumKey: string;
  /** GET a path of the API as JSON (the answers the pages are checked against). */
  get<T>(path: string, headers?: Record<string, string>): Promise<T>;
  close(): Promise<void>;
}

/** `env`: settings over the demo's (the alerts page's test lets alerts reach a receiver on loopback). */
export async function openDashboardWorld(env: Record<string, string> = {}): Promise<DashboardWorld> {
  const end = historyEnd();
  const venue: SimVenue = await startSimVenue({
    worldOptions: { seed: 1, end, markets: 150, wallets: 1_000, fills: 40_000, days: 90 },
    live: { matchesPerSecond: 0.5, from: Math.floor(Date.now() / 1000) },
    arcgis: { liveStepSeconds: 20 },
  });
  const dataDir = mkdtempSync(join(tmpdir(), "pelagic-dashboard-"));
  const config = loadConfig({
    ...simIngestEnv(venue),
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    REDIS_URL: "",
    PORT: "0",
    LOG_LEVEL: "silent",
    VENUE_RPC_REQUESTS_PER_SECOND: "1000",
    RATE_FREE_PER_MINUTE: "100000",
    // A 90-day world resolves fewer markets per wallet than the venue's years: the roster needs 3, not 10.
    SMART_MIN_RESOLVED_MARKETS: "3",
    ...env,
  });
  const service = await startService(demoThresholds(demoTerritoryConfig(config)), { logger: createLogger("silent") });
  const close = async () => {
    await service.stop();
    await venue.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 240_000;
    for (;;) {
      const health = (await fetch(`${service.url}/api/v1/health`).then((r) => r.json())) as { ready?: boolean };
      if (health.ready) break;
      if (Date.now() > deadline) throw new Error("the dashboard's world was not ready within 240 s");
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const { key } = await createKey(service.store.db, {
      account: "dashboard",
      plan: "premium",
      now: Math.floor(Date.now() / 1000),
    });
    return {
      url: service.url,
      service,
      premiumKey: key,
      async get<T>(path: string, headers: Record<string, string> = {}) {
        const response = await fetch(`${service.url}${path}`, { headers });
        if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        return (await response.json()) as T;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
