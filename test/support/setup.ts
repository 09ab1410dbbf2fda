/**
 * Runs before each test file (vitest's setupFiles), in the worker's one module graph (isolate: false, see
 * vitest.config.ts): what must happen per file rather than once per worker.
 */
import fc from "fast-check";
import { afterAll } from "vitest";
import { metrics } from "../../src/platform/metrics.js";
import { dropFileDatabase } from "./backends.js";

// Property tests explore new random cases on every local run; CI pins the seed (FC_SEED) so that a landing gate
// never fails on a case nobody has seen yet. A failure prints its seed: reproduce it with FC_SEED=<seed> npm test.
const seed = process.env.FC_SEED;
if (seed !== undefined && seed !== "") {
  const parsed = Number(seed);
  if (!Number.isSafeInteger(parsed)) throw new Error(`FC_SEED must be an integer, got ${JSON.stringify(seed)}`);
  fc.configureGlobal({ seed: parsed });
}

// The file's PostgreSQL database (test/support/backends.ts) goes with the file.
afterAll(dropFileDatabase);

// The process's metrics start from zero for each file, as in the process of its own a file used to get: a gauge an
// earlier file's ingest set (its lag) would otherwise add to this file's ingest thread's.
metrics.reset();
