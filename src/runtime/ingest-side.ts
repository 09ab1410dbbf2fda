/**
 * What a process that ingests runs beside its store, started together and stopped together: the ingest, the
 * ledger's derivation that follows its batches, the live relay that labels the live feed's trades for every API
 * process, the territory monitor, and the alerts' matcher (in each batch's transaction; it wakes the API processes'
 * delivery workers on ALERTS_DUE_CHANNEL once the batch is committed) with the watchers of the territory monitor's
 * events (beside the monitor) and of the markets' consensus. It runs in the serving thread (role ingest, and tests that hand the service
 * objects of their own) or in the ingest thread of role all (ingest-thread.ts).
 */
import { AlertMatcher } from "../alerts/matcher.js";
import { ConsensusFlips } from "../alerts/consensus-flips.js";
import { InsiderAlerts } from "../alerts/insider-alerts.js";
import { TerritoryAlerts } from "../alerts/territory-alerts.js";
import { ALERTS_DUE_CHANNEL } from "../alerts/delivery-worker.js";
import type { Config } from "../config/index.js";
import { startDeriver, type Deriver } from "../derive/index.js";
import { Ingest } from "../ingest/index.js";
import { TerritoryMonitor, type MonitorDeps } from "../isw/monitor.js";
import { attachLiveRelay } from "../live/relay.js";
import { realScheduler } from "../live/scheduler.js";
import type { Platform } from "../platform/index.js";
import type { Logger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import type { Sleep, VenueClients } from "../venue/index.js";

export interface IngestSide {
  readonly ingest: Ingest;
  readonly deriver: Deriver;
  /** Null when ISW_MONITOR is off. */
  readonly territory: TerritoryMonitor | null;
  /** Null when ALERTS is off. */
  readonly alerts: AlertMatcher | null;
  /** Stops the ingest between two batches and the monitor, then the relay and the derivation. */
  stop(): Promise<void>;
}

/** Objects a test hands in; none of them can cross to a worker thread, so passing one keeps the ingest in-thread. */
export interface InProcessIngestOptions {
  /** The venue's clients (tests point them at a simulated venue); built from the configuration when absent. */
  venue?: VenueClients;
  sleep?: Sleep;
  /** Runs before the ingest starts (register `onCommitted` listeners here, so they see every batch). */
  beforeIngest?: (ingest: Ingest) => Promise<void>;
  /** The territory monitor's layer source (tests); the configured one when absent. */
  territory?: Pick<MonitorDeps, "source">;
}

export interface IngestSideInput {
  readonly config: Config;
  /** The primary store: the ingest writes there. */
  readonly store: Store;
  readonly platform: Platform;
  readonly logger: Logger;
}

export async function startIngestSide(
  { config, store, platform, logger }: IngestSideInput,
  options: InProcessIngestOptions = {},
): Promise<IngestSide> {
  const ingest = new Ingest({ config, store, platform, logger, venue: options.venue, sleep: options.sleep });
  const territory = config.isw.monitor
    ? new TerritoryMonitor({ config, store, clock: platform.clock, logger, ...options.territory })
    : null;
  const alerts = config.alerts.enabled ? attachAlertMatcher(ingest, { config, platform, logger }) : null;
  const wake = () => void platform.pubsub.publish(ALERTS_DUE_CHANNEL, "1").catch(() => undefined);
  const watchers = config.alerts.enabled
    ? [
        ...(territory ? [new TerritoryAlerts({ store, config, clock: platform.clock, logger, onStored: wake })] : []),
        new ConsensusFlips({ store, config, clock: platform.clock, logger, onStored: wake }),
        new InsiderAlerts({ store, config, clock: platform.clock, logger, onStored: wake }),
      ]
    : [];
  await options.beforeIngest?.(ingest);
  // The derived tables (positions, statistics, market figures) follow every committed ingest batch.
  const deriver = await startDeriver({ store, config, clock: platform.clock, logger, ingest });
  // The live streams' relay labels the live feed's trades once, here, for every API process (src/live/).
  const relay = attachLiveRelay(ingest, {
    pubsub: platform.pubsub,
    store,
    logger,
    scheduler: realScheduler(platform.clock),
    holdMs: config.live.settlementHoldMs,
  });
  await relay
    .start()
    .catch((error: unknown) => logger.error({ err: error }, "the live relay could not subscribe to the live feed"));
  ingest.start();
  territory?.start();
  for (const watcher of watchers) watcher.start();
  return {
    ingest,
    deriver,
    territory,
    alerts,
    async stop() {
      await Promise.all([ingest.stop(), territory?.stop(), ...watchers.map((watcher) => watcher.stop())]);
      await relay.stop();
      await deriver.stop();
    },
  };
}

/** Matches every batch's new fills in its transaction; once it commits, wakes the delivery workers if it stored any. */
function attachAlertMatcher(ingest: Ingest, { config, platform, logger }: Omit<IngestSideInput, "store">) {
  const matcher = new AlertMatcher({ config, clock: platform.clock, logger });
  ingest.onCommitting(async (tx, fills) => {
    await matcher.matchInTransaction(tx, fills);
  });
  ingest.onCommitted(async () => {
    if (matcher.committed() > 0) await platform.pubsub.publish(ALERTS_DUE_CHANNEL, "1");
  });
  return matcher;
}

/** Whether any of the options needs the ingest in the serving thread. */
export function needsServingThread(options: InProcessIngestOptions): boolean {
  return !!(options.venue || options.sleep || options.beforeIngest || options.territory);
}
