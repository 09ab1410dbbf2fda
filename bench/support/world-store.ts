/**
 * A SQLite store holding a whole simulated world as a complete ingest leaves it (markets, fills, activity,
 * resolutions, wallet profiles, the venue's per-wallet cache) and derived by `rebuild`. Like a first sync, it
 * stores the fills without their deferred indexes and builds those once at the end (src/store/fills.ts): built
 * row by row, their pages held about 10% more bytes than a sync's store does. Building the
 * 10,000,000-fill one takes several minutes, so it is kept in BENCH_DIR (default: the system's temp folder)
 * under a name that says which world it holds, and reused by later runs. It is written under a temporary
 * name and renamed when complete, so an interrupted build is never mistaken for a finished one.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { loadConfig } from "../../src/config/index.js";
import { rebuild } from "../../src/derive/rebuild.js";
import { loadVenueCache, loadWorld, recordWorldWallets } from "../../src/derive/testing/stored-world.js";
import { loadWorldFunding } from "../../src/derive/testing/stored-funding.js";
import { InsiderScoreWriter } from "../../src/derive/insider-scores.js";
import { ManualClock } from "../../src/platform/clock.js";
import { generateWorld } from "../../src/sim/world/index.js";
import { indexBuildMemory } from "../../src/ingest/ingest.js";
import { openStore } from "../../src/store/database.js";
import { createDeferredFillIndexes, dropDeferredFillIndexes } from "../../src/store/fills.js";
import { migrateStore } from "../../src/store/migrate.js";

/** The bench worlds end on a fixed day, so the same world is rebuilt identically run after run. */
export const BENCH_WORLD_END = Date.UTC(2026, 10, 21) / 1000;

export interface WorldStore {
  /** The folder to use as DATA_DIR: it holds `pelagic.sqlite`. */
  readonly dataDir: string;
  readonly sqlitePath: string;
}

/** Markets and wallets scale with the fills as in the other benches (500 markets and 5,000 wallets at least). */
export function benchWorldOptions(fills: number, seed = 1) {
  return {
    seed,
    end: BENCH_WORLD_END,
    fills,
    markets: Math.max(500, Math.round(fills / 2_000)),
    wallets: Math.max(5_000, Math.round(fills / 200)),
  };
}

export async function prepareWorldStore(fills: number, log: (line: string) => void = console.log): Promise<WorldStore> {
  const options = benchWorldOptions(fills);
  const dataDir = join(process.env.BENCH_DIR ?? tmpdir(), `pelagic-bench-world-${options.seed}-${fills}`);
  const sqlitePath = join(dataDir, "pelagic.sqlite");
  if (existsSync(sqlitePath)) {
    log(`reusing the ${fills.toLocaleString("en-US")}-fill world store in ${dataDir}`);
    return { dataDir, sqlitePath };
  }
  mkdirSync(dataDir, { recursive: true });
  const building = join(dataDir, "building.sqlite");
  rmSync(building, { force: true });
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  const world = generateWorld(options);
  log(`generated a ${world.fillCount.toLocaleString("en-US")}-fill world (${elapsed()})`);
  const config = loadConfig({ DATA_DIR: dataDir });
  const store = await openStore({ kind: "sqlite", sqlitePath: building, sqliteCacheMb: config.store.sqliteCacheMb });
  try {
    await migrateStore(store);
    const clock = new ManualClock(world.end * 1000);
    await store.transaction(dropDeferredFillIndexes);
    await loadWorld(store, world, { batchRows: 50_000 });
    await store.transaction((tx) => createDeferredFillIndexes(tx, indexBuildMemory(config)));
    await recordWorldWallets(store, world, world.end);
    log(`stored its markets, fills and activity (${elapsed()})`);
    await loadVenueCache(store, world, world.end);
    log(`stored the venue's per-wallet cache (${elapsed()})`);
    await loadWorldFunding(store, world, config.funding);
    log(`stored its funding transfers and clusters (${elapsed()})`);
    await rebuild(store, config, clock);
    log(`derived positions and statistics (${elapsed()})`);
    await new InsiderScoreWriter(store, config.insider).refresh(world.end, true);
    log(`scored the bets (${elapsed()})`);
  } finally {
    await store.close();
  }
  for (const suffix of ["-wal", "-shm"]) rmSync(building + suffix, { force: true });
  renameSync(building, sqlitePath);
  return { dataDir, sqlitePath };
}
