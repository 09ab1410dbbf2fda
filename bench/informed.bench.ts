/**
 * Issue 52, informed flow against the simulation's ground truth.
 *
 * Funding clusters: a world of `BENCH_FILLS` fills (default
 * 1,000,000; its informed layer plants insider groups, fresh losers and owners' shared accounts) served by the
 * simulated venue; the funding reader (src/ingest/funding-sync.ts) reads every traded wallet's collateral transfers
 * over the simulated chain's JSON-RPC, the Deriver's writer groups them (src/derive/funding-clusters.ts), and the
 * clusters are scored against `/truth/funding-groups`: pairwise precision, recall and F1, and the adjusted Rand index
 * (every traded wallet counted, an unclustered one as its own group). Goal: ARI or pairwise F1 at least 0.9.
 *
 * Insider alerts: the same world stored and derived as a complete ingest would (bench/support/world-store.ts, its
 * bets scored by src/derive/insider-scores.ts), the bets scoring INSIDER_MIN_SCORE or more against the planted
 * insiders' bets: precision, recall, and each decoy kind's false-positive rate. Goal: precision and recall at least
 * 0.9 at the default threshold.
 *
 * Scorecard: the world's last `BENCH_REPLAY_DAYS` (20) replayed as the service lives them
 * (src/derive/testing/signal-replay.ts: batches through the Deriver, a full refresh every `BENCH_REPLAY_STEP_HOURS`
 * (12), each recording the signals of the moment), then each kind's grades on /api/v2/scorecard's read against the
 * same grades computed from the simulation's hidden outcomes and fills (src/sim/world/testing/truth-grades.ts). Goal:
 * equal.
 *
 *   BENCH_FILLS=1000000 npm run bench informed
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/index.js";
import { FundingClusterWriter } from "../src/derive/funding-clusters.js";
import { BatchWriter } from "../src/ingest/batch-writer.js";
import { FundingSync, fundingSyncOptions } from "../src/ingest/funding-sync.js";
import { runUntilCaughtUp } from "../src/ingest/runner.js";
import { ManualClock } from "../src/platform/clock.js";
import { createLogger } from "../src/platform/logger.js";
import { startSimVenue } from "../src/sim/servers/index.js";
import { openStore } from "../src/store/database.js";
import { migrateStore } from "../src/store/migrate.js";
import { recordWalletSightings } from "../src/store/wallets.js";
import { ChainClient } from "../src/venue/chain/client.js";
import { VenueHttpClient } from "../src/venue/http.js";
import { benchWorldOptions, prepareWorldStore } from "./support/world-store.js";
import { ScorecardReads } from "../src/analytics/informed/scorecard-reads.js";
import { gradeRecordedFromTruth, replayWithRefreshes } from "../src/derive/testing/signal-replay.js";

const fills = Number(process.env.BENCH_FILLS ?? 1_000_000);
const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);

/** Pairwise precision, recall, F1 and the adjusted Rand index of two labelings of the same items. */
export function clusteringScores(found: ReadonlyMap<string, string>, truth: ReadonlyMap<string, string>) {
  const pairs2 = (n: number) => (n * (n - 1)) / 2;
  const sizes = (labels: ReadonlyMap<string, string>) => {
    const count = new Map<string, number>();
    for (const label of labels.values()) count.set(label, (count.get(label) ?? 0) + 1);
    return [...count.values()];
  };
  const joint = new Map<string, number>();
  for (const [item, label] of found) {
    const key = `${label}|${truth.get(item)}`;
    joint.set(key, (joint.get(key) ?? 0) + 1);
  }
  const both = [...joint.values()].reduce((s, n) => s + pairs2(n), 0);
  const inFound = sizes(found).reduce((s, n) => s + pairs2(n), 0);
  const inTruth = sizes(truth).reduce((s, n) => s + pairs2(n), 0);
  const all = pairs2(found.size);
  const expected = (inFound * inTruth) / all;
  const precision = inFound ? both / inFound : 1;
  const recall = inTruth ? both / inTruth : 1;
  return {
    precision,
    recall,
    f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    ari: (both - expected) / ((inFound + inTruth) / 2 - expected),
    truthPairs: inTruth,
    foundPairs: inFound,
  };
}

const t0 = performance.now();
const venue = await startSimVenue({ worldOptions: benchWorldOptions(fills) });
const world = venue.world;
console.log(
  `world: ${world.fillCount.toLocaleString("en-US")} fills, ${world.wallets.length} wallets (${seconds(t0)} s)`,
);
const dir = mkdtempSync(join(tmpdir(), "pelagic-funding-bench-"));
const config = loadConfig({ DATA_DIR: dir, VENUE_RPC_URL: venue.urls.rpc, INGEST_CONFIRMATIONS: "0" });
const store = await openStore({ kind: "sqlite", sqlitePath: join(dir, "pelagic.sqlite"), sqliteCacheMb: 64 });
try {
  await migrateStore(store);
  const traded = world.wallets.filter((w) => world.fillsOfWallet(w.index).length > 0);
  await store.transaction((tx) =>
    recordWalletSightings(
      tx,
      traded.map((w) => ({ address: w.proxyWallet, ts: w.createdAt })),
      world.end,
    ),
  );
  const clock = new ManualClock(world.end * 1000);
  const logger = createLogger("silent");
  const chain = new ChainClient(new VenueHttpClient({ name: "rpc", baseUrl: venue.urls.rpc, timeoutMs: 120_000 }));
  const ctx = { store, writer: new BatchWriter(store, clock, logger), clock, logger, progress: () => undefined };
  const reader = new FundingSync(ctx, chain, fundingSyncOptions(config), config.funding.extraHubs);
  const read = performance.now();
  await runUntilCaughtUp(
    reader,
    { store, clock, logger, sleep: async () => undefined, retryBaseMs: 10, retryMaxMs: 100 },
    new AbortController().signal,
  );
  const counts = await store.db
    .selectFrom("funding_transfers")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const addresses = await store.db
    .selectFrom("funding_addresses")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  console.log(
    `funding read: ${traded.length} wallets, ${Number(addresses.n)} addresses traced, ${Number(counts.n)} transfers in ${seconds(read)} s`,
  );
  const grouping = performance.now();
  await new FundingClusterWriter(store, config.funding).refresh();
  console.log(`clusters written in ${seconds(grouping)} s`);

  const clusters = await store.db.selectFrom("funding_clusters").select(["wallet", "cluster_id"]).execute();
  const truth = (await (await fetch(venue.truthUrl.replace(/\/archetypes$/, "/funding-groups"))).json()) as {
    groups: { id: string; kind: string; members: { wallet: string }[] }[];
  };
  const seen = new Set(traded.map((w) => w.proxyWallet));
  const truthOf = new Map<string, string>();
  for (const g of truth.groups) for (const m of g.members) if (seen.has(m.wallet)) truthOf.set(m.wallet, g.id);
  const foundOf = new Map(clusters.map((c) => [c.wallet, c.cluster_id]));
  const label = (map: Map<string, string>) => new Map([...seen].map((w) => [w, map.get(w) ?? `alone:${w}`]));
  const score = clusteringScores(label(foundOf), label(truthOf));
  // A planted group as Pelagic can see it: its members that traded.
  const tradedMembers = (g: (typeof truth.groups)[number]) => [
    ...new Set(g.members.map((m) => m.wallet).filter((w) => seen.has(w))),
  ];
  const groups = truth.groups.filter((g) => tradedMembers(g).length > 1).length;
  console.log(
    `clusters: ${new Set(foundOf.values()).size} found, ${groups} planted groups with 2+ traded wallets; pairs ${score.foundPairs} found, ${score.truthPairs} planted`,
  );
  const f = (n: number) => n.toFixed(3);
  console.log(
    `pairwise precision ${f(score.precision)}, recall ${f(score.recall)}, F1 ${f(score.f1)}; adjusted Rand index ${f(score.ari)} (goal: at least 0.9)`,
  );
  for (const kind of [...new Set(truth.groups.map((g) => g.kind))]) {
    const inKind = truth.groups.filter((g) => g.kind === kind && tradedMembers(g).length > 1);
    const whole = inKind.filter((g) => {
      const members = tradedMembers(g);
      return foundOf.has(members[0]!) && new Set(members.map((w) => foundOf.get(w))).size === 1;
    }).length;
    console.log(`  ${kind}: ${whole} of ${inKind.length} groups (2+ traded wallets) recovered whole`);
  }
} finally {
  await store.close();
  await venue.close();
  rmSync(dir, { recursive: true, force: true });
}

// Insider alerts on the stored, derived world.
const prepared = await prepareWorldStore(fills);
const derived = await openStore({ kind: "sqlite", sqlitePath: prepared.sqlitePath, sqliteCacheMb: 256 });
try {
  const settings = loadConfig({}).insider;
  const scored = await derived.db.selectFrom("insider_scores").select(["wallet", "condition_id", "score"]).execute();
  const flagged = new Set(
    scored.filter((r) => r.score >= settings.minScore).map((r) => `${r.wallet}|${r.condition_id}`),
  );
  const planted = new Map<string, Set<string>>();
  world.informed.bets.forEach((b, i) => {
    if (world.informed.spentMicro[i]! <= 0) return;
    const key = `${world.wallets[b.wallet]!.proxyWallet}|${world.markets[b.market]!.conditionId}`;
    planted.set(b.kind, (planted.get(b.kind) ?? new Set()).add(key));
  });
  const insiders = planted.get("insider") ?? new Set<string>();
  const hits = [...insiders].filter((k) => flagged.has(k)).length;
  const f = (n: number) => n.toFixed(3);
  console.log(
    `insider alerts at score ${settings.minScore}: ${flagged.size} flagged of ${scored.length} scored bets; ${hits} of ${insiders.size} planted insider bets`,
  );
  console.log(
    `precision ${f(flagged.size ? hits / flagged.size : 1)}, recall ${f(insiders.size ? hits / insiders.size : 1)} (goal: each at least 0.9)`,
  );
  const scoreOf = new Map(scored.map((r) => [`${r.wallet}|${r.condition_id}`, Number(r.score)]));
  const insiderScores = [...insiders].map((k) => scoreOf.get(k) ?? 0);
  const others = scored.filter((r) => !insiders.has(`${r.wallet}|${r.condition_id}`)).map((r) => Number(r.score));
  console.log(
    `margin: lowest planted insider score ${Math.min(...insiderScores).toFixed(2)}, highest other bet's ${Math.max(...others).toFixed(2)}`,
  );
  for (const [kind, bets] of planted) {
    if (kind === "insider") continue;
    const wrong = [...bets].filter((k) => flagged.has(k)).length;
    console.log(
      `  decoy ${kind}: ${wrong} of ${bets.size} flagged (false-positive rate ${f(bets.size ? wrong / bets.size : 0)})`,
    );
  }
} finally {
  await derived.close();
}

// The scorecard replayed against the ground truth.
const replayDays = Number(process.env.BENCH_REPLAY_DAYS ?? 20);
const stepHours = Number(process.env.BENCH_REPLAY_STEP_HOURS ?? 12);
const replayDir = mkdtempSync(join(tmpdir(), "pelagic-scorecard-bench-"));
const replayed = await openStore({ kind: "sqlite", sqlitePath: join(replayDir, "pelagic.sqlite"), sqliteCacheMb: 256 });
try {
  await migrateStore(replayed);
  const started = performance.now();
  const { refreshes } = await replayWithRefreshes(replayed, world, loadConfig({ DATA_DIR: replayDir }), {
    from: world.end - replayDays * 86_400,
    stepSeconds: stepHours * 3_600,
  });
  console.log(`scorecard replay: the last ${replayDays} days, ${refreshes} refreshes, in ${seconds(started)} s`);
  const truth = await gradeRecordedFromTruth(replayed, world);
  const { rows } = await new ScorecardReads(replayed, () => world.end * 1000).scorecard();
  const pct = (n: number | null) => (n === null ? "-" : `${(100 * n).toFixed(2)}%`);
  const ret = (n: number | null) => (n === null ? "-" : n.toFixed(4));
  let equal = true;
  for (const g of truth) {
    const row = rows.find((r) => r.kind === g.kind && r.month === "all")!;
    const hitRate = g.graded ? g.hits / g.graded : null;
    const meanReturn = g.followed ? g.returnSum / g.followed : null;
    const same =
      row.signals === g.signals &&
      row.graded === g.graded &&
      row.hits === g.hits &&
      row.followed === g.followed &&
      Math.abs((row.mean_return ?? 0) - (meanReturn ?? 0)) < 1e-9;
    equal &&= same;
    console.log(
      `  ${g.kind}: ${g.signals} signals, ${g.graded} graded; hit rate ${pct(row.hit_rate)} (truth ${pct(hitRate)}), mean follow return ${ret(row.mean_return)} (truth ${ret(meanReturn)}) ${same ? "equal" : "DIFFERENT"}`,
    );
  }
  console.log(`scorecard grades equal to the ground truth's replay: ${equal ? "yes" : "NO"}`);
} finally {
  await replayed.close();
  rmSync(replayDir, { recursive: true, force: true });
}
