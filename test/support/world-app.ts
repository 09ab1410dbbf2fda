/**
 * The API over a simulated world, for end-to-end endpoint tests: a small seeded world (spanning the V1 to V2
 * cutover) stored as a complete ingest stores it (markets, fills, activity, resolutions, wallet profiles, the
 * venue's per-wallet cache), derived by `rebuild`, and the app built over that store with the clock at the
 * world's end. The world itself is returned, so tests can compute expectations independently of the API.
 */
import { rebuild } from "../../src/derive/rebuild.js";
import { loadVenueCache, loadWorld, recordWorldWallets } from "../../src/derive/testing/stored-world.js";
import { loadWorldFunding } from "../../src/derive/testing/stored-funding.js";
import { InsiderScoreWriter } from "../../src/derive/insider-scores.js";
import { smallWorld } from "../../src/sim/world/testing/worlds.js";
import type { World, WorldOptions } from "../../src/sim/world/index.js";
import type { Config } from "../../src/config/index.js";
import type { Clock } from "../../src/platform/clock.js";
import type { Store } from "../../src/store/database.js";
import { openTestApp, type TestApp } from "./app.js";
import type { StoreBackend } from "./backends.js";

export interface WorldApp extends TestApp {
  readonly world: World;
  /** The world's last instant: the clock's time (unix seconds). */
  readonly now: number;
}

export async function openWorldApp(
  options: {
    seed?: number | string;
    world?: Partial<WorldOptions>;
    env?: Record<string, string>;
    venueCache?: boolean;
    storeBackend?: StoreBackend;
  } = {},
): Promise<WorldApp> {
  const world = smallWorld(options.seed ?? 7, options.world);
  const testApp = await openTestApp({ env: options.env, storeBackend: options.storeBackend });
  testApp.clock.set(world.end * 1000);
  await storeWorld(testApp.store, world, testApp.config, testApp.clock, options.venueCache ?? true);
  return { ...testApp, world, now: world.end };
}

/** Stores a world as a complete ingest stores it (the venue's per-wallet cache too, unless told not to), then derives it. */
export async function storeWorld(
  store: Store,
  world: World,
  config: Config,
  clock: Clock,
  venueCache = true,
): Promise<void> {
  const now = world.end;
  await loadWorld(store, world);
  await recordWorldWallets(store, world, now);
  if (venueCache) await loadVenueCache(store, world, now);
  await loadWorldFunding(store, world, config.funding);
  await rebuild(store, config, clock);
  await new InsiderScoreWriter(store, config.insider).refresh(now, true);
}
