/**
 * The territory monitor of the process that ingests: the probe on its cadence (ISW_FAST_PROBE_SECONDS inside the
 * busy window ISW_BUSY_START_HOUR_UTC..ISW_BUSY_END_HOUR_UTC, ISW_SLOW_PROBE_SECONDS outside). Its events reach the
 * webhooks and chats through the alerts (src/alerts/territory-alerts.ts). A failed probe (the server throttles with an error inside HTTP 200, refuses, or times out) is
 * counted on the health source `isw-territory` and waits twice as long as the last pause, up to
 * ISW_PROBE_BACKOFF_MAX_SECONDS, or as long as the server asked for.
 */
import type { Config } from "../config/index.js";
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import { configuredCities } from "./cities.js";
import { ArcGisClient } from "../venue/arcgis.js";
import { recordSourceError } from "../store/checkpoints.js";
import { VenueUnavailableError } from "../venue/http.js";
import type { Store } from "../store/database.js";
import { arcgisLayerSource, configuredLayers, type LayerSource } from "./layers.js";
import { TERRITORY_SOURCE, TerritoryProbe } from "./probe.js";

export interface MonitorDeps {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Where the layers come from; the ArcGIS server of ISW_ARCGIS_URL when absent. */
  readonly source?: LayerSource;
}

/** Seconds until the next probe: the fast cadence inside the busy window (UTC hours), the slow one outside. */
export function probeIntervalSeconds(nowMs: number, isw: Config["isw"]): number {
  const hour = new Date(nowMs).getUTCHours();
  return hour >= isw.busyWindowStartHour && hour < isw.busyWindowEndHour ? isw.fastProbeSeconds : isw.slowProbeSeconds;
}

/**
 * The pause after a failed probe: twice the previous one (twice the interval after the first failure), at least
 * what the server asked for, at most ISW_PROBE_BACKOFF_MAX_SECONDS.
 */
export function backoffSeconds(
  previous: number,
  intervalSeconds: number,
  askedSeconds: number,
  maxSeconds: number,
): number {
  return Math.min(maxSeconds, Math.max(askedSeconds, previous === 0 ? intervalSeconds * 2 : previous * 2));
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

export class TerritoryMonitor {
  readonly probe: TerritoryProbe;
  private readonly controller = new AbortController();
  private loop: Promise<void> | null = null;

  constructor(private readonly deps: MonitorDeps) {
    const { config, store, clock, logger } = deps;
    const source =
      deps.source ??
      arcgisLayerSource(
        ArcGisClient.fromConfig(config, {
          onEvent: (event) => logger.debug({ venue: event }, "territory layer request retried"),
        }),
      );
    this.probe = new TerritoryProbe({
      store,
      clock,
      logger,
      source,
      isw: config.isw,
      cities: configuredCities(config.isw),
      layers: configuredLayers(config.isw),
    });
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { config, clock, logger, store } = this.deps;
    const signal = this.controller.signal;
    let backoff = 0;
    while (!signal.aborted) {
      const interval = probeIntervalSeconds(clock.nowMs(), config.isw);
      try {
        await this.probe.probe(signal);
        backoff = 0;
      } catch (error) {
        if (signal.aborted) break;
        const message = error instanceof Error ? error.message : String(error);
        const askedSeconds =
          error instanceof VenueUnavailableError && error.retryAfterMs !== null
            ? Math.ceil(error.retryAfterMs / 1000)
            : 0;
        backoff = backoffSeconds(backoff, interval, askedSeconds, config.isw.probeBackoffMaxSeconds);
        logger.warn(
          { source: TERRITORY_SOURCE, err: message, pauseSeconds: backoff },
          "territory probe failed; backing off",
        );
        await recordSourceError(store.db, TERRITORY_SOURCE, message, clock.now()).catch(() => undefined);
      }
      await pause((backoff || interval) * 1000, signal);
    }
  }
}
