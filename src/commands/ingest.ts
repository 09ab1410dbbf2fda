/**
 * `pelagic ingest`: the first full sync with a progress bar (on a terminal) or log lines, then following the
 * venue until SIGTERM/SIGINT, which stops between two batches, with everything the ingest side of the service runs
 * beside it (the Deriver, the live relay, the territory monitor, the alert matcher: `startIngestSide`), as
 * `serve --role ingest` without its HTTP port. `--until-caught-up` only stores: it exits 0 once caught up, and the
 * next process that derives (`serve`, or `pelagic ingest` following) derives the whole store when it starts.
 */
import type { Config } from "../config/index.js";
import { Ingest, Stopped } from "../ingest/index.js";
import { ProgressReporter } from "../ingest/progress.js";
import { createPlatform } from "../platform/index.js";
import { createLogger } from "../platform/logger.js";
import { startIngestSide } from "../runtime/ingest-side.js";
import { guardProcess } from "../runtime/process-guard.js";
import { stopOnSignals } from "../runtime/signals.js";
import { migrateConfiguredStore, openConfiguredStore } from "../runtime/store.js";
import { settingFlag, type CommandSpec } from "./spec.js";

export const ingestCommand: CommandSpec = {
  name: "ingest",
  summary: "backfill from the venue, then follow it (--until-caught-up: exit once caught up)",
  description:
    "Backfills markets, then fills and activity from INGEST_START, with a progress bar on a terminal (log lines " +
    "otherwise), then follows the venue until SIGTERM or Ctrl-C, which stop it between two batches; while it " +
    "follows it derives positions and statistics, relays the live feed and runs the territory monitor and the alert " +
    "matcher, as `serve --role ingest` does without its HTTP port. --until-caught-up only fills the store (the next " +
    "process that derives derives it whole when it starts).",
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
  await migrateConfiguredStore(store, config);
  const platform = await createPlatform(config.platform);
  const progress = new ProgressReporter(process.stderr, logger);
  const watchProgress = (ingest: Ingest) => {
    ingest.onProgress((event) => progress.update(event));
    logger.info({ store: config.store.kind, sources: ingest.expectedSources }, "ingest starting");
  };
  let stopIngest: () => Promise<void> = async () => undefined;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await stopIngest();
      progress.finish();
      await platform.close();
      await store.close();
    })());
  stopOnSignals({ stop: close }, logger, config.server.shutdownGraceMs);
  if (!options.untilCaughtUp) {
    const side = await startIngestSide(
      { config, store, platform, logger },
      { beforeIngest: async (ingest) => watchProgress(ingest) },
    );
    stopIngest = () => side.stop();
    return;
  }
  const ingest = new Ingest({ config, store, platform, logger });
  stopIngest = () => ingest.stop();
  watchProgress(ingest);
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
