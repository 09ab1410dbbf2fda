/**
 * Server CPU per request of a cached answer: what the service spends on a request whose body it already holds
 * (the hooks every route runs, the gate, the ETag, the metrics, sending), apart from the load generator's share of
 * the machine. One fresh `pelagic serve` (ingest off, rate limits out of the way, its clock at the world's last
 * fill), warmed, then BENCH_CPU_REQUESTS requests (10 connections) to one path each; the figure is the service
 * process's own CPU time (user + system, /proc/<pid>/stat) over those requests, divided by their count.
 *   BENCH_FILLS=1000000 npm run bench cpu        (BENCH_CPU_REQUESTS=40000, BENCH_CPU_ROUNDS=3)
 *   BENCH_ONLY=overview (the targets whose label holds one of the words)
 * Linux only (it reads /proc).
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { readFixtures } from "./support/bench-fixtures.js";
import { startService } from "./support/http-load.js";
import { prepareWorldStore } from "./support/world-store.js";

const FILLS = Number(process.env.BENCH_FILLS ?? 10_000_000);
const REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 40_000);
const ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 3);
const ONLY = process.env.BENCH_ONLY?.split(",").filter(Boolean);
const WARM_UP = 2_000;
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

/** The process's CPU time so far (user + system), microseconds. */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces, inside parentheses): utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
}

async function fire(url: string, path: string, headers: Record<string, string>, amount: number): Promise<number> {
  const result = await autocannon({ url: url + path, connections: 10, amount, headers });
  return result.non2xx;
}

const { dataDir, sqlitePath } = await prepareWorldStore(FILLS);
const fixtures = await readFixtures(sqlitePath, 1);
const wallet = fixtures.wallets[0]!.address;
const market = fixtures.markets[0]!.id;
const premium = { "x-api-key": fixtures.premiumKey, "accept-encoding": "gzip, deflate" };
const targets: Array<{ label: string; path: string; headers: Record<string, string> }> = [
  { label: "GET /api/v2/wallet/{address}/overview", path: `/api/v2/wallet/${wallet}/overview`, headers: premium },
  { label: "GET /api/v2/market/{market_id}", path: `/api/v2/market/${market}`, headers: premium },
  { label: "GET /api/v2/whales/leaderboard", path: "/api/v2/whales/leaderboard", headers: premium },
  {
    label: "GET /api/v2/whales/leaderboard (no gzip)",
    path: "/api/v2/whales/leaderboard",
    headers: { "x-api-key": fixtures.premiumKey },
  },
];

const service = await startService(dataDir, fixtures.end);
try {
  console.log(`server CPU per request, ${REQUESTS.toLocaleString("en-US")} requests a round, ${FILLS} fills`);
  for (const target of targets.filter((t) => !ONLY || ONLY.some((word) => t.label.includes(word)))) {
    await fire(service.url, target.path, target.headers, WARM_UP);
    const figures: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const before = cpuMicros(service.pid);
      const failed = await fire(service.url, target.path, target.headers, REQUESTS);
      if (failed > 0) throw new Error(`${target.label}: ${failed} answers were not 2xx`);
      figures.push((cpuMicros(service.pid) - before) / REQUESTS);
    }
    console.log(`${target.label.padEnd(45)} ${figures.map((f) => f.toFixed(1)).join(", ")} µs`);
  }
} finally {
  await service.close();
}
