import { availableParallelism } from "node:os";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * The files that take longest (in this order), started first: CI runs from a fresh clone, where vitest has no
 * durations of an earlier run to order by and would start them wherever the glob puts them, leaving one worker on
 * a long file while the other has finished (docs/decisions.md, "CI time").
 */
const LONG_POLES = [
  "test/ingest-kill.test.ts",
  "test/bounded-memory.test.ts",
  "test/live-sim.test.ts",
  "test/ai-analysis-processes.test.ts",
  "test/serve.test.ts",
  "test/ingest-process.test.ts",
  "src/derive/deriver.test.ts",
  "test/cli.test.ts",
  "src/ingest/chain-reader.test.ts",
  "test/web-dashboard.test.ts",
  "src/derive/rebuild.test.ts",
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

/**
 * The suites `npm run test:backends` (TEST_BACKENDS_ONLY=1) runs against PostgreSQL and Redis: the store, platform,
 * rate-limit, live, ingest, AI and process suites (other files that take `storeBackends`, src/derive's for one, meet
 * PostgreSQL only under `npm test` with TEST_DATABASE_URL set). There test/support/backends.ts yields only those two
 * backends, so that no SQLite or in-process case `npm test` has run is run again; a file without a PostgreSQL or
 * Redis case has no place here.
 */
const BACKEND_SUITES = [
  "src/accounts/keys.test.ts",
  "src/ai/deterministic.test.ts",
  "src/analytics/wallet-search.test.ts",
  "src/ingest/batch-writer.test.ts",
  "src/ingest/chain-logs.test.ts",
  "src/ingest/data-api-trades.test.ts",
  "src/ingest/markets-sync.test.ts",
  "src/ingest/wallet-sync-schedule.test.ts",
  "src/ingest/wallet-sync.test.ts",
  "src/isw/probe.test.ts",
  "src/isw/webhooks/dispatcher.test.ts",
  "src/platform/platform.test.ts",
  "src/platform/rate-limiter.test.ts",
  "src/store/stamp-reads.test.ts",
  "src/store/store.test.ts",
  "src/store/wallet-market-fills-index.test.ts",
  "src/store/wallet-names.test.ts",
  "test/ai-analysis-processes.test.ts",
  "test/api/ai-analysis-failures.test.ts",
  "test/api/ai-analysis.test.ts",
  "test/api/edge-values.test.ts",
  "test/api/every-route.test.ts",
  "test/api/isw.test.ts",
  "test/api/whale-alerts-feed.test.ts",
  "test/api/whale-positions.test.ts",
  "test/ingest-follow.test.ts",
  "test/ingest-kill.test.ts",
  "test/ingest-process.test.ts",
  "test/ingest-truth.test.ts",
  "test/ingest-unlisted.test.ts",
  "test/live-processes.test.ts",
  "test/live-upstream.test.ts",
  "test/partitioned-fills.test.ts",
  "test/rate-limit-processes.test.ts",
  "test/read-replica.test.ts",
  "test/ready-then-data.test.ts",
  "test/scaled-mode.test.ts",
  "test/serve.test.ts",
  "test/venue-figures.test.ts",
];

export default defineConfig({
  test: {
    include:
      process.env.TEST_BACKENDS_ONLY === "1"
        ? BACKEND_SUITES
        : ["src/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts"],
    pool: "forks",
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: LongPolesFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    setupFiles: ["test/support/fast-check-seed.ts"],
  },
});
