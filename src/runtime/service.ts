/**
 * The service (`pelagic serve`, `pelagic demo`): opens the store (migrating it), the platform, the HTTP server and,
 * by role, the ingest; SIGTERM and SIGINT stop accepting connections, drain in-flight requests, stop ingest between
 * two batches, then close the store cleanly. Roles: `all` serves the API and runs ingest (unless INGEST=false) in a
 * worker thread of its own (INGEST_THREAD, ingest-worker.ts), `api` serves without ingest, `ingest` runs ingest and
 * serves only /api/v1/health.
 */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { setFlagsFromString } from "node:v8";
import { buildApp, httpServerOptions } from "../api/app.js";
import { appContext, type AppInput } from "../api/context.js";
import { registerErrorHandling } from "../api/errors.js";
import { registerWireErrors } from "../api/wire-errors.js";
import { healthRoutes } from "../api/routes/service/health.js";
import { metricsRoutes, recordRequestMetrics } from "../api/routes/service/metrics.js";
import type { Config } from "../config/index.js";
import { redactUrl } from "../config/index.js";
import type { Clock } from "../platform/clock.js";
import { createPlatform, type Platform } from "../platform/index.js";
import { createLogger, type Logger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import { expectedIngestSources, type Ingest } from "../ingest/index.js";
import type { Deriver } from "../derive/index.js";
import type { TerritoryMonitor } from "../isw/monitor.js";
import { useExtraExchanges } from "../venue/index.js";
import { WorkerAggregates } from "./aggregates-worker.js";
import { needsServingThread, startIngestSide, type InProcessIngestOptions, type IngestSide } from "./ingest-side.js";
import { IngestWorker } from "./ingest-worker.js";
import { migrateConfiguredStore, openConfiguredReadStore, openConfiguredStore } from "./store.js";

export interface Service {
  app: FastifyInstance;
  store: Store;
  platform: Platform;
  /** The ingest this process runs in its serving thread (role ingest, or role all when a test hands in objects); null otherwise. */
  ingest: Ingest | null;
  /** The ledger's derivation, fed by this process's ingest; null when no ingest runs here. */
  deriver: Deriver | null;
  /** The territory probe, beside the ingest (ISW_MONITOR); null when no ingest runs here. */
  territory: TerritoryMonitor | null;
  /** The address the server listens on. */
  url: string;
  stop(): Promise<void>;
}

export interface StartOptions extends InProcessIngestOptions {
  logger?: Logger;
  /** Extra plugins registered before listening (tests use it for probe routes). */
  register?: (app: FastifyInstance) => Promise<void>;
  /** The platform's clock (the benches start it at their world's last fill); the system clock when absent. */
  clock?: Clock;
}

/** role ingest: only /api/v1/health and /metrics, so an orchestrator can probe and watch the ingest process. */
async function buildHealthApp(input: AppInput, logger: Logger): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    ...httpServerOptions(input.config.server),
  });
  registerErrorHandling(app, input.config.server);
  registerWireErrors(app);
  recordRequestMetrics(app);
  await app.withTypeProvider<TypeBoxTypeProvider>().register(healthRoutes, appContext(input));
  await app.register(metricsRoutes, input);
  return app;
}

/**
 * V8 moves an allocation site to old-generation allocation when most of its objects survived young collections,
 * as the start-up's loads make them do; the same sites then allocate each request's short-lived objects there, and
 * the old generation grew by about 100 MB a second under load until its next full collection: peak RSS 1,045-1,140 MB
 * in a third of the bench's fresh services, 767-844 MB in all of them without it (docs/decisions.md, "Peak RSS").
 */
const V8_FLAGS = "--no-allocation-site-pretenuring";

export async function startService(config: Config, options: StartOptions = {}): Promise<Service> {
  setFlagsFromString(V8_FLAGS);
  useExtraExchanges(config.venue.extraExchanges);
  const logger = options.logger ?? createLogger(config.server.logLevel);
  const role = config.server.role;
  const ingestRuns = role === "ingest" || (role === "all" && config.ingest.enabled);
  // Role all runs its ingest in a thread of its own unless a test hands in objects that cannot cross to one.
  const ingestThread =
    role === "all" && ingestRuns && config.ingest.thread && !options.clock && !needsServingThread(options);
  const store = await openConfiguredStore(config, { ingests: ingestRuns && !ingestThread });
  try {
    await migrateConfiguredStore(store, config);
  } catch (error) {
    await store.close();
    throw error;
  }
  // The API's reads go to the replica when there is one; the ingest and what the API writes stay on the primary.
  const replica =
    role === "ingest"
      ? null
      : await openConfiguredReadStore(config).catch(async (error: unknown) => {
          await store.close();
          throw error;
        });
  const platform = await createPlatform(config.platform, options.clock);
  const aggregates = role !== "ingest" && config.server.aggregatesWorker ? new WorkerAggregates(config) : undefined;
  // An API process reports the readiness of the ingest process that shares its store.
  const expectedSources = ingestRuns || role === "api" ? expectedIngestSources(config) : [];
  let worker: IngestWorker | null = null;
  const ctx: AppInput = {
    config,
    store: replica ?? store,
    primary: store,
    platform,
    expectedSources,
    startedAt: platform.clock.now(),
    aggregates,
    otherThreadMetrics: async () => (worker ? [await worker.metrics()] : []),
  };
  const app = role === "ingest" ? await buildHealthApp(ctx, logger) : await buildApp(ctx, logger);
  if (options.register) await options.register(app);
  // What a first request would wait for is computed before the service listens (src/api/warm-up.ts).
  if (role !== "ingest") await app.warmUp();
  const url = await app.listen({ port: config.server.port, host: config.server.host });
  let side: IngestSide | null = null;
  try {
    if (ingestThread) worker = await IngestWorker.start(config, platform, logger);
    else if (ingestRuns) side = await startIngestSide({ config, store, platform, logger }, options);
  } catch (error) {
    await Promise.all([app.close(), aggregates?.close()]);
    await platform.close();
    await replica?.close();
    await store.close();
    throw error;
  }
  logger.info(
    {
      url,
      store: config.store.kind === "postgres" ? redactUrl(config.store.databaseUrl ?? "") : config.store.sqlitePath,
      ...(replica ? { replica: redactUrl(config.store.databaseReadUrl ?? "") } : {}),
      platform: config.platform.kind,
      role,
      ingest: ingestThread ? "thread" : ingestRuns,
    },
    "pelagic serving",
  );
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await Promise.all([app.close(), side?.stop(), worker?.stop()]);
      await aggregates?.close();
      await platform.close();
      await replica?.close();
      await store.close();
    })());
  return {
    app,
    store,
    platform,
    ingest: side?.ingest ?? null,
    deriver: side?.deriver ?? null,
    territory: side?.territory ?? null,
    url,
    stop,
  };
}
