/**
 * `pelagic serve`: opens the store (migrating it), the platform, and the HTTP server; SIGTERM and SIGINT
 * stop accepting connections, drain in-flight requests, then close the store cleanly.
 */
import type { FastifyInstance } from "fastify";
import { buildApp } from "./api/app.js";
import type { Config } from "./config/index.js";
import { redactUrl } from "./config/index.js";
import { createPlatform, type Platform } from "./platform/index.js";
import { createLogger, type Logger } from "./platform/logger.js";
import { openStore, type Store } from "./store/database.js";
import { migrateStore } from "./store/migrate.js";

export interface Service {
  app: FastifyInstance;
  store: Store;
  platform: Platform;
  /** The address the server listens on. */
  url: string;
  stop(): Promise<void>;
}

export async function openConfiguredStore(config: Config): Promise<Store> {
  return openStore({
    kind: config.store.kind,
    sqlitePath: config.store.sqlitePath,
    databaseUrl: config.store.databaseUrl,
    poolSize: config.store.poolSize,
  });
}

export interface StartOptions {
  logger?: Logger;
  /** Extra plugins registered before listening (tests use it for probe routes). */
  register?: (app: FastifyInstance) => Promise<void>;
}

export async function startService(config: Config, options: StartOptions = {}): Promise<Service> {
  const logger = options.logger ?? createLogger(config.server.logLevel);
  const store = await openConfiguredStore(config);
  try {
    await migrateStore(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  const platform = await createPlatform(config.platform);
  const app = await buildApp(
    { config, store, platform, expectedSources: [], startedAt: platform.clock.now() },
    logger,
  );
  if (options.register) await options.register(app);
  const url = await app.listen({ port: config.server.port, host: config.server.host });
  logger.info(
    {
      url,
      store: config.store.kind === "postgres" ? redactUrl(config.store.databaseUrl ?? "") : config.store.sqlitePath,
      platform: config.platform.kind,
      role: config.server.role,
    },
    "pelagic serving",
  );
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await app.close();
      await platform.close();
      await store.close();
    })());
  return { app, store, platform, url, stop };
}

/** Stops the service on SIGTERM/SIGINT, forcing an exit if draining outlasts the grace period. */
export function stopOnSignals(service: Service, logger: Logger, graceMs: number): void {
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, "draining");
    const timer = setTimeout(() => {
      logger.error("drain timed out; exiting");
      process.exit(1);
    }, graceMs);
    timer.unref();
    service.stop().then(
      () => {
        logger.info("stopped cleanly");
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, "stop failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
}
