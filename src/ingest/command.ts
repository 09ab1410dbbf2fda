/**
 * `pelagic ingest`: the first full sync with a progress bar (on a terminal) or log lines, then following the
 * venue until SIGTERM/SIGINT, which stops between two batches. `--until-caught-up` exits 0 once caught up.
 */
import type { Config } from "../config/index.js";
import { createPlatform } from "../platform/index.js";
import { createLogger } from "../platform/logger.js";
import { openConfiguredStore, stopOnSignals } from "../runtime/index.js";
import { migrateStore } from "../store/migrate.js";
import { Ingest } from "./ingest.js";
import { ProgressReporter } from "./progress.js";
import { Stopped } from "./runner.js";

export async function runIngestCommand(config: Config, options: { untilCaughtUp: boolean }): Promise<void> {
  const logger = createLogger(config.server.logLevel);
  const store = await openConfiguredStore(config);
  await migrateStore(store);
  const platform = await createPlatform(config.platform);
  const ingest = new Ingest({ config, store, platform, logger });
  const progress = new ProgressReporter(process.stderr, logger);
  ingest.onProgress((event) => progress.update(event));
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await ingest.stop();
      progress.finish();
      await platform.close();
      await store.close();
    })());
  stopOnSignals({ stop: close }, logger, config.server.shutdownGraceMs);
  logger.info({ store: config.store.kind, sources: ingest.expectedSources }, "ingest starting");
  if (!options.untilCaughtUp) {
    ingest.start();
    return;
  }
  try {
    await ingest.runUntilCaughtUp();
  } catch (error) {
    if (error instanceof Stopped) return;
    throw error;
  }
  progress.finish();
  logger.info(progress.figures(), "ingest caught up");
  await close();
}
