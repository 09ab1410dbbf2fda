/**
 * Every GET operation of the served OpenAPI document on the 10,000,000-fill world, beside the ceiling (a bare
 * Fastify route with a fixed pre-serialized body):
 *   npm run bench api                               (BENCH_FILLS=1000000 for a smaller world)
 *   BENCH_ONLY=overview,leaderboard npm run bench api   (operations whose path contains one of the words)
 *   BENCH_START=40 npm run bench api   (from the 40th operation on, in the document's order: a long run taken in parts)
 *   BENCH_SECONDS=3 (each run), BENCH_ROTATE=200 (wallets or markets rotated), BENCH_COLD=10 (first requests timed)
 *   BENCH_DROP_CACHES=1: the kernel's page cache emptied before each operation's service starts (support/page-cache.ts;
 *   root only), so its first requests read the store from disk: the cold truth at a world larger than the cache
 * The first run builds the world's store (several minutes at 10 million fills; see bench/support/world-store.ts)
 * and keeps it in BENCH_DIR for the next runs.
 *
 * The operations are read from the served document at run time (support/operations.ts): a new one joins the table
 * by itself; streams (SSE, WebSocket) are skipped and listed. Each operation runs in a fresh service process
 * (`pelagic serve`, ingest off, rate limits out of the way, its clock at the world's last fill), so no figure
 * depends on what ran before it:
 *   1. the first request, then BENCH_COLD more, each to a wallet or market not asked before (one at a time);
 *   2. a discarded 1 s warm-up, then as fast as 10 connections go for BENCH_SECONDS (throughput, and its share of
 *      the ceiling measured in the same run, with the 120-byte body and with a body of the answer's size on the
 *      wire: support/size-ceiling.ts; autocannon);
 *   3. requests arriving at a fixed rate for BENCH_SECONDS, 1,000/s for the busiest pages and 200/s for the others
 *      (p50 and p99 from when each was due: support/open-loop.ts; not run where the rate is over 80% of the
 *      throughput, which would only measure the queue);
 *   4. the service's peak resident memory.
 * And the service's CPU time per request over the throughput run (user + system, /proc): the figure that depends
 * least on how busy the machine is (the load generator shares its two cores), beside the ceiling's own. The ceiling
 * is measured at a few body sizes too, with its p99 at 1,000/s and CPU per request at each: what a row of that size
 * cannot beat on this machine.
 * Requests rotate over the busiest wallets and markets, so no single cached row makes the figures, and ask for gzip
 * as most clients do (the leaderboard and the market page run once more without).
 *
 * BENCH_MODE=scaled adds the scaled mode beside each row, measured in the same run right after the embedded one: the
 * world copied into PostgreSQL (support/scaled-world.ts; BENCH_DATABASE_URL, default database `pelagic_bench`,
 * loaded once and reused), two fresh `serve --role api` processes on it sharing Redis (REDIS_URL, default
 * redis://127.0.0.1:6379; a key prefix of their own each operation), no ingest process (nothing is written). The
 * closed loop deals its 10 connections over the two (5 each), the fixed rate sends request i to process i mod 2;
 * the columns "scaled req/s", "scaled / embedded" and "scaled p99" (same rate as the embedded p99).
 */
import {
  load,
  startCeiling,
  startScaledServices,
  startService,
  type LoadFigures,
  type Target,
} from "./support/http-load.js";
import {
  CONNECTIONS,
  WARM_UP_SECONDS,
  fixedFigures,
  fixedRun as fixedRunFor,
  measureOperation,
  type FixedFigures,
  type OperationFigures,
} from "./support/operation-run.js";
import { readFixtures } from "./support/bench-fixtures.js";
import { drilldownPaths } from "./support/drilldown-targets.js";
import { benchOperations, type BenchOperation, type OpenApiDocument } from "./support/operations.js";
import { probe } from "./support/probe.js";
import { dropPageCache } from "./support/page-cache.js";
import { cpuMicros } from "./support/process-cpu.js";
import { whaleAlertPaths } from "./support/whale-alert-targets.js";
import { prepareWorldStore } from "./support/world-store.js";
import { ceilingAt, type SizedCeiling } from "./support/size-ceiling.js";
import { preparePostgresWorld } from "./support/scaled-world.js";
import { deleteRedisKeys } from "./support/redis-keys.js";

const FILLS = Number(process.env.BENCH_FILLS ?? 10_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROTATE = Number(process.env.BENCH_ROTATE ?? 200);
const COLD = Number(process.env.BENCH_COLD ?? 10);
const DROP_CACHES = process.env.BENCH_DROP_CACHES === "1";
/** Tried once at the start, so the header can say whether the figures are cold. */
const cachesDropped = DROP_CACHES && dropPageCache();
const ONLY = process.env.BENCH_ONLY?.split(",").filter(Boolean);
const START = Number(process.env.BENCH_START ?? 1);
const CEILING_RATE = 1_000;
/** Body sizes (bytes) the ceiling is also measured at, for each row's share of the ceiling at its own size. */
const CEILING_SIZES = [1_024, 4_096, 16_384, 65_536];
const SCALED = process.env.BENCH_MODE === "scaled";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

const { dataDir, sqlitePath } = await prepareWorldStore(FILLS);
const fixtures = await readFixtures(sqlitePath, ROTATE);
const scaledDatabaseUrl = SCALED ? await preparePostgresWorld(sqlitePath) : undefined;
const rotations = { whaleAlerts: await whaleAlertPaths(sqlitePath), drilldowns: await drilldownPaths(sqlitePath) };

async function servedDocument(): Promise<OpenApiDocument> {
  const service = await startService(dataDir, fixtures.end);
  try {
    return (await (await fetch(new URL("/api/openapi.json", service.url))).json()) as OpenApiDocument;
  } finally {
    await service.close();
  }
}

const { operations, skipped } = benchOperations(await servedDocument(), fixtures, rotations, ROTATE);
const selected = operations
  .filter((o) => !ONLY || ONLY.some((word) => o.template.includes(word) || o.label.includes(word)))
  .slice(START - 1);

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (n: number) => (n < 10 ? fmt(n, 1) : fmt(n));
const bytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${fmt(n / 1024, 1)} KB` : `${fmt(n / 1024 / 1024, 1)} MB`;

const fixedRun = (base: string | readonly string[], target: Target, rate: number, max: LoadFigures) =>
  fixedRunFor(base, target, rate, max, SECONDS);
const fixedP99 = (fixed: FixedFigures) =>
  fixed === "behind" ? "(fell behind the rate)" : fixed ? `${ms(fixed.p99)} ms` : "(rate > 80% of req/s)";

interface Row extends OperationFigures {
  label: string;
  scaled?: { max: LoadFigures; fixed: FixedFigures };
}

const redisPrefix = `pelagic-bench-${process.pid}:`;
let scaledRuns = 0;

/** The scaled mode's figures of `operation`: two fresh API processes on the PostgreSQL world and one Redis prefix. */
async function measureScaled(operation: BenchOperation): Promise<Row["scaled"]> {
  const services = await startScaledServices(dataDir, fixtures.end, {
    databaseUrl: scaledDatabaseUrl as string,
    redisUrl: REDIS_URL,
    redisPrefix: `${redisPrefix}${++scaledRuns}:`,
  });
  try {
    const bases = services.map((s) => s.url);
    // The same first requests as the embedded run, dealt over the processes, so both runs start as warm.
    const options = { method: operation.method, headers: operation.headers, body: operation.body };
    for (let i = 0; i <= Math.min(COLD, operation.paths.length - 1); i++)
      await probe(bases[i % bases.length]!, operation.paths[i]!, options);
    await load(bases, operation, { seconds: WARM_UP_SECONDS, connections: CONNECTIONS });
    const max = await load(bases, operation, { seconds: SECONDS, connections: CONNECTIONS });
    return { max, fixed: await fixedRun(bases, operation, operation.rate, max) };
  } finally {
    await Promise.all(services.map((s) => s.close()));
  }
}

async function measure(operation: BenchOperation): Promise<Row> {
  if (cachesDropped) dropPageCache();
  const figures = await measureOperation({ dataDir, end: fixtures.end }, operation, { seconds: SECONDS, cold: COLD });
  return { label: operation.label, ...figures };
}

async function measureBoth(operation: BenchOperation): Promise<Row> {
  const row = await measure(operation);
  return SCALED ? { ...row, scaled: await measureScaled(operation) } : row;
}

const ceilingServer = await startCeiling();
await load(
  ceilingServer.url,
  { label: "ceiling", paths: ["/fixed"] },
  { seconds: WARM_UP_SECONDS, connections: CONNECTIONS },
);
const ceilingCpuBefore = cpuMicros(ceilingServer.pid);
const ceiling = await load(
  ceilingServer.url,
  { label: "ceiling", paths: ["/fixed"] },
  { seconds: SECONDS, connections: CONNECTIONS },
);
const ceilingCpuUs = (cpuMicros(ceilingServer.pid) - ceilingCpuBefore) / (ceiling.rps * SECONDS);
const ceilingFixed = await fixedRun(ceilingServer.url, { label: "ceiling", paths: ["/fixed"] }, CEILING_RATE, ceiling);
const sizedCeilings: SizedCeiling[] = [{ bytes: 120, rps: ceiling.rps }];
/**
 * The bare route per body size: its p99 at CEILING_RATE and its CPU per request, the floor of a row's figures at its
 * size on this machine.
 */
const sizedCeilingFloors = new Map<number, { fixed: FixedFigures; cpuUs: number }>();
for (const size of CEILING_SIZES) {
  const target = { label: `ceiling ${size} B`, paths: [`/bytes/${size}`] };
  await load(ceilingServer.url, target, { seconds: WARM_UP_SECONDS, connections: CONNECTIONS });
  const cpuBefore = cpuMicros(ceilingServer.pid);
  const sized = await load(ceilingServer.url, target, { seconds: SECONDS, connections: CONNECTIONS });
  const cpuUs = (cpuMicros(ceilingServer.pid) - cpuBefore) / (sized.rps * SECONDS);
  sizedCeilings.push({ bytes: size, rps: sized.rps });
  sizedCeilingFloors.set(size, { fixed: await fixedRun(ceilingServer.url, target, CEILING_RATE, sized), cpuUs });
}
await ceilingServer.close();

console.log(
  `${selected.length} of ${operations.length} operations on the ${fmt(FILLS)}-fill world, each in a fresh service; ${CONNECTIONS} connections, ` +
    `${SECONDS} s per run, rotating over ${fmt(ROTATE)} wallets or markets; ${COLD} first requests after the first` +
    (DROP_CACHES
      ? `; page cache ${cachesDropped ? "dropped before each operation" : "NOT dropped (not permitted here)"}`
      : ""),
);
const header = [
  "operation",
  "req/s",
  "of ceiling",
  "of ceiling at its size",
  "fixed rate",
  "p50",
  "p99",
  "first request",
  `next ${COLD} first (p50 / max)`,
  "body (wire / JSON)",
  "status",
  "start",
  "peak RSS",
  "CPU per request",
  ...(SCALED ? ["scaled req/s", "scaled / embedded", "scaled p99"] : []),
];
const cells = (row: Row): string[] => {
  const sorted = [...row.cold].sort((a, b) => a - b);
  const fixed = fixedFigures(row.fixed);
  const non2xx = row.max.non2xx + (fixed?.non2xx ?? 0);
  return [
    row.label,
    fmt(row.max.rps),
    `${fmt((100 * row.max.rps) / ceiling.rps)}%`,
    `${fmt((100 * row.max.rps) / ceilingAt(sizedCeilings, row.first.wireBytes))}%`,
    `${fmt(row.rate)}/s`,
    fixed ? `${ms(fixed.p50)} ms` : "not run",
    fixedP99(row.fixed),
    `${ms(row.first.ms)} ms`,
    sorted.length ? `${ms(sorted[Math.floor(sorted.length / 2)]!)} / ${ms(sorted[sorted.length - 1]!)} ms` : "-",
    row.first.wireBytes === row.first.jsonBytes
      ? bytes(row.first.jsonBytes)
      : `${bytes(row.first.wireBytes)} / ${bytes(row.first.jsonBytes)}`,
    `${row.first.status}${non2xx ? ` (${fmt(non2xx)} non-2xx)` : ""}`,
    `${fmt(row.startMs / 1000, 1)} s`,
    row.rssMb === undefined ? "?" : `${fmt(row.rssMb)} MB`,
    `${fmt(row.cpuPerRequestUs)} µs`,
    ...(row.scaled ? scaledCells(row, row.scaled) : []),
  ];
};

function scaledCells(row: Row, scaled: NonNullable<Row["scaled"]>): string[] {
  const non2xx = scaled.max.non2xx + (fixedFigures(scaled.fixed)?.non2xx ?? 0);
  return [
    `${fmt(scaled.max.rps)}${non2xx ? ` (${fmt(non2xx)} non-2xx)` : ""}`,
    `${fmt(scaled.max.rps / row.max.rps, 2)}x`,
    fixedP99(scaled.fixed),
  ];
}
const tableLine = (values: string[]) => `| ${values.join(" | ")} |`;

const rows: Row[] = [];
for (const operation of selected) {
  try {
    const row = await measureBoth(operation);
    rows.push(row);
    console.error(tableLine(cells(row)));
  } catch (error) {
    console.error(`${operation.label}: failed: ${(error as Error).message}`);
  }
}

console.log(
  `\nceiling (a bare Fastify route, fixed pre-serialized 120-byte body): ${fmt(ceiling.rps)} req/s; at ${fmt(CEILING_RATE)}/s ` +
    (typeof ceilingFixed === "object"
      ? `p50 ${ms(ceilingFixed.p50)} ms, p99 ${ms(ceilingFixed.p99)} ms`
      : `not run ${fixedP99(ceilingFixed)}`) +
    `; its CPU per request ${fmt(ceilingCpuUs)} µs`,
);
const sizedFloor = (size: number) => {
  const floor = sizedCeilingFloors.get(size);
  return floor ? ` (p99 ${fixedP99(floor.fixed)}, CPU ${fmt(floor.cpuUs)} µs)` : "";
};
console.log(
  `ceiling at a body's size (the same route, n bytes; a row's wire size is read between these): ${sizedCeilings
    .map((c) => `${bytes(c.bytes)} ${fmt(c.rps)} req/s${sizedFloor(c.bytes)}`)
    .join("; ")} (p99 at ${fmt(CEILING_RATE)}/s; CPU per request)`,
);
console.log(tableLine(header));
console.log(tableLine(header.map(() => "---")));
for (const row of rows) console.log(tableLine(cells(row)));
const rss = rows.map((r) => r.rssMb ?? 0);
if (rss.length > 0)
  console.log(`\nthe service's peak RSS: ${fmt(Math.max(...rss))} MB (${rows[rss.indexOf(Math.max(...rss))]!.label})`);
if (SCALED) await deleteRedisKeys(REDIS_URL, redisPrefix);
if (skipped.length > 0)
  console.log(`not measured here (streams, measured by bench/live.bench.ts): ${skipped.join(", ")}`);
