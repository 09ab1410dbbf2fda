/**
 * `pelagic serve` as the benches run it, with the service's clock set back to BENCH_CLOCK_AT (unix seconds) when
 * it starts, and moving from there: the bench worlds end on a fixed past day, and the routes that read "the last
 * N minutes" or "the last 24 hours" (whale alerts, movers, flows, hot markets) would find nothing at today's time.
 * Settings come from the environment, as for the service; it prints the same "pelagic serving" line with its URL.
 */
import { loadConfig } from "../../src/config/index.js";
import type { Clock } from "../../src/platform/clock.js";
import { createLogger } from "../../src/platform/logger.js";
import { startService, stopOnSignals } from "../../src/runtime/index.js";

const clockAt = Number(process.env.BENCH_CLOCK_AT);
if (!Number.isFinite(clockAt)) throw new Error("BENCH_CLOCK_AT (unix seconds) is required");
const offsetMs = Date.now() - clockAt * 1000;
const clock: Clock = {
  nowMs: () => Date.now() - offsetMs,
  now: () => Math.floor((Date.now() - offsetMs) / 1000),
};

const config = loadConfig();
const logger = createLogger(config.server.logLevel);
const service = await startService(config, { logger, clock });
stopOnSignals(service, logger, config.server.shutdownGraceMs);
