/**
 * Server CPU per request of a cached answer: what the service spends on a request whose body it already holds
 * (the hooks every route runs, the gate, the ETag, the metrics, sending), apart from the load generator's share of
 * the machine. One fresh `pelagic serve` (ingest off, rate limits out of the way, its clock at the world's last
 * fill), warmed, then BENCH_CPU_REQUESTS requests (10 connections) to one path each; the figure is the service
 * process's own CPU time (user + system, /proc/<pid>/stat) over those requests, divided by their count, and the
 * load generator's (this process) beside it.
 *   BENCH_FILLS=1000000 npm run bench cpu        (BENCH_CPU_REQUESTS=40000, BENCH_CPU_ROUNDS=3)
 *   BENCH_ONLY=overview (the targets whose label holds one of the words)
 *   BENCH_MODE=scaled  the same requests to the scaled mode too (two `serve --role api` processes on the world
 *                      copied into PostgreSQL, sharing Redis, as `npm run bench api` runs it), with the CPU of
 *                      every process the answer costs: the API processes, PostgreSQL's backends, the Redis server.
 * Linux only (it reads /proc). The machine's other processes are not counted: run it on a quiet machine anyway.
 */
import autocannon from "autocannon";
import { readFixtures } from "./support/bench-fixtures.js";
import { startScaledServices, startService, type Server } from "./support/http-load.js";
import { cpuDuring, pidsNamed, type ProcessGroup } from "./support/process-cpu.js";
import { deleteRedisKeys } from "./support/redis-keys.js";
import { preparePostgresWorld } from "./support/scaled-world.js";
import { prepareWorldStore } from "./support/world-store.js";

const FILLS = Number(process.env.BENCH_FILLS ?? 10_000_000);
const REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 40_000);
const ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 3);
const ONLY = process.env.BENCH_ONLY?.split(",").filter(Boolean);
const SCALED = process.env.BENCH_MODE === "scaled";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const WARM_UP = 2_000;

async function fire(urls: string[], path: string, headers: Record<string, string>, amount: number): Promise<void> {
  // Over several processes autocannon deals its connections round robin over the URLs.
  const result = await autocannon({ url: urls, connections: 10, amount, requests: [{ method: "GET", path, headers }] });
  if (result.non2xx > 0) throw new Error(`${path}: ${result.non2xx} answers were not 2xx`);
}

const { dataDir, sqlitePath } = await prepareWorldStore(FILLS);
const fixtures = await readFixtures(sqlitePath, 1);
const wallet = fixtures.wallets[0]!.address;
const market = fixtures.markets[0]!.id;
const premium = { "x-api-key": fixtures.premiumKey, "accept-encoding": "gzip, deflate" };
const targets: Array<{ label: string; path: string; headers: Record<string, string> }> = [
  { label: "GET /api/v2/wallet/{address}/overview", path: `/api/v2/wallet/${wallet}/overview`, headers: premium },
  // Kept serialized too, but under the wallet's statistics row: one store read per request to check it.
  { label: "GET /api/v2/wallet/{address}/positions", path: `/api/v2/wallet/${wallet}/positions`, headers: premium },
  { label: "GET /api/v2/market/{market_id}", path: `/api/v2/market/${market}`, headers: premium },
  { label: "GET /api/v2/whales/leaderboard", path: "/api/v2/whales/leaderboard", headers: premium },
  {
    label: "GET /api/v2/whales/leaderboard (no gzip)",
    path: "/api/v2/whales/leaderboard",
    headers: { "x-api-key": fixtures.premiumKey },
  },
].filter((t) => !ONLY || ONLY.some((word) => t.label.includes(word)));

const loadGenerator: ProcessGroup = { label: "load generator", pids: () => [process.pid] };

/** Each target's CPU per request, per group of processes, over ROUNDS rounds, printed as it goes. */
async function measure(mode: string, servers: Server[], groups: ProcessGroup[]): Promise<void> {
  const urls = servers.map((s) => s.url);
  console.log(`\n${mode}: CPU per request (µs, ${ROUNDS} rounds), ${groups.map((g) => g.label).join(" | ")}`);
  for (const target of targets) {
    await fire(urls, target.path, target.headers, WARM_UP);
    const rounds: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const spent = await cpuDuring(groups, () => fire(urls, target.path, target.headers, REQUESTS));
      rounds.push(spent.map((micros) => (micros / REQUESTS).toFixed(1)).join(" | "));
    }
    console.log(`${target.label.padEnd(45)} ${rounds.join(";  ")}`);
  }
}

console.log(`${REQUESTS.toLocaleString("en-US")} requests a round, ${FILLS} fills`);
const embedded = await startService(dataDir, fixtures.end);
try {
  await measure("embedded", [embedded], [{ label: "service", pids: () => [embedded.pid] }, loadGenerator]);
} finally {
  await embedded.close();
}

if (SCALED) {
  const redisPrefix = `pelagic-bench-cpu-${process.pid}:`;
  const services = await startScaledServices(dataDir, fixtures.end, {
    databaseUrl: await preparePostgresWorld(sqlitePath),
    redisUrl: REDIS_URL,
    redisPrefix,
  });
  try {
    await measure("scaled", services, [
      { label: "API processes", pids: () => services.map((s) => s.pid) },
      { label: "PostgreSQL", pids: () => pidsNamed("postgres") },
      { label: "Redis", pids: () => pidsNamed("redis-server") },
      loadGenerator,
    ]);
  } finally {
    await Promise.all(services.map((s) => s.close()));
    await deleteRedisKeys(REDIS_URL, redisPrefix);
  }
}
