/**
 * The ledger's stored results on a simulated world:
 *   node --import tsx --expose-gc bench/derive.bench.ts        (or: npm run bench derive)
 *   BENCH_FILLS=1000000 node --import tsx bench/derive.bench.ts  (a smaller world; default 10,000,000 fills)
 * At 10 million fills the world, the rebuild's ledger and the Deriver's take several GB: add --max-old-space-size=12000
 * (and BENCH_DIR for a disk with 10 GB free; the store is deleted at the end).
 *
 * Generates a world (markets and wallets scaled with the fills, as bench/sim-world.bench.ts), loads it into a
 * fresh SQLite store (as a complete ingest holds it, counterparties included) but for its last fills, and times:
 * the full rebuild (`pelagic rebuild`: stream ORDER BY wallet, ts, replay, statistics, one transaction of
 * writes); the Deriver's warm start; one incremental update per committed batch of the held-back fills
 * (latency of `onCommitted`, positions and statistics written); a refresh (rankings, market stats, wash shares
 * within their time budget) and a full one. Then precision and recall of the farmer test (against the farmer, bot, market-maker and wash-trading
 * archetypes; with its two-sided measure on the wallet's own splits and merges, and on MINT/MERGE-settled fills as before issue 23) and of the
 * skill badge (against skilled traders), with every archetype's counts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { loadConfig, type Config } from "../src/config/index.js";
import type { Derivation } from "../src/derive/derivation.js";
import { loadWalletInputs } from "../src/derive/wallet-inputs.js";
import { checkFarmer, farmerMetrics, summarizeWallet } from "../src/ledger/index.js";
import { Deriver } from "../src/derive/deriver.js";
import { rebuild } from "../src/derive/rebuild.js";
import { deriveConfig, loadWorld } from "../src/derive/testing/stored-world.js";
import { ManualClock } from "../src/platform/clock.js";
import { createLogger } from "../src/platform/logger.js";
import { generateWorld, type Archetype } from "../src/sim/world/index.js";
import { openStore, type Store } from "../src/store/database.js";
import { migrateStore } from "../src/store/migrate.js";

const FILLS = Number(process.env.BENCH_FILLS ?? 10_000_000);
const END = Date.UTC(2026, 10, 21) / 1000;
/** The last fills are held back and handed over as committed batches of BATCH_FILLS, as the ingest does when it follows the chain. */
const HELD_BACK_FILLS = 20_000;
const BATCH_FILLS = 100;
const FARMERS: readonly Archetype[] = ["favourite_farmer", "volume_bot", "market_maker", "wash_trader"];

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const seconds = (ms: number) => `${fmt(ms / 1000, 1)} s`;
const gc = (globalThis as { gc?: () => void }).gc;
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** Every wallet's farmer verdict by the two-sided rule in force and by the one it replaced, from the rebuild's ledger. */
async function farmerVerdicts(
  store: Store,
  derivation: Derivation,
  asOf: number,
  cfg: Config["farmer"],
): Promise<Map<string, { before: boolean; after: boolean }>> {
  const inputs = await loadWalletInputs(store, "all", asOf);
  const out = new Map<string, { before: boolean; after: boolean }>();
  for (const { address } of derivation.liveBooks()) {
    const metrics = derivation.assess(address, inputs(address), asOf)?.farmerMetrics;
    if (!metrics) continue;
    // Before: any moment both sides were held counted (no balance), and the fills settled as MINT or MERGE stood
    // where the wallet's own splits and merges stand now.
    const summary = summarizeWallet(derivation.state, derivation.keyOf(address), asOf, deriveConfig().ledger)!;
    const unbalanced = farmerMetrics(summary, { twoSidedMinBalance: 0 }, metrics.washRingVolumeShare);
    out.set(address, {
      before: checkFarmer({ ...unbalanced, splitMergeVolumeShare: unbalanced.mintMergeVolumeShare }, cfg).isFarmer,
      after: checkFarmer(metrics, cfg).isFarmer,
    });
  }
  return out;
}

async function timed<T>(label: string, run: () => Promise<T> | T): Promise<{ result: T; ms: number }> {
  gc?.();
  const started = performance.now();
  const result = await run();
  const ms = performance.now() - started;
  console.log(`${label}: ${seconds(ms)}`);
  return { result, ms };
}

const { result: world } = await timed(`generate a ${fmt(FILLS)}-fill world`, () =>
  generateWorld({
    seed: 1,
    end: END,
    fills: FILLS,
    markets: Math.max(500, Math.round(FILLS / 2_000)),
    wallets: Math.max(5_000, Math.round(FILLS / 200)),
  }),
);
console.log(
  `  ${fmt(world.fillCount)} fills, ${fmt(world.opCount)} operations, ${fmt(world.wallets.length)} wallets, ${fmt(world.markets.length)} markets`,
);

const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), "pelagic-derive-bench-"));
const config = loadConfig({ DATA_DIR: dir });
const store = await openStore({
  kind: "sqlite",
  sqlitePath: join(dir, "bench.sqlite"),
  sqliteCacheMb: config.store.sqliteCacheMb,
});
try {
  await migrateStore(store);
  const cut = world.fill(Math.max(0, world.fillCount - HELD_BACK_FILLS)).ts;
  const clock = new ManualClock(cut * 1000);
  const loaded = await timed(`load all but the last ${fmt(HELD_BACK_FILLS)} fills into SQLite`, () =>
    loadWorld(store, world, { range: { to: cut }, updatedAt: clock.now(), batchRows: 50_000 }),
  );
  console.log(
    `  ${fmt(loaded.result.fills)} fills, ${fmt(loaded.result.activity)} activity rows (${fmt(loaded.result.fills / (loaded.ms / 1000))} fills/s)`,
  );

  // Only the figures are kept (and the farmer verdicts by both two-sided rules): the rebuild's ledger is released before the Deriver builds its own.
  let verdicts = new Map<string, { before: boolean; after: boolean }>();
  const r = await timed("full rebuild", async () => {
    const rebuilt = await rebuild(store, deriveConfig(), clock);
    verdicts = await farmerVerdicts(store, rebuilt.derivation, rebuilt.asOf, config.farmer);
    return { ...rebuilt, derivation: undefined };
  }).then((t) => t.result);
  console.log(
    `  read and replay ${seconds(r.replayMs)} (${fmt(r.fills / (r.replayMs / 1000))} fills/s), statistics ${seconds(r.statsMs)}, write ${seconds(r.writeMs)}; ` +
      `${fmt(r.wallets)} wallets, ${fmt(r.positions)} positions, ${fmt(r.markets)} markets; heap ${fmt(process.memoryUsage().heapUsed / 2 ** 20)} MB`,
  );
  const stats = new Map(
    (
      await store.db
        .selectFrom("wallet_stats")
        .select(["wallet", "is_farmer", "has_skill", "is_smart", "resolved"])
        .execute()
    ).map((row) => [row.wallet, row]),
  );

  const deriver = new Deriver({ store, config, clock, logger: createLogger("error") });
  await timed("Deriver warm start (the same replay, plus rewriting every table)", () => deriver.start());
  const latencies: number[] = [];
  const sizes: number[] = [];
  await loadWorld(store, world, {
    range: { from: cut },
    updatedAt: clock.now(),
    batchRows: BATCH_FILLS,
    onBatch: async (batch) => {
      clock.set((Math.max(...batch.fills.map((f) => f.ts), clock.now()) + 1) * 1000);
      const started = performance.now();
      await deriver.onCommitted(batch);
      latencies.push(performance.now() - started);
      sizes.push(batch.fills.length);
    },
  });
  const sorted = [...latencies].sort((a, b) => a - b);
  const total = latencies.reduce((a, b) => a + b, 0);
  const fills = sizes.reduce((a, b) => a + b, 0);
  console.log(
    `incremental update, the last fills: ${fmt(latencies.length)} batches of ~${fmt(fills / Math.max(1, latencies.length))} fills: ` +
      `p50 ${fmt(percentile(sorted, 0.5), 1)} ms, p99 ${fmt(percentile(sorted, 0.99), 1)} ms per batch, ${fmt((1000 * total) / Math.max(1, fills), 0)} µs per fill ` +
      `(positions upserted and touched wallets' statistics recomputed and written)`,
  );
  await timed("refresh (rankings, market stats, wash shares due, daily points)", () => deriver.refresh());
  await timed(
    "full refresh (every wallet's statistics, as each passing hour does, and every due wash share, unbudgeted)",
    () => deriver.refresh({ full: true }),
  );
  await deriver.stop();

  // The farmer test exists to keep wallets out of Smart Money, which needs SMART_MIN_RESOLVED_MARKETS resolved
  // markets: it is scored over every wallet, and over those eligible (where a wrong verdict changes a label).
  const eligible = (w: string) => stats.get(w)!.resolved >= config.smart.minResolvedMarkets;
  const score = (
    flagged: (w: string) => boolean,
    target: (a: Archetype) => boolean,
    among: (w: string) => boolean = () => true,
  ) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const wallet of world.wallets) {
      if (!stats.has(wallet.proxyWallet) || !among(wallet.proxyWallet)) continue;
      const f = flagged(wallet.proxyWallet);
      const t = target(wallet.archetype);
      if (f && t) tp++;
      else if (f) fp++;
      else if (t) fn++;
    }
    return `precision ${fmt((100 * tp) / Math.max(1, tp + fp), 1)}%, recall ${fmt((100 * tp) / Math.max(1, tp + fn), 1)}% (${tp} of ${tp + fn} caught, ${fp} others flagged)`;
  };
  const isFarmer = (w: string) => stats.get(w)!.is_farmer === 1;
  const farmerArchetype = (a: Archetype) => FARMERS.includes(a);
  console.log(
    `farmer test vs farmer/bot/market-maker/wash archetypes, every wallet: ${score(isFarmer, farmerArchetype)}`,
  );
  console.log(
    `  among wallets with at least ${config.smart.minResolvedMarkets} resolved markets (Smart Money candidates): ${score(isFarmer, farmerArchetype, eligible)}`,
  );
  // Issue 23: the two-sided test on the wallet's own splits and merges, against the rule it replaced (the volume of
  // fills that settled as MINT or MERGE, whoever was on the other side), on the same ledger.
  for (const [rule, which] of [
    ["fills settled as MINT/MERGE and any both-sided moment (before issue 23)", "before"],
    ["own splits and merges and balanced both-sided markets (now)", "after"],
  ] as const) {
    const flagged = (w: string) => verdicts.get(w)?.[which] === true;
    console.log(`farmer test, two-sided on ${rule}: every wallet: ${score(flagged, farmerArchetype)}`);
    console.log(
      `  among wallets with at least ${config.smart.minResolvedMarkets} resolved markets: ${score(flagged, farmerArchetype, eligible)}`,
    );
  }
  console.log(
    `skill badge vs skilled traders: ${score(
      (w) => stats.get(w)!.has_skill === 1,
      (a) => a === "skilled",
    )}`,
  );
  const byArchetype = new Map<Archetype, { wallets: number; farmer: number; smart: number; skill: number }>();
  for (const wallet of world.wallets) {
    const row = stats.get(wallet.proxyWallet);
    if (!row) continue;
    const counts = byArchetype.get(wallet.archetype) ?? { wallets: 0, farmer: 0, smart: 0, skill: 0 };
    counts.wallets++;
    counts.farmer += row.is_farmer;
    counts.smart += row.is_smart;
    counts.skill += row.has_skill;
    byArchetype.set(wallet.archetype, counts);
  }
  for (const [archetype, c] of [...byArchetype].sort((a, b) => b[1].wallets - a[1].wallets)) {
    console.log(
      `  ${archetype.padEnd(18)} ${fmt(c.wallets).padStart(7)} wallets: farmer ${fmt(c.farmer).padStart(6)}, smart ${fmt(c.smart).padStart(5)}, skill ${fmt(c.skill).padStart(4)}`,
    );
  }
  console.log(`memory: rss ${fmt(process.memoryUsage().rss / 2 ** 20)} MB`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
