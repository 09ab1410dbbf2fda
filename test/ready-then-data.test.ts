/**
 * `ready` means the service answers with its data: a service ingesting a simulated venue from scratch, asked for
 * its site figures, leaderboard, top movers and home page all through its first sync (so that any cache would
 * keep what it computed from a store still filling), answers each with data as soon as health says ready. On
 * SQLite and (with TEST_DATABASE_URL) PostgreSQL, where the fills' partitions are vacuumed and analyzed by then.
 */
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/index.js";
import { simIngestEnv } from "../src/ingest/testing/sim-ingest.js";
import { createLogger } from "../src/platform/logger.js";
import { startService, type Service } from "../src/runtime/index.js";
import { startSimVenue, type SimVenue } from "../src/sim/servers/index.js";
import { openProcessStore, processStoreKinds, type ProcessStore } from "./support/process-stores.js";
import { historyEnd } from "./support/world-end.js";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface Answers {
  health: { ready: boolean };
  siteStats: { wallets: number; trades: number; smart_whales: number };
  leaderboard: { whales: unknown[] };
  movers: { winners: unknown[] };
  hotMarkets: { markets: unknown[] };
  rotation: { categories: Array<{ volume_24h: number }> };
}

async function ask(url: string): Promise<Answers> {
  const get = async <K extends keyof Answers>(_: K, path: string): Promise<Answers[K]> => {
    const response = await fetch(`${url}${path}`);
    expect(response.status, path).toBe(200);
    return (await response.json()) as Answers[K];
  };
  // Health first: what it says must hold for the answers that follow it.
  const health = await get("health", "/api/v1/health");
  const [siteStats, leaderboard, movers, hotMarkets, rotation] = await Promise.all([
    get("siteStats", "/api/v2/site-stats"),
    get("leaderboard", "/api/v2/whales/leaderboard?filter=all&min_markets=1"),
    get("movers", "/api/analytics/top-movers"),
    get("hotMarkets", "/api/v2/home/hot-markets"),
    get("rotation", "/api/v2/home/category-rotation"),
  ]);
  return { health, siteStats, leaderboard, movers, hotMarkets, rotation };
}

describe.each(processStoreKinds)("ready, then data, on %s", (kind) => {
  let venue: SimVenue;
  let store: ProcessStore;
  let service: Service;

  it("answers site-stats, the leaderboard, top movers and the home page with data as soon as health is ready", async () => {
    const end = historyEnd();
    venue = await startSimVenue({
      worldOptions: { seed: 23, end, markets: 60, wallets: 400, fills: 12_000, days: 30 },
      live: null,
    });
    cleanups.push(() => venue.close());
    store = await openProcessStore(kind);
    cleanups.push(() => store.dispose());
    const config = loadConfig({
      ...store.env,
      ...simIngestEnv(venue),
      REDIS_URL: "",
      PORT: "0",
      LOG_LEVEL: "silent",
      VENUE_RPC_REQUESTS_PER_SECOND: "1000",
      RATE_FREE_PER_MINUTE: "100000",
      // The territory monitor is not what this test is about, and its first probes cost CPU the first sync needs.
      ISW_MONITOR: "false",
    });
    service = await startService(config, { logger: createLogger("silent") });
    cleanups.push(() => service.stop());

    let answers = await ask(service.url);
    const pollsBeforeReady: Answers[] = [];
    const deadline = Date.now() + 120_000;
    while (!answers.health.ready && Date.now() < deadline) {
      pollsBeforeReady.push(answers);
      await new Promise((resolve) => setTimeout(resolve, 50));
      answers = await ask(service.url);
    }
    expect(answers.health.ready).toBe(true);
    // The caches were asked while the store was still filling, so the old behaviour would be seen here.
    expect(pollsBeforeReady.length).toBeGreaterThan(0);
    expect(pollsBeforeReady[0]!.siteStats.trades).toBe(0);

    expect(answers.siteStats.wallets).toBeGreaterThan(0);
    expect(answers.siteStats.trades).toBeGreaterThan(0);
    expect(answers.leaderboard.whales.length).toBeGreaterThan(0);
    expect(answers.movers.winners.length).toBeGreaterThan(0);
    expect(answers.hotMarkets.markets.length).toBeGreaterThan(0);
    expect(answers.rotation.categories.some((c) => c.volume_24h > 0)).toBe(true);
    if (kind === "postgres") {
      // The first sync's tables were vacuumed and analyzed before ready (src/store/settle.ts).
      const reader = await store.open();
      try {
        const { rows } = await sql<{ name: string }>`select relname as name from pg_stat_user_tables
          where relid in (select inhrelid from pg_inherits where inhparent = 'fill_rows'::regclass)
            and (last_vacuum is null or last_analyze is null)`.execute(reader.db);
        expect(rows.map((r) => r.name)).toEqual([]);
        const partitions = await sql<{ n: number }>`select count(*) as n from pg_inherits
          where inhparent = 'fill_rows'::regclass`.execute(reader.db);
        expect(Number(partitions.rows[0]!.n)).toBeGreaterThan(0);
      } finally {
        await reader.close();
      }
    }
  }, 180_000);
});
