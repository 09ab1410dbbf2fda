/**
 * Test support: an Ingest over a real, isolated store (test/support/backends.ts) and the fake venue (or clients
 * of the simulated venue, see sim-ingest.ts), with instant retries and captured log lines.
 */
import { loadConfig, type Config } from "../../config/index.js";
import { createPlatform, type Platform } from "../../platform/index.js";
import { createLogger, type Logger } from "../../platform/logger.js";
import type { Store } from "../../store/database.js";
import type { Sleep, VenueClients } from "../../venue/index.js";
import type { StoreBackend } from "../../../test/support/backends.js";
import { BatchWriter } from "../batch-writer.js";
import type { IngestContext, ProgressEvent } from "../context.js";
import { Ingest, type IngestDeps } from "../ingest.js";
import type { FakeVenue } from "./fake-venue.js";

export interface IngestHarness {
  readonly store: Store;
  readonly platform: Platform;
  readonly config: Config;
  readonly ingest: Ingest;
  readonly logger: Logger;
  /** Every log line at warn and above, parsed. */
  readonly logs: Record<string, unknown>[];
  /** A context for driving one pipeline directly; its progress events are collected in `progress`. */
  context(): IngestContext;
  readonly progress: ProgressEvent[];
  dispose(): Promise<void>;
}

/** The venue's clients, built from the harness's configuration (the simulated venue: src/ingest/testing/sim-ingest.ts). */
export type ClientsFor = (config: Config) => VenueClients;

export async function openIngestHarness(
  backend: StoreBackend,
  venue: FakeVenue | ClientsFor,
  options: {
    env?: Record<string, string>;
    withChain?: boolean;
    maxBlockSpan?: number;
    sleep?: Sleep;
    chainReader?: IngestDeps["chainReader"];
  } = {},
): Promise<IngestHarness> {
  const { store, dispose } = await backend.open();
  const config = loadConfig({
    LOG_LEVEL: "silent",
    INGEST_CONFIRMATIONS: "0",
    INGEST_RETRY_MAX_SECONDS: "1",
    ...options.env,
  });
  const platform = await createPlatform({ redisPrefix: "", cacheMaxEntries: 100, cacheStaleSeconds: 60 });
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger("warn", {
    write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>),
  });
  const ingest = new Ingest({
    config,
    store,
    platform,
    logger,
    venue:
      typeof venue === "function"
        ? venue(config)
        : venue.clients({ withChain: options.withChain ?? true, maxBlockSpan: options.maxBlockSpan }),
    sleep: options.sleep ?? instantSleep,
    chainReader: options.chainReader,
  });
  const progress: ProgressEvent[] = [];
  return {
    store,
    platform,
    config,
    ingest,
    logger,
    logs,
    progress,
    context: () => ({
      store,
      writer: new BatchWriter(store, platform.clock, logger),
      clock: platform.clock,
      logger,
      progress: (e) => void progress.push(e),
    }),
    async dispose() {
      await ingest.stop();
      await platform.close();
      await dispose();
    },
  };
}

/** A sleep that only yields to the event loop: retries and pauses cost no wall time. */
export async function instantSleep(_ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw signal.reason;
  await new Promise((resolve) => setImmediate(resolve));
}

/** The checkpoint of a source. */
export async function checkpointOf(store: Store, source: string) {
  return store.db.selectFrom("ingest_checkpoints").selectAll().where("source", "=", source).executeTakeFirst();
}
