/**
 * Issue 49's flat cost as the world grows: every GET operation of the served document on two bench worlds (default
 * the 1,000,000- and 10,000,000-fill ones, support/world-store.ts), measured in one run, the worlds alternated per
 * operation so that the machine's drift falls on both sides alike, each in a fresh service (support/operation-run.ts)
 * with the page cache dropped before it (support/page-cache.ts; root only, the header says whether it was):
 *   BENCH_DROP_CACHES=1 npm run bench growth     (BENCH_FILLS=1000000,10000000; BENCH_SECONDS=3; BENCH_FIXED_SECONDS=6;
 *                                                  BENCH_WARM_UP_SECONDS=4; BENCH_ONLY=words; BENCH_COLD: the cold pass's
 *                                                  paths, default all)
 * Each service first answers every path of the operation's rotation once, one at a time, right after the page cache
 * was dropped: the cold pass, whose median and 90th percentile the table prints (what the first asker of each wallet
 * or market waits for). The throughput (a closed loop) and the fixed-rate run come after it, so that they measure
 * the service as it serves that rotation, not how much of the cold pass a short run happened to hold
 * (docs/decisions.md, "The growth bench reads every path once before it measures").
 * Prints per operation the p99 at its fixed rate and the throughput on each world, the larger world's ratio to the
 * smaller's (p99 up, throughput down), the service's CPU time a request over the throughput run (a read that costs
 * more shows there run after run; a fresh service's figure still moves by up to 2x between runs), the cold pass,
 * the first path's answer (JSON bytes) and the service's peak RSS
 * on each, and whether both ratios stay within GOAL_RATIO; then the rows that miss, each marked where its answer on
 * the larger world is more than GOAL_RATIO times the smaller's (more to send: not a read that grew with the store),
 * and the rows whose cold pass's median grew more than GOAL_RATIO.
 */
import { readFixtures } from "./support/bench-fixtures.js";
import { drilldownPaths } from "./support/drilldown-targets.js";
import { startService } from "./support/http-load.js";
import { fixedFigures, measureOperation, type OperationFigures } from "./support/operation-run.js";
import { benchOperations, type BenchOperation, type OpenApiDocument } from "./support/operations.js";
import { dropPageCache } from "./support/page-cache.js";
import { whaleAlertPaths } from "./support/whale-alert-targets.js";
import { prepareWorldStore } from "./support/world-store.js";

const FILLS = (process.env.BENCH_FILLS ?? "1000000,10000000").split(",").filter(Boolean).map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
/**
 * The closed loop before the throughput run. A service's throughput still climbs for seconds after the cold pass
 * (its code compiled by V8 as it runs hot, kept answers filling): 7,401 -> 11,692 requests a second over eight 2-s
 * runs of one 1M service, so that a run 1 s after the pass measured where on that climb each world happened to be.
 */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 4);
/**
 * The fixed-rate run's length. Its p99 at 200 requests a second over 2 s is the 4th slowest of 400, which one pause of
 * the loaded two-core machine sets (a health check's p99 per 2-s window ranged 3.7-29 ms over 24 s of one 1M service):
 * 6 s make it the 12th of 1,200.
 */
const FIXED_SECONDS = Number(process.env.BENCH_FIXED_SECONDS ?? 6);
const ROTATE = Number(process.env.BENCH_ROTATE ?? 200);
/** How many of the rotation's paths the cold pass asks after the first: all of them unless told. */
const COLD = Number(process.env.BENCH_COLD ?? Number.POSITIVE_INFINITY);
const DROP_CACHES = process.env.BENCH_DROP_CACHES === "1";
const ONLY = process.env.BENCH_ONLY?.split(",").filter(Boolean);
/** The larger world's p99 and throughput within this factor of the smaller's. */
const GOAL_RATIO = 1.5;

if (FILLS.length !== 2) throw new Error("BENCH_FILLS names two worlds: smaller,larger");
const cachesDropped = DROP_CACHES && dropPageCache();

interface World {
  readonly fills: number;
  readonly dataDir: string;
  readonly end: number;
  readonly operations: Map<string, BenchOperation>;
}

async function openWorld(fills: number): Promise<World> {
  const { dataDir, sqlitePath } = await prepareWorldStore(fills);
  const fixtures = await readFixtures(sqlitePath, ROTATE);
  const rotations = { whaleAlerts: await whaleAlertPaths(sqlitePath), drilldowns: await drilldownPaths(sqlitePath) };
  const service = await startService(dataDir, fixtures.end);
  let document: OpenApiDocument;
  try {
    document = (await (await fetch(new URL("/api/openapi.json", service.url))).json()) as OpenApiDocument;
  } finally {
    await service.close();
  }
  const { operations } = benchOperations(document, fixtures, rotations, ROTATE);
  return { fills, dataDir, end: fixtures.end, operations: new Map(operations.map((o) => [o.label, o])) };
}

const worlds = [await openWorld(FILLS[0]!), await openWorld(FILLS[1]!)] as const;
const labels = [...worlds[0].operations.keys()].filter(
  (label) =>
    worlds[1].operations.has(label) &&
    (!ONLY || ONLY.some((word) => label.includes(word) || worlds[0].operations.get(label)!.template.includes(word))),
);

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (n: number) => (n < 10 ? fmt(n, 1) : fmt(n));
const kb = (bytes: number) => fmt(bytes / 1024, bytes < 10_240 ? 1 : 0);
const millions = (n: number) => `${fmt(n / 1_000_000, n % 1_000_000 === 0 ? 0 : 1)}M`;
/** The first answers of the rotation's paths (the first path's and the cold pass's): median and 90th percentile. */
function coldPass(f: OperationFigures): { p50: number; p90: number } {
  const sorted = [f.first.ms, ...f.cold].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p90: at(0.9) };
}
const p99Of = (f: OperationFigures) => fixedFigures(f.fixed)?.p99;
const p99Cell = (f: OperationFigures) => {
  const p99 = p99Of(f);
  return p99 === undefined ? (f.fixed === "behind" ? "behind" : "not run") : `${ms(p99)} ms`;
};

const [small, large] = worlds.map((w) => millions(w.fills));
console.log(
  `${labels.length} operations on the ${small} and ${large}-fill worlds, alternated per operation, each in a fresh ` +
    `service; a cold pass over every path, ${WARM_UP_SECONDS} s of warm-up, ${SECONDS} s of throughput, ${FIXED_SECONDS} s at the fixed rate; page cache ${cachesDropped ? "dropped before each" : "NOT dropped"}; goal: the ` +
    `${large} world's p99 and throughput within ${GOAL_RATIO}x of the ${small} world's`,
);
const header = [
  "operation",
  "rate",
  `p99 ${small}`,
  `p99 ${large}`,
  "p99 ratio",
  `req/s ${small}`,
  `req/s ${large}`,
  "req/s ratio",
  `CPU/request ${small} / ${large}`,
  "CPU ratio",
  `first request ${small} / ${large}`,
  `cold pass p50 / p90 ${small}`,
  `cold pass p50 / p90 ${large}`,
  "cold p50 ratio",
  `answer ${small} / ${large}`,
  `peak RSS ${small} / ${large}`,
  "within goal",
];
const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
const rows: string[][] = [];
const misses: string[] = [];
const coldMisses: string[] = [];
for (const label of labels) {
  const figures: OperationFigures[] = [];
  try {
    for (const world of worlds) {
      if (cachesDropped) dropPageCache();
      figures.push(
        await measureOperation(world, world.operations.get(label)!, {
          seconds: SECONDS,
          fixedSeconds: FIXED_SECONDS,
          cold: COLD,
          warmUpSeconds: WARM_UP_SECONDS,
        }),
      );
    }
  } catch (error) {
    console.error(`${label}: failed: ${(error as Error).message}`);
    continue;
  }
  const [a, b] = figures as [OperationFigures, OperationFigures];
  const [p99a, p99b] = [p99Of(a), p99Of(b)];
  const p99Ratio = p99a !== undefined && p99b !== undefined ? p99b / p99a : undefined;
  const rpsRatio = a.max.rps / b.max.rps;
  const within = (p99Ratio === undefined || p99Ratio <= GOAL_RATIO) && rpsRatio <= GOAL_RATIO;
  const answerRatio = b.first.jsonBytes / Math.max(1, a.first.jsonBytes);
  const [coldA, coldB] = [coldPass(a), coldPass(b)];
  const coldRatio = coldB.p50 / coldA.p50;
  const row = [
    label,
    `${fmt(a.rate)}/s`,
    p99Cell(a),
    p99Cell(b),
    p99Ratio === undefined ? "-" : `${fmt(p99Ratio, 2)}x`,
    fmt(a.max.rps),
    fmt(b.max.rps),
    `${fmt(rpsRatio, 2)}x`,
    `${fmt(a.cpuPerRequestUs)} / ${fmt(b.cpuPerRequestUs)} µs`,
    `${fmt(b.cpuPerRequestUs / a.cpuPerRequestUs, 2)}x`,
    `${ms(a.first.ms)} / ${ms(b.first.ms)} ms`,
    `${ms(coldA.p50)} / ${ms(coldA.p90)} ms`,
    `${ms(coldB.p50)} / ${ms(coldB.p90)} ms`,
    `${fmt(coldRatio, 2)}x`,
    `${kb(a.first.jsonBytes)} / ${kb(b.first.jsonBytes)} KB`,
    `${a.rssMb === undefined ? "?" : fmt(a.rssMb)} / ${b.rssMb === undefined ? "?" : fmt(b.rssMb)} MB`,
    within ? "yes" : "NO",
  ];
  if (!within) misses.push(answerRatio > GOAL_RATIO ? `${label} (answer ${fmt(answerRatio, 1)}x larger)` : label);
  if (coldRatio > GOAL_RATIO) coldMisses.push(label);
  rows.push(row);
  console.error(line(row));
}
console.log(line(header));
console.log(line(header.map(() => "---")));
for (const row of rows) console.log(line(row));
console.log(
  `\n${rows.length - misses.length} of ${rows.length} operations within ${GOAL_RATIO}x` +
    (misses.length ? `; missing: ${misses.join(", ")}` : ""),
);
console.log(
  `cold pass: ${rows.length - coldMisses.length} of ${rows.length} with the ${large} world's median first answer ` +
    `within ${GOAL_RATIO}x` +
    (coldMisses.length ? `; over: ${coldMisses.join(", ")}` : ""),
);
