/**
 * Issue 52, funding clusters against the simulation's ground truth: a world of `BENCH_FILLS` fills (default
 * 1,000,000; its informed layer plants insider groups, fresh losers and owners' shared accounts) served by the
 * simulated venue; the funding reader (src/ingest/funding-sync.ts) reads every traded wallet's collateral transfers
 * over the simulated chain's JSON-RPC, the Deriver's writer groups them (src/derive/funding-clusters.ts), and the
 * clusters are scored against `/truth/funding-groups`: pairwise precision, recall and F1, and the adjusted Rand index
 * (every traded wallet counted, an unclustered one as its own group). Goal: ARI or pairwise F1 at least 0.9.
 *
 *   BENCH_FILLS=1000000 npm run bench funding
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
import { benchWorldOptions } from "./support/world-store.js";

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
  // A wash ring may name a wallet twice: a planted group is its distinct traded wallets.
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
