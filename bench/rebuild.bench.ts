/**
 * A first derivation of the bench world (issue 49: a 10,000,000-fill rebuild in under 3 minutes and 2 GB):
 *   npm run bench rebuild                         (BENCH_FILLS=1000000; BENCH_FILLS=1000000,10000000 measures each)
 *   BENCH_REBUILD_NODE_ARGS=--max-old-space-size=1024 npm run bench rebuild   (the rebuild's process under a heap cap)
 *   SQLITE_CACHE_MB=32 npm run bench rebuild        (the service's settings reach the rebuild's configuration)
 *   BENCH_RUNS=3 npm run bench rebuild               (each world rebuilt three times, then the median and the range:
 *                                                     on a shared machine one run's time moves by a tenth)
 * For each world (support/world-store.ts, built once and kept in BENCH_DIR): a copy of its file without its position
 * snapshots (as a first sync leaves a store: the replay takes every kept day's), the page cache dropped where this
 * process may (support/page-cache.ts), then `rebuild` with the world's clock in a process of its own, which prints
 * its phases, the rows it wrote and its peak RSS. The copy is deleted afterwards. Figures only; nothing is asserted.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../src/config/index.js";
import { rebuild } from "../src/derive/rebuild.js";
import { ManualClock } from "../src/platform/clock.js";
import { openStore } from "../src/store/database.js";
import { deleteAllSnapshots } from "../src/store/position-snapshots.js";
import { dropPageCache } from "./support/page-cache.js";
import { BENCH_WORLD_END, prepareWorldStore } from "./support/world-store.js";

const FILLS = (process.env.BENCH_FILLS ?? "1000000").split(",").filter(Boolean).map(Number);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** In the rebuild's own process: the store at `sqlitePath`, its snapshots deleted, rebuilt. */
async function rebuildCopy(sqlitePath: string): Promise<void> {
  const config = loadConfig({ ...process.env, DATA_DIR: join(sqlitePath, "..") });
  const store = await openStore({ kind: "sqlite", sqlitePath, sqliteCacheMb: config.store.sqliteCacheMb });
  try {
    await store.transaction(deleteAllSnapshots);
    const started = performance.now();
    const r = await rebuild(store, config, new ManualClock(BENCH_WORLD_END * 1000));
    console.log(
      `  rebuild ${seconds(performance.now() - started)}: replay ${seconds(r.replayMs)}, statistics ${seconds(r.statsMs)}, write ${seconds(r.writeMs)}; ` +
        `${fmt(r.fills)} fills, ${fmt(r.wallets)} wallets, ${fmt(r.positions)} positions; ` +
        `peak RSS ${fmt(process.resourceUsage().maxRSS / 1024)} MB`,
    );
  } finally {
    await store.close();
  }
}

/** One rebuild of a fresh copy of the world's file, the page cache dropped first: its total seconds and peak RSS. */
function rebuildOnce(
  worldPath: string,
  dataDir: string,
  nodeArgs: string[],
): { seconds: number; rssMb: number } | null {
  const dir = mkdtempSync(join(dataDir, "rebuild-"));
  try {
    const copy = join(dir, "pelagic.sqlite");
    copyFileSync(worldPath, copy);
    const dropped = dropPageCache();
    console.log(`  (page cache ${dropped ? "dropped" : "not dropped: not root"})`);
    const run = spawnSync(process.execPath, [...nodeArgs, "--import", "tsx", fileURLToPath(import.meta.url)], {
      stdio: ["ignore", "pipe", "inherit"],
      encoding: "utf8",
      env: { ...process.env, BENCH_REBUILD_STORE: copy },
    });
    process.stdout.write(run.stdout);
    if (run.status !== 0) {
      console.log(`  the rebuild's process failed (${run.status ?? run.signal})`);
      return null;
    }
    const figures = /rebuild ([\d.]+) s:.*peak RSS ([\d,]+) MB/.exec(run.stdout);
    return figures ? { seconds: Number(figures[1]), rssMb: Number(figures[2]!.replaceAll(",", "")) } : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const nodeArgs = (process.env.BENCH_REBUILD_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
  console.log(
    `rebuild of the bench world without its snapshots, ${runs} run(s) a world; the rebuild's node arguments: ${nodeArgs.join(" ") || "none"}`,
  );
  for (const fills of FILLS) {
    const world = await prepareWorldStore(fills);
    console.log(`${fmt(fills)} fills:`);
    const results: Array<{ seconds: number; rssMb: number }> = [];
    for (let run = 0; run < runs; run++) {
      const result = rebuildOnce(world.sqlitePath, world.dataDir, nodeArgs);
      if (result) results.push(result);
    }
    if (runs > 1 && results.length > 0) {
      const seconds = results.map((r) => r.seconds);
      const rss = results.map((r) => r.rssMb);
      console.log(
        `  median of ${results.length}: ${median(seconds).toFixed(1)} s (${Math.min(...seconds).toFixed(1)}-${Math.max(...seconds).toFixed(1)}), ` +
          `peak RSS ${fmt(median(rss))} MB (${fmt(Math.min(...rss))}-${fmt(Math.max(...rss))})`,
      );
    }
  }
}

const target = process.env.BENCH_REBUILD_STORE;
await (target ? rebuildCopy(target) : main());
