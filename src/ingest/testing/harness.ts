/**
 * Test support: an Ingest over a real, isolated store (test/support/backends.ts) and the fake venue, with
 * instant retries and captured log lines.
 */
import { loadConfig, type Config } from "../../config/index.js";
import { createPlatform, type Platform } from "../../platform/index.js";
import { createLogger, type Logger } from "../../platform/logger.js";
import type { Store } from "../../store/database.js";
import type { StoreBackend } from "../../../test/support/backends.js";
import { BatchWriter } from "../batch-writer.js";
import type { IngestContext, ProgressEvent } from "../context.js";
import { Ingest } from "../ingest.js";
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

export async function openIngestHarness(
  backend: StoreBackend,
  venue: FakeVenue,
  options: { env?: Record<string, string>; withChain?: boolean; maxBlockSpan?: number } = {},
): Promise<IngestHarness> {
  const { store, dispose } = await backend.open();
  const config = loadConfig({ LOG_LEVEL: "silent", INGEST_CONFIRMATIONS: "0", INGEST_RETRY_MAX_SECONDS: "1", ...options.env });
  const platform = await createPlatform({ redisPrefix: "", cacheMaxEntries: 100, cacheStaleSeconds: 60 });
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger("warn", { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const ingest = new Ingest({
    config,
    store,
    platform,
    logger,
    venue: venue.clients({ withChain: options.withChain ?? true, maxBlockSpan: options.maxBlockSpan }),
    sleep: async (_ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      await new Promise((resolve) => setImmediate(resolve));
    },
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
    context: () => ({ store, writer: new BatchWriter(store, platform.clock, logger), clock: platform.clock, logger, progress: (e) => void progress.push(e) }),
    async dispose() {
      await ingest.stop();
      await platform.close();
      await dispose();
    },
  };
}

/** The checkpoint of a source. */
export async function checkpointOf(store: Store, source: string) {
  return store.db.selectFrom("ingest_checkpoints").selectAll().where("source", "=", source).executeTakeFirst();
}
