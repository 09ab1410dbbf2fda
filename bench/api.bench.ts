/**
 * Endpoint throughput and latency on the 10,000,000-fill world, beside the ceiling (a bare Fastify route with a
 * fixed pre-serialized body):
 *   npm run bench api                      (BENCH_FILLS=1000000 for a smaller world; BENCH_SECONDS per run, default 10)
 *   BENCH_ONLY=overview,market npm run bench api   (some targets only)
 *   BENCH_ONLY=whale-alerts BENCH_FILLS=1000000 npm run bench api   (the whale alerts on the 1,000,000-fill world)
 *   BENCH_ONLY=whale-alerts,whale-trades,market-summary npm run bench api   (issue 25's Premium reads; market-trades too)
 * The first run builds the world's store (several minutes at 10 million fills; see bench/support/world-store.ts)
 * and keeps it in BENCH_DIR for the next runs.
 *
 * Each target runs twice after a 3 s warm-up: as fast as 10 connections go (throughput, and its share of the ceiling's; autocannon),
 * then at a fixed 1,000 requests/s arriving on schedule whatever the answers do (p50, p99, p99.9 and the slowest
 * answer at that load, each from when its request was due: support/open-loop.ts; skipped for a target whose
 * throughput is under 1,250 requests/s, which that rate would overload). Requests rotate
 * over many wallets or markets, so no single cached row makes the figures. Requests ask for gzip as most clients
 * do (the ceiling's 120-byte body is never compressed); the leaderboard and the market page run once more without.
 */
import { createKey } from "../src/accounts/keys.js";
import { loadConfig } from "../src/config/index.js";
import { openStore } from "../src/store/database.js";
import { migrateStore } from "../src/store/migrate.js";
import { load, startCeiling, startClockedService, startService, type LoadFigures, type Target } from "./support/http-load.js";
import { drilldownTargets } from "./support/drilldown-targets.js";
import { openLoop, type OpenLoopFigures } from "./support/open-loop.js";
import { whaleAlertTargets } from "./support/whale-alert-targets.js";
import { prepareWorldStore } from "./support/world-store.js";

const FILLS = Number(process.env.BENCH_FILLS ?? 10_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ONLY = process.env.BENCH_ONLY?.split(",");
const CONNECTIONS = 10;
const FIXED_RATE = 1_000;
const SAMPLE = 500;

const { dataDir, sqlitePath } = await prepareWorldStore(FILLS);

/** Wallets and markets to rotate through, and a Premium key, read from the prepared store. */
async function fixtures() {
  const config = loadConfig({ DATA_DIR: dataDir });
  const store = await openStore({ kind: "sqlite", sqlitePath, sqliteCacheMb: config.store.sqliteCacheMb });
  try {
    await migrateStore(store);
    const wallets = (await store.db.selectFrom("wallet_stats").select("wallet").orderBy("total_volume", "desc").limit(SAMPLE).execute()).map((r) => r.wallet);
    const markets = (await store.db.selectFrom("markets").select(["id", "slug"]).orderBy("volume", "desc").limit(SAMPLE).execute());
    const { key } = await createKey(store.db, { account: "bench", plan: "premium", now: Math.floor(Date.now() / 1000) });
    return { wallets, markets, key, drilldowns: await drilldownTargets(store, { "x-api-key": key }) };
  } finally {
    await store.close();
  }
}

const { wallets, markets, key, drilldowns } = await fixtures();
const premium = { "x-api-key": key };
const words = [...new Set(markets.flatMap((m) => m.slug.split("-")).filter((w) => w.length > 4))].slice(0, 100);
const batches = Array.from({ length: 50 }, (_, i) => JSON.stringify({ wallets: Array.from({ length: 50 }, (_, j) => wallets[(i * 50 + j) % wallets.length]) }));

/** What browsers, curl --compressed and most HTTP libraries send: answers kept serialized come back gzip-compressed. */
const compressed = { "accept-encoding": "gzip, deflate" };
const leaderboardPaths = ["/api/v2/whales/leaderboard", "/api/v2/whales/leaderboard?sort=win_rate", "/api/v2/whales/leaderboard?category=SPORTS&filter=all", "/api/v2/whales/leaderboard?sort=volume&offset=50"];

const targets: Array<Target & { key: string }> = [
  { key: "overview", label: "GET /api/v2/wallet/{address}/overview", paths: wallets.map((w) => `/api/v2/wallet/${w}/overview`), headers: compressed },
  { key: "positions", label: "GET /api/v2/wallet/{address}/positions", paths: wallets.map((w) => `/api/v2/wallet/${w}/positions`), headers: compressed },
  { key: "batch", label: "POST /api/public/v1/wallets/overview (50 wallets)", method: "POST", paths: ["/api/public/v1/wallets/overview"], body: batches[0], headers: { ...premium, ...compressed } },
  { key: "market", label: "GET /api/v2/market/{market_id}", paths: markets.map((m) => `/api/v2/market/${m.id}`), headers: compressed },
  { key: "market", label: "GET /api/v2/market/{market_id} (no gzip)", paths: markets.map((m) => `/api/v2/market/${m.id}`) },
  { key: "leaderboard", label: "GET /api/v2/whales/leaderboard", paths: leaderboardPaths, headers: compressed },
  { key: "leaderboard", label: "GET /api/v2/whales/leaderboard (no gzip)", paths: leaderboardPaths },
  { key: "search", label: "GET /api/v2/markets/search", paths: words.map((w) => `/api/v2/markets/search?q=${encodeURIComponent(w)}`), headers: compressed },
  ...drilldowns,
];

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const line = (label: string, max: LoadFigures, fixed: OpenLoopFigures | undefined, ceiling?: number) =>
  console.log(
    `${label.padEnd(52)} ${fmt(max.rps).padStart(7)} req/s${ceiling ? ` (${fmt((100 * max.rps) / ceiling)}% of ceiling)` : ""}; ` +
      (fixed
        ? `at ${fmt(FIXED_RATE)} req/s: p50 ${fmt(fixed.p50, 1)} ms, p99 ${fmt(fixed.p99, 1)} ms, p99.9 ${fmt(fixed.p999, 1)} ms, max ${fmt(fixed.max, 1)} ms`
        : `at ${fmt(FIXED_RATE)} req/s: not run (over ${fmt(100 * OVERLOAD_SHARE)}% of its throughput: latency would only measure the queue)`) +
      (max.non2xx + (fixed?.non2xx ?? 0) > 0 ? `  [${fmt(max.non2xx + (fixed?.non2xx ?? 0))} non-2xx answers]` : ""),
  );

/** Every run starts warm (caches filled, code optimized) after a discarded pass: the figures are the steady state. */
const WARM_UP_SECONDS = 3;
/** The fixed rate runs only where it is at most this share of the target's throughput (else it overloads the target). */
const OVERLOAD_SHARE = 0.8;
const measure = async (base: string, target: Target) => {
  await load(base, target, { seconds: WARM_UP_SECONDS, connections: CONNECTIONS });
  const max = await load(base, target, { seconds: SECONDS, connections: CONNECTIONS });
  const fixed = FIXED_RATE <= OVERLOAD_SHARE * max.rps ? await openLoop(base, { ...target, rate: FIXED_RATE, seconds: SECONDS }) : undefined;
  return { max, fixed };
};

console.log(`endpoints on the ${fmt(FILLS)}-fill world; ${CONNECTIONS} connections, ${SECONDS} s per run`);
const ceilingServer = await startCeiling();
const ceiling = await measure(ceilingServer.url, { label: "ceiling", paths: ["/fixed"] });
await ceilingServer.close();
line("ceiling: Fastify route, fixed pre-serialized body", ceiling.max, ceiling.fixed);

const selected = targets.filter((t) => !ONLY || ONLY.includes(t.key));
if (selected.length > 0) {
  const service = await startService(dataDir);
  try {
    for (const target of selected) {
      // The batch target rotates its bodies too: one per run is enough to keep the 50 wallets varied.
      const figures = await measure(service.url, target.key === "batch" ? { ...target, body: batches[Math.floor(Math.random() * batches.length)] } : target);
      line(target.label, figures.max, figures.fixed, ceiling.max.rps);
    }
  } finally {
    await service.close();
  }
}

// The whale alerts read the minutes before now, and the world ended on a fixed past day: their service's clock starts at its last fill.
if (!ONLY || ONLY.includes("whale-alerts")) {
  const whales = await whaleAlertTargets(sqlitePath, premium);
  const service = await startClockedService(dataDir, whales.clockAt);
  try {
    for (const target of whales.targets) {
      const figures = await measure(service.url, target);
      line(target.label, figures.max, figures.fixed, ceiling.max.rps);
    }
  } finally {
    await service.close();
  }
}
