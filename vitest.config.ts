import { defineConfig } from "vitest/config";

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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    setupFiles: ["test/support/fast-check-seed.ts"],
  },
});
