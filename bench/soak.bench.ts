/**
 * The soak: a `pelagic serve` process in its default role (API and ingest in one process), ingesting a simulated
 * venue that keeps trading, under BENCH_SOAK_SECONDS (default 600) of mixed hostile traffic from this process
 * (bench/support/hostile-clients.ts: resets at every stage of a request and of an upgrade, readers that stop
 * reading, a header a byte at a time, random bodies and URLs, with ordinary reads in between). It prints:
 * - whether the service stayed up, and what it answered, per kind of traffic (any 5xx is listed);
 * - its resident memory: at listen, at the baseline (the first sync done and every kind of traffic under way for
 *   BENCH_SOAK_WARMUP_SECONDS), the peak, and at the end, against the baseline (goal: at most 10% above it);
 * - whether any fill was lost or duplicated: once the traffic stops, the venue's clock is stopped, the service
 *   catches up to the resting head and stops, and its store's checksum is compared with the venue's ground truth.
 *
 * BENCH_SOAK_FILLS (default 100,000) sizes the simulated history; BENCH_SOAK_WORKERS (default 3) the
 * conversations of each kind at once; BENCH_SOAK_LIVE_RATE (default 2) the venue's live matches per second.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { createKey } from "../src/accounts/keys.js";
import { SOURCES } from "../src/ingest/sources.js";
import { truthChecksum } from "../src/ingest/testing/sim-truth.js";
import { startSimVenue, truthFills, venueEnvironment } from "../src/sim/servers/index.js";
import { blockAt, blockTimestamp, generateWorld } from "../src/sim/world/index.js";
import { ChecksumAccumulator, activityChecksumLine, storeChecksum } from "../src/store/checksum.js";
import { openStore } from "../src/store/database.js";
import { migrateStore } from "../src/store/migrate.js";
import { spawnPelagic } from "../test/support/cli.js";
import { ATTACKS, type Target } from "./support/hostile-clients.js";

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const WARMUP_SECONDS = Number(process.env.BENCH_SOAK_WARMUP_SECONDS ?? 30);
const FILLS = Number(process.env.BENCH_SOAK_FILLS ?? 100_000);
const WORKERS = Number(process.env.BENCH_SOAK_WORKERS ?? 3);
const LIVE_RATE = Number(process.env.BENCH_SOAK_LIVE_RATE ?? 2);
const CONFIRMATIONS = 10;
const DAY = 86_400;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) * 1024 : Number.NaN;
}

/** A small seeded generator, so that a run's traffic can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const dataDir = mkdtempSync(join(tmpdir(), "pelagic-soak-"));
const sqlitePath = join(dataDir, "pelagic.sqlite");
const todayStart = Math.floor(Date.now() / 1000 / DAY) * DAY;
const world = generateWorld({ seed: 45, end: todayStart, days: 30, fills: FILLS, markets: 300, wallets: 3_000 });
let frozenMs: number | null = null;
const venue = await startSimVenue({
  world,
  live: { matchesPerSecond: LIVE_RATE, from: Math.floor(Date.now() / 1000) },
  clockMs: () => frozenMs ?? Date.now(),
});
console.log(
  `world: ${FILLS.toLocaleString("en-US")} fills over 30 days, live ${LIVE_RATE} matches/s; soak ${SECONDS} s, ${WORKERS} conversations of each kind at once`,
);

// Keys made in the service's store before it starts: a Premium key, a Free key, and a Premium key allowed one request a minute.
const setup = await openStore({ kind: "sqlite", sqlitePath });
await migrateStore(setup);
const now = Math.floor(Date.now() / 1000);
const premium = await createKey(setup.db, { account: "soak-premium", plan: "premium", now });
const free = await createKey(setup.db, { account: "soak-free", plan: "free", now });
const spent = await createKey(setup.db, { account: "soak-spent", plan: "premium", rateLimitPerMinute: 1, now });
await setup.close();

const service = spawnPelagic(["serve"], {
  ...venueEnvironment(venue.urls),
  DATA_DIR: dataDir,
  DATABASE_URL: "",
  REDIS_URL: "",
  PORT: "0",
  LOG_LEVEL: "info",
  INGEST_START: new Date((world.end - 30 * DAY) * 1000).toISOString().slice(0, 10),
  INGEST_BLOCK_SPAN: "100000",
  INGEST_CONFIRMATIONS: String(CONFIRMATIONS),
  VENUE_RPC_REQUESTS_PER_SECOND: "1000",
  RATE_FREE_PER_MINUTE: "10000000",
  RATE_PREMIUM_PER_MINUTE: "10000000",
});
const serving = await service.waitFor((line) => line.msg === "pelagic serving");
const pid = service.child.pid!;
const url = serving.url as string;
const rss = { listen: rssOf(pid), baseline: Number.NaN, peak: 0, end: Number.NaN };
let died: string | null = null;
void service.exited.then((code) => {
  if (frozenMs === null) died = `exited with code ${code} during the soak`;
});

const target: Target = {
  port: Number(new URL(url).port),
  premiumKey: premium.key,
  freeKey: free.key,
  spentKey: spent.key,
  wallet: truthFills(world).next().value!.wallet,
};
const tallies = new Map<string, Map<string, number>>();
const count = (kind: string, label: string) => {
  const tally = tallies.get(kind) ?? new Map<string, number>();
  tally.set(label, (tally.get(label) ?? 0) + 1);
  tallies.set(kind, tally);
};

const started = Date.now();
const deadline = started + SECONDS * 1000;
const workers = Object.entries(ATTACKS).flatMap(([kind, attack]) =>
  Array.from({ length: WORKERS }, async (_, worker) => {
    const random = seeded(kind.length * 1_000 + worker);
    while (Date.now() < deadline && died === null) {
      count(kind, await attack(target, random));
      await sleep(5);
    }
  }),
);

let readyAt: number | null = null;
const sampler = (async () => {
  while (Date.now() < deadline && died === null) {
    await sleep(5_000);
    if (died !== null) break;
    const current = rssOf(pid);
    rss.peak = Math.max(rss.peak, current);
    if (readyAt === null) {
      const health = (await fetch(`${url}/api/v1/health`).then(
        (r) => r.json(),
        () => null,
      )) as { ready?: boolean } | null;
      if (health?.ready) readyAt = Date.now();
    } else if (Number.isNaN(rss.baseline) && Date.now() - readyAt >= WARMUP_SECONDS * 1000) rss.baseline = current;
  }
})();
await Promise.all([...workers, sampler]);
await sleep(3_000);
if (died === null) rss.end = rssOf(pid);

// The venue's clock stops; the service catches up to the resting head, then stops, and its store is checked.
frozenMs = Date.now();
const head = blockAt(Math.floor(frozenMs / 1000));
const resting = head - CONFIRMATIONS;
const reader = new SqliteDatabase(sqlitePath, { readonly: true });
const cursorBlock = () =>
  Number(
    /^block:(\d+)$/.exec(
      (
        reader.prepare("select cursor from ingest_checkpoints where source = ?").get(SOURCES.chain) as
          | { cursor: string }
          | undefined
      )?.cursor ?? "",
    )?.[1] ?? Number.NaN,
  );
for (const until = Date.now() + 300_000; died === null && cursorBlock() !== resting && Date.now() < until; )
  await sleep(1_000);
const caughtUp = cursorBlock() === resting;
reader.close();
service.child.kill("SIGTERM");
const exitCode = await service.exited;
await venue.close();

// The chain's activity is the ground truth's; the traffic's wallet reads also synced those wallets' venue activity.
const store = await openStore({ kind: "sqlite", sqlitePath, sqliteBackgroundCheckpoints: false });
const { fills, resolutions } = await storeChecksum(store.db);
const chainActivity = new ChecksumAccumulator();
const activityRows = await store.db.selectFrom("wallet_activity").selectAll().execute();
for (const row of activityRows) if (row.source === "chain") chainActivity.add(activityChecksumLine(row));
await store.close();
const stored = { fills, activity: chainActivity.result(), resolutions };
const truth = truthChecksum(world, { to: blockTimestamp(resting + 1) });

console.log(
  `\nservice: ${died ?? "up for the whole soak"}; ready after ${readyAt ? ((readyAt - started) / 1000).toFixed(0) : "—"} s; stopped with code ${exitCode}`,
);
const fiveXx: string[] = [];
for (const [kind, tally] of tallies) {
  const total = [...tally.values()].reduce((a, b) => a + b, 0);
  const labels = [...tally.entries()].sort((a, b) => b[1] - a[1]);
  for (const [label, n] of labels) if (/^5\d\d /.test(label)) fiveXx.push(`${kind}: ${label} ×${n}`);
  console.log(
    `${kind.padEnd(15)} ${total.toLocaleString("en-US").padStart(8)} conversations: ${labels
      .slice(0, 8)
      .map(([label, n]) => `${label} ${n}`)
      .join(", ")}`,
  );
}
console.log(`5xx answers: ${fiveXx.length === 0 ? "none" : fiveXx.join("; ")}`);
const drift = (rss.end - rss.baseline) / rss.baseline;
console.log(
  `RSS: at listen ${mb(rss.listen)}, baseline ${mb(rss.baseline)}, peak ${mb(rss.peak)}, end ${mb(rss.end)} (end vs baseline ${drift >= 0 ? "+" : ""}${(drift * 100).toFixed(1)}%; goal: no growth beyond 10%: ${drift <= 0.1 ? "met" : "MISSED"})`,
);
const same = JSON.stringify(stored) === JSON.stringify(truth);
console.log(
  `fills: ${stored.fills.count.toLocaleString("en-US")} stored, ${truth.fills.count.toLocaleString("en-US")} in the venue's ground truth to block ${resting} (caught up: ${caughtUp}); fills, chain activity (${stored.activity.count.toLocaleString("en-US")} rows; ${(activityRows.length - stored.activity.count).toLocaleString("en-US")} more from wallet syncs) and resolutions ${same ? "equal the ground truth (nothing lost or duplicated)" : `DIFFER: stored ${JSON.stringify(stored)} vs ${JSON.stringify(truth)}`}`,
);
rmSync(dataDir, { recursive: true, force: true });
process.exit(died === null && same && fiveXx.length === 0 ? 0 : 1);
