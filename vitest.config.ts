import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";
// @ts-expect-error: plain JavaScript beside bin/pelagic.js, without declarations
import { buildIsCurrent } from "./bin/sources.js";

// The worker threads a test starts run the bundle while it is current, as `pelagic`'s do: from the sources, each
// would load ~1,700 modules through tsx, seconds of processor time per thread (src/platform/worker-entry.ts).
if (buildIsCurrent(process.cwd())) process.env.PELAGIC_WORKERS = "bundle";

/**
 * The files that take longest (in this order), started first: CI runs from a fresh clone, where vitest has no
 * durations of an earlier run to order by and would start them wherever the glob puts them, leaving one worker on
 * a long file while the other has finished (docs/decisions.md, "CI time").
 */
const LONG_POLES = [
  "test/alerts-end-to-end.test.ts",
  "test/web-dashboard.test.ts",
  "test/ingest-kill.test.ts",
  "src/derive/deriver.test.ts",
  "test/scaled-mode.test.ts",
  "test/ingest-process.test.ts",
  "src/derive/rebuild.test.ts",
  "test/live-sim.test.ts",
  "test/read-replica.test.ts",
  "test/scorecard-replay.test.ts",
  "test/ready-then-data.test.ts",
  "test/ingest-truth.test.ts",
  "test/ai-analysis-processes.test.ts",
  "src/ingest/chain-logs.test.ts",
  "test/venue-figures.test.ts",
  "test/compact-fills-migration.test.ts",
  "test/client.test.ts",
  "test/bounded-memory.test.ts",
  "test/mcp.test.ts",
  "test/serve.test.ts",
  "test/cli.test.ts",
];

class LongPolesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONG_POLES.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return at < 0 ? LONG_POLES.length : at;
    };
    // Array sort is stable: the rest keep the order vitest gives them (its measured durations, when it has some).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

const TEST_GLOBS = ["src/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts"];

/** What marks a file that runs cases against PostgreSQL or Redis (test/support/backends.ts). */
const BACKEND_CASES = /\b(storeBackends|platformBackends|processStoreKinds|TEST_DATABASE_URL|TEST_REDIS_URL)\b/;

/**
 * The suites `npm run test:backends` (TEST_BACKENDS_ONLY=1) runs against PostgreSQL and Redis: every test file that
 * takes its backends from test/support/backends.ts, found here so that a new one joins by itself. There the
 * backends yield only those two, so that no SQLite or in-process case `npm test` has run is run again.
 */
function backendSuites(): string[] {
  return ["src", "test", "bench"]
    .flatMap((root) => readdirSync(root, { recursive: true, encoding: "utf8" }).map((file) => join(root, file)))
    .filter((file) => file.endsWith(".test.ts") && BACKEND_CASES.test(readFileSync(file, "utf8")))
    .sort();
}

export default defineConfig({
  test: {
    include: process.env.TEST_BACKENDS_ONLY === "1" ? backendSuites() : TEST_GLOBS,
    pool: "forks",
    // A worker runs its files one after another in one module graph: each file no longer imports the service's
    // modules (Fastify, Kysely, viem, TypeBox, the routes) afresh, which took about half of the run's time. No file
    // mocks a module; timers, spies and the environment are restored per file (docs/decisions.md, "CI time").
    isolate: false,
    // One worker more than the cores where the suites are the processor's (SQLite: 1.84 of 2 cores busy with three,
    // 286 → 250 s); as many as the cores against PostgreSQL, whose own processes fill the rest (three: 262 → 327 s).
    maxWorkers: Math.max(2, availableParallelism()) + (process.env.TEST_BACKENDS_ONLY === "1" ? 0 : 1),
    sequence: { sequencer: LongPolesFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // What a test polls for (a page rendered after its requests, a delivery) is awaited up to 10 s, not vitest's 1 s:
    // on CI's loaded two cores a browser page's first render after a key's check once took longer than a second.
    expect: { poll: { timeout: 10_000 } },
    restoreMocks: true,
    setupFiles: ["test/support/setup.ts"],
    globalSetup: ["test/support/global-setup.ts"],
  },
});
