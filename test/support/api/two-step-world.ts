/**
 * A simulated world served by the API while it is derived in two steps, as a process that starts on a store and then
 * follows its ingest: the first part of the fills and resolutions through the Deriver's warm start, the rest later,
 * batch by batch, as an ingest commits them (`deliverRest`). The whale-copy tests read answers before and after.
 */
import { afterAll, beforeAll } from "vitest";
import { Deriver } from "../../../src/derive/deriver.js";
import { deriveConfig, loadWorld } from "../../../src/derive/testing/stored-world.js";
import { ManualClock } from "../../../src/platform/clock.js";
import { createLogger } from "../../../src/platform/logger.js";
import { smallWorld } from "../../../src/sim/world/testing/worlds.js";
import type { Store } from "../../../src/store/database.js";
import { openTestApp, type TestApp } from "../app.js";
import { sqliteBackend } from "../backends.js";

export const TWO_STEP_ENV = {
  SMART_MIN_RESOLVED_MARKETS: "1",
  RATE_FREE_PER_MINUTE: "100000",
  // Few enough that the world's larger whale groups are listed in part.
  WHALE_GROUP_WHALES_LISTED: "4",
};

export interface TwoStepWorld {
  readonly world: ReturnType<typeof smallWorld>;
  readonly store: Store;
  readonly clock: ManualClock;
  /** The API, on the same store. */
  readonly t: TestApp;
  /** Another app on the same store: a process started after the later fills. */
  openApp(): Promise<TestApp>;
  /**
   * The fills and resolutions after the cut, committed batch by batch (of `batchRows` fills) through the Deriver;
   * `between` runs after each batch is handed over (a reader of the store between two commits).
   */
  deliverRest(options?: { batchRows?: number; between?: () => Promise<void> }): Promise<void>;
  close(): Promise<void>;
}

/** A two-step world opened before the enclosing describe's tests and closed after them, as a getter. */
export function useTwoStepWorld(): () => TwoStepWorld {
  let two: TwoStepWorld | undefined;
  beforeAll(async () => {
    two = await openTwoStepWorld();
  }, 120_000);
  afterAll(async () => {
    await two?.close();
  });
  return () => two!;
}

export async function openTwoStepWorld(): Promise<TwoStepWorld> {
  const world = smallWorld(11);
  const cut = Math.floor(world.start + (world.end - world.start) * 0.6);
  const clock = new ManualClock((world.end + 3_600) * 1000);
  const { store, dispose } = await sqliteBackend.open();
  await loadWorld(store, world, { range: { to: cut }, updatedAt: clock.now() });
  const deriver = new Deriver({ store, config: deriveConfig(TWO_STEP_ENV), clock, logger: createLogger("silent") });
  await deriver.start();
  const openApp = async () => {
    const app = await openTestApp({
      env: TWO_STEP_ENV,
      storeBackend: { kind: "sqlite", open: async () => ({ store, dispose: async () => {} }) },
    });
    app.clock.set(clock.nowMs());
    return app;
  };
  const t = await openApp();
  return {
    world,
    store,
    clock,
    t,
    openApp,
    async deliverRest({ batchRows, between } = {}) {
      await loadWorld(store, world, {
        range: { from: cut },
        updatedAt: clock.now(),
        batchRows,
        onBatch: async (batch) => {
          await deriver.onCommitted(batch);
          await between?.();
        },
      });
      await deriver.idle();
    },
    async close() {
      await t.close();
      await deriver.stop();
      await dispose();
    },
  };
}
