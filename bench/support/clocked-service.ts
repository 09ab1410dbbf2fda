/**
 * The API over a prepared bench world, as `pelagic serve --role api` runs it, but with its clock set back to
 * BENCH_CLOCK_AT (unix seconds) when it starts, and moving from there: the bench worlds end on a fixed past day,
 * and the routes that read "the last N minutes" (whale alerts) would find nothing at today's time. Settings come
 * from the environment, as for the service; it prints the same "pelagic serving" line with its URL.
 */
import { buildApp } from "../../src/api/app.js";
import { loadConfig } from "../../src/config/index.js";
import type { Clock } from "../../src/platform/clock.js";
import { createPlatform } from "../../src/platform/index.js";
import { createLogger } from "../../src/platform/logger.js";
import { openConfiguredStore } from "../../src/runtime/store.js";
import { migrateStore } from "../../src/store/migrate.js";

const clockAt = Number(process.env.BENCH_CLOCK_AT);
if (!Number.isFinite(clockAt)) throw new Error("BENCH_CLOCK_AT (unix seconds) is required");
const offsetMs = Date.now() - clockAt * 1000;
const clock: Clock = {
  nowMs: () => Date.now() - offsetMs,
  now: () => Math.floor((Date.now() - offsetMs) / 1000),
};

const config = loadConfig();
const logger = createLogger(config.server.logLevel);
const store = await openConfiguredStore(config);
await migrateStore(store);
const platform = await createPlatform(config.platform, clock);
const app = await buildApp({ config, store, platform, expectedSources: [], startedAt: clock.now() }, logger);
const url = await app.listen({ port: config.server.port, host: config.server.host });
logger.info({ url, clock_at: clockAt }, "pelagic serving");
process.once("SIGTERM", () => {
  void (async () => {
    await app.close();
    await platform.close();
    await store.close();
    process.exit(0);
  })();
});
