/**
 * The window aggregates computed in their worker thread (src/runtime/aggregates-worker.ts), which opens the store
 * from the configuration as the service's would, agree with the same aggregates computed in this thread over the
 * same stored world, value for value; a closed computer refuses work.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AggregateName,
  InThreadAggregates,
  WINDOW_AGGREGATES,
} from "../src/analytics/windows/window-aggregates.js";
import { loadConfig, type Config } from "../src/config/index.js";
import { ManualClock } from "../src/platform/clock.js";
import { WorkerAggregates } from "../src/runtime/aggregates-worker.js";
import { smallWorld } from "../src/sim/world/testing/worlds.js";
import type { Store } from "../src/store/database.js";
import { migrateStore } from "../src/store/migrate.js";
import { openProcessStore, processStoreKinds, type ProcessStore } from "./support/process-stores.js";
import { storeWorld } from "./support/world-app.js";

const NAMES = Object.keys(WINDOW_AGGREGATES) as AggregateName[];

/** Whether a value carries data: a non-empty list, a number other than 0, or an object holding one of them. */
const hasData = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.length > 0
    : typeof value === "number"
      ? value !== 0
      : typeof value === "object" && value !== null && Object.values(value).some(hasData);

/** Thresholds low enough that the small world has smart whales, whale moves and clusters to aggregate. */
const LOW_THRESHOLDS = { SMART_MIN_RESOLVED_MARKETS: "3", HOME_WHALE_MOVE_MIN_USD: "0", CLUSTER_MIN_WHALES: "2" };

describe.each(processStoreKinds)("window aggregates in their worker thread, on %s", (kind) => {
  let processStore: ProcessStore;
  let store: Store;
  let config: Config;
  const world = smallWorld(7);

  beforeAll(async () => {
    processStore = await openProcessStore(kind);
    config = loadConfig({ LOG_LEVEL: "silent", ...LOW_THRESHOLDS, ...processStore.env });
    store = await processStore.open();
    await migrateStore(store);
    await storeWorld(store, world, config, new ManualClock(world.end * 1000));
  });

  afterAll(async () => {
    await store?.close();
    await processStore?.dispose();
  });

  it("computes every aggregate as the serving thread does", async () => {
    const here = new InThreadAggregates(store, config);
    const worker = new WorkerAggregates(config);
    try {
      const withData: AggregateName[] = [];
      for (const name of NAMES) {
        const expected = await here.compute(name, world.end);
        expect(await worker.compute(name, world.end), name).toEqual(expected);
        if (hasData(expected)) withData.push(name);
      }
      // The comparison means something only where the world gives the aggregates rows: it does for every one.
      expect(withData).toEqual(NAMES);
      // Asked at once, they are answered each with its own value.
      const [flow, movers] = await Promise.all([
        worker.compute("analytics:flow", world.end),
        worker.compute("analytics:movers", world.end),
      ]);
      expect(flow).toEqual(await here.compute("analytics:flow", world.end));
      expect(movers).toEqual(await here.compute("analytics:movers", world.end));
    } finally {
      await worker.close();
    }
  });

  it("refuses work once closed", async () => {
    const worker = new WorkerAggregates(config);
    await worker.compute("site:stats", world.end);
    await worker.close();
    await expect(worker.compute("site:stats", world.end)).rejects.toThrow(/closed/);
  });
});
