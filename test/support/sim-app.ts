/**
 * The API over a store the real Ingest filled from a simulated venue, the Deriver following its batches: the
 * end-to-end set-up of the tests that compare what the API answers with the venue's own (venue figures, adapters).
 */
import { Deriver } from "../../src/derive/deriver.js";
import { openSimIngest, type SimIngestHarness } from "../../src/ingest/testing/sim-ingest.js";
import { ManualClock } from "../../src/platform/clock.js";
import { createLogger } from "../../src/platform/logger.js";
import type { SimVenue } from "../../src/sim/servers/index.js";
import { openTestApp, type TestApp } from "./app.js";
import type { StoreBackend } from "./backends.js";

export interface SimApp {
  readonly h: SimIngestHarness;
  readonly t: TestApp;
  readonly deriver: Deriver;
  close(): Promise<void>;
}

/**
 * Ingests the whole venue (the Deriver deriving, `ready` recorded as production records it), lets `beforeRefresh`
 * do what must precede the full refresh (the wallets' syncs, say), refreshes, and opens the API over the same store.
 */
export async function openSimApp(
  backend: StoreBackend,
  venue: SimVenue,
  options: {
    env?: Record<string, string>;
    /** Settings of the ingest and the Deriver (the API's are `env`). */
    ingestEnv?: Record<string, string>;
    beforeRefresh?: (h: SimIngestHarness) => Promise<void>;
  } = {},
): Promise<SimApp> {
  const h = await openSimIngest(backend, venue, { env: options.ingestEnv });
  const clock = new ManualClock(venue.state.now() * 1000);
  const deriver = new Deriver({ store: h.store, config: h.config, clock, logger: createLogger("silent") });
  h.ingest.onCommitted(deriver.onCommitted);
  await deriver.start();
  await h.ingest.runUntilCaughtUp();
  // As production wires it (startDeriver): the listed wallets synced before `ready` when the history may be short.
  await deriver.firstSyncCaughtUp(() => h.ingest.firstLookWallets());
  await options.beforeRefresh?.(h);
  await deriver.refresh({ full: true });
  const shared: StoreBackend = {
    kind: backend.kind,
    open: async () => ({ store: h.store, dispose: async () => undefined }),
  };
  const t = await openTestApp({ storeBackend: shared, env: options.env });
  return {
    h,
    t,
    deriver,
    async close() {
      await t.close();
      await deriver.stop();
      await h.dispose();
    },
  };
}
