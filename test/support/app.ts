/** Builds the API in-process over a real (isolated) store and platform, for inject()-based tests. */
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/api/app.js";
import { loadConfig, type Config } from "../../src/config/index.js";
import type { LiveDeps } from "../../src/live/index.js";
import { ManualClock } from "../../src/platform/clock.js";
import { createLogger } from "../../src/platform/logger.js";
import type { Platform } from "../../src/platform/index.js";
import type { Store } from "../../src/store/database.js";
import { memoryPlatform, sqliteBackend, type StoreBackend } from "./backends.js";

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  platform: Platform;
  clock: ManualClock;
  config: Config;
  close(): Promise<void>;
}

export async function openTestApp(
  options: {
    env?: Record<string, string>;
    expectedSources?: string[];
    register?: (app: FastifyInstance) => Promise<void>;
    /** Where logs go (at trace level); silent when absent. */
    logSink?: NodeJS.WritableStream;
    /** The store to build on; SQLite when absent. */
    storeBackend?: StoreBackend;
    /** The live streams' timers and upstream (src/live), when not the platform's. */
    live?: (clock: ManualClock) => LiveDeps;
  } = {},
): Promise<TestApp> {
  const config = loadConfig({ LOG_LEVEL: "silent", ...options.env });
  const clock = new ManualClock();
  const storeBackend = options.storeBackend ?? sqliteBackend;
  const platformBackend = memoryPlatform;
  const { store, dispose: disposeStore } = await storeBackend.open();
  const { platform, dispose: disposePlatform } = await platformBackend.open(clock);
  const app = await buildApp(
    {
      config,
      store,
      platform,
      expectedSources: options.expectedSources ?? [],
      startedAt: clock.now(),
      live: options.live?.(clock),
    },
    options.logSink ? createLogger("trace", options.logSink as never) : createLogger("silent"),
  );
  if (options.register) await options.register(app);
  await app.ready();
  return {
    app,
    store,
    platform,
    clock,
    config,
    async close() {
      await app.close();
      await disposePlatform();
      await disposeStore();
    },
  };
}
