/**
 * `pelagic ingest`: the first full sync with a progress bar (on a terminal) or log lines, then following the
 * venue until SIGTERM/SIGINT, which stops between two batches. `--until-caught-up` exits 0 once caught up.
 */
import type { Config } from "../config/index.js";
import { Ingest, Stopped } from "../ingest/index.js";
import { ProgressReporter } from "../ingest/progress.js";
import { createPlatform } from "../platform/index.js";
import { createLogger } from "../platform/logger.js";
import { guardProcess } from "../runtime/process-guard.js";
import { stopOnSignals } from "../runtime/signals.js";
import { openConfiguredStore } from "../runtime/store.js";
import { migrateStore } from "../store/migrate.js";
import { settingFlag, type CommandSpec } from "./spec.js";

export const ingestCommand: CommandSpec = {
  name: "ingest",
  summary: "backfill from the venue, then follow it (--until-caught-up: exit once caught up)",
  description:
    "Backfills markets, then fills and activity from INGEST_START, with a progress bar on a terminal (log lines " +
    "otherwise), then follows the venue until SIGTERM or Ctrl-C, which stop it between two batches. Use it for the " +
    "scaled mode's one ingest process, or to fill a store before serving it.",
  flags: {
    "until-caught-up": { description: "exit (code 0) once every source has caught up, instead of following the venue" },
    "ingest-start": settingFlag("INGEST_START", "<date|block>"),
  },
  examples: [
    "pelagic ingest --ingest-start 2026-01-01 --until-caught-up",
    "pelagic ingest --database-url postgres://localhost/pelagic",
  ],
  run: (config, flags) => runIngestCommand(config, { untilCaughtUp: flags["until-caught-up"] === "true" }),
};

async function runIngestCommand(config: Config, options: { untilCaughtUp: boolean }): Promise<void> {
  const logger = createLogger(config.server.logLevel);
  guardProcess(logger);
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
