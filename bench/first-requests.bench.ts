/**
 * The scaled mode's plans, operation by operation, in minutes where the api bench's scaled column takes hours at
 * 10,000,000 fills: one embedded service over the world's SQLite store and one `serve --role api` process over its
 * PostgreSQL copy (support/scaled-world.ts), both started once; for every GET operation of the served document, its
 * first BENCH_FIRST paths (each a wallet, market or query not asked before) one at a time on each, then the same paths
 * again (answers kept, stamps read):
 *   npm run bench first-requests              (BENCH_FILLS=10000000; BENCH_FIRST=12; BENCH_ONLY=words)
 * Prints per operation the median and the slowest first request on each store, the scaled one's ratio to the
 * embedded one, the medians of the second pass, and any path whose status differs between the two stores; then the
 * operations whose first requests are slowest on PostgreSQL. A read PostgreSQL plans badly (a time index walked
 * backwards through every partition, every fill of a wallet read to keep a page) shows here as a first request tens
 * or thousands of times slower than SQLite's; the decision
 * "Per-request reads of one wallet's or market's fills filter `fill_rows` by id" (docs/decisions.md) came from it.
 * Latencies only: throughput and p99 under load are the api bench's.
 */
import { readFixtures } from "./support/bench-fixtures.js";
import { drilldownPaths } from "./support/drilldown-targets.js";
import { startScaledServices, startService } from "./support/http-load.js";
import { benchOperations, type OpenApiDocument } from "./support/operations.js";
import { probe } from "./support/probe.js";
import { deleteRedisKeys } from "./support/redis-keys.js";
import { preparePostgresWorld } from "./support/scaled-world.js";
import { whaleAlertPaths } from "./support/whale-alert-targets.js";
import { prepareWorldStore } from "./support/world-store.js";

const FILLS = Number(process.env.BENCH_FILLS ?? 10_000_000);
const FIRST = Number(process.env.BENCH_FIRST ?? 12);
const ONLY = process.env.BENCH_ONLY?.split(",").filter(Boolean);
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
/** Operations listed at the end, slowest first request on PostgreSQL first. */
const SLOWEST = 10;

const { dataDir, sqlitePath } = await prepareWorldStore(FILLS);
const fixtures = await readFixtures(sqlitePath, FIRST);
const databaseUrl = await preparePostgresWorld(sqlitePath);
const rotations = { whaleAlerts: await whaleAlertPaths(sqlitePath), drilldowns: await drilldownPaths(sqlitePath) };
const redisPrefix = `pelagic-bench-first-${process.pid}:`;

const embedded = await startService(dataDir, fixtures.end);
const [scaled] = await startScaledServices(dataDir, fixtures.end, { databaseUrl, redisUrl: REDIS_URL, redisPrefix }, 1);

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const ms = (n: number) => (n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString("en-US"));

interface Row {
  label: string;
  embedded: number[];
  scaled: number[];
  embeddedAgain: number[];
  scaledAgain: number[];
  statusDiffers: string[];
}

const rows: Row[] = [];
try {
  const document = (await (await fetch(new URL("/api/openapi.json", embedded.url))).json()) as OpenApiDocument;
  const { operations } = benchOperations(document, fixtures, rotations, FIRST);
  console.log(
    `first requests on the ${FILLS.toLocaleString("en-US")}-fill world: SQLite (embedded) and PostgreSQL (one API process), ` +
      `${FIRST} paths per operation, each asked once and then again`,
  );
  console.log(
    "| operation | first, SQLite (median / max) | first, PostgreSQL (median / max) | PostgreSQL / SQLite | again, SQLite | again, PostgreSQL |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const operation of operations) {
    if (ONLY && !ONLY.some((word) => operation.label.includes(word))) continue;
    const options = { method: operation.method, headers: operation.headers, body: operation.body };
    const paths = operation.paths.slice(0, FIRST);
    const pass = async (base: string) => {
      const out: { ms: number; status: number }[] = [];
      for (const path of paths) out.push(await probe(base, path, options));
      return out;
    };
    const [e1, s1, e2, s2] = [
      await pass(embedded.url),
      await pass(scaled!.url),
      await pass(embedded.url),
      await pass(scaled!.url),
    ];
    const row: Row = {
      label: operation.label,
      embedded: e1.map((p) => p.ms),
      scaled: s1.map((p) => p.ms),
      embeddedAgain: e2.map((p) => p.ms),
      scaledAgain: s2.map((p) => p.ms),
      statusDiffers: paths.flatMap((path, i) =>
        e1[i]!.status === s1[i]!.status ? [] : [`${path} (${e1[i]!.status} / ${s1[i]!.status})`],
      ),
    };
    rows.push(row);
    console.log(
      `| \`${row.label}\` | ${ms(median(row.embedded))} / ${ms(Math.max(...row.embedded))} ms | ` +
        `${ms(median(row.scaled))} / ${ms(Math.max(...row.scaled))} ms | ${(median(row.scaled) / median(row.embedded)).toFixed(1)}x | ` +
        `${ms(median(row.embeddedAgain))} ms | ${ms(median(row.scaledAgain))} ms |`,
    );
  }
} finally {
  await embedded.close();
  await scaled!.close();
  await deleteRedisKeys(REDIS_URL, redisPrefix);
}

const differing = rows.filter((r) => r.statusDiffers.length > 0);
console.log(
  differing.length === 0
    ? "\nevery path answered with the same status on both stores"
    : `\nstatus differs between the stores:\n${differing.map((r) => `  ${r.label}: ${r.statusDiffers.join(", ")}`).join("\n")}`,
);
console.log(`\nslowest first requests on PostgreSQL (max):`);
for (const r of [...rows].sort((a, b) => Math.max(...b.scaled) - Math.max(...a.scaled)).slice(0, SLOWEST))
  console.log(`  ${ms(Math.max(...r.scaled))} ms  ${r.label} (SQLite's max ${ms(Math.max(...r.embedded))} ms)`);
