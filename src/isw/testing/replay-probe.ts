/** A probe over the real snapshots (SnapshotReplay), on a manual clock, for tests and benches. */
import { loadConfig, type Config } from "../../config/index.js";
import { ManualClock } from "../../platform/clock.js";
import { createLogger } from "../../platform/logger.js";
import { BUILT_IN_CITIES, defineCities, type CityInput } from "../cities.js";
import type { Store } from "../../store/database.js";
import type { EventRow } from "../event-view.js";
import { configuredLayers } from "../layers.js";
import { TerritoryProbe } from "../probe.js";
import { REPLAY_PATHS, SnapshotReplay } from "./snapshot-replay.js";

/** Settings that point the monitor at the replay's two layers. */
export const REPLAY_ENV: Readonly<Record<string, string>> = {
  ISW_CONTROL_LAYER: REPLAY_PATHS.control,
  ISW_ADVANCE_LAYER: REPLAY_PATHS.advance,
  ISW_GAINS_LAYER: "",
  ISW_INFILTRATION_LAYER: "",
  LOG_LEVEL: "silent",
};

export interface ReplayProbe {
  readonly probe: TerritoryProbe;
  readonly replay: SnapshotReplay;
  readonly clock: ManualClock;
  readonly config: Config;
  /** Shows a day, moves the clock an hour, and probes. */
  day(index: number, layers?: Parameters<SnapshotReplay["show"]>[1]): Promise<readonly EventRow[]>;
}

export function replayProbe(
  store: Store,
  options: {
    env?: Record<string, string>;
    cities?: readonly CityInput[];
    clock?: ManualClock;
    replay?: SnapshotReplay;
  } = {},
): ReplayProbe {
  const config = loadConfig({ ...REPLAY_ENV, ...options.env });
  const clock = options.clock ?? new ManualClock(Date.UTC(2023, 4, 20, 18));
  const replay = options.replay ?? new SnapshotReplay();
  const probe = new TerritoryProbe({
    store,
    source: replay,
    clock,
    logger: createLogger("silent"),
    isw: config.isw,
    cities: defineCities(options.cities ?? BUILT_IN_CITIES, config.isw.bufferAdvanceM),
    layers: configuredLayers(config.isw),
  });
  return {
    probe,
    replay,
    clock,
    config,
    async day(index, layers) {
      replay.show(index, layers);
      clock.advance(3_600_000);
      return (await probe.probe()).events;
    },
  };
}
