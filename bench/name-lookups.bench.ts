/**
 * Name lookups at 1,000,000 wallets (issue 31), before and after 0013_name_lookups:
 *   node --import tsx bench/name-lookups.bench.ts [--wallets 1000000] [--pg postgres://... | --pg none]
 *   (npm run bench name-lookups; PostgreSQL too when TEST_DATABASE_URL is set or --pg names one)
 *
 * Builds a store migrated up to 0011 holding N wallets (names and pseudonyms drawn as the simulated venue draws
 * them, 35% with a username; 90% with statistics), and times: wallet search as it read before
 * (src/analytics/wallet/wallet-search-scan.ts: every wallet tested, the 500 most profitable ranked), the username lookup
 * (`findWalletByName`, which falls back to `lower(name) = ?`), the 50-name batch overview
 * (POST /api/public/v1/wallets/overview) in-process, and batches of sightings as ingest writes them. Then applies
 * 0013 (timed: what an upgrade pays) and times the same again, comparing every search's answer with the old one and
 * with the full scan ranking every match. Each figure: the median of several runs after a first one; on SQLite
 * also the CPU time of this process (the event loop held), which load on a shared machine moves less.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { isDeepStrictEqual } from "node:util";
import { sql } from "kysely";
import { createKey } from "../src/accounts/keys.js";
import { searchWallets } from "../src/analytics/wallet/wallet-search.js";
import { SCAN_CANDIDATES, searchWalletsByScan } from "../src/analytics/wallet/wallet-search-scan.js";
import { findWalletByName } from "../src/analytics/wallet/wallet-overview.js";
import { buildApp } from "../src/api/app.js";
import { loadConfig } from "../src/config/index.js";
import { createPlatform } from "../src/platform/index.js";
import { createLogger } from "../src/platform/logger.js";
import { handle, pseudonym } from "../src/sim/world/names.js";
import { Rng } from "../src/sim/world/random.js";
import { openStore, type Store } from "../src/store/database.js";
import { migrations } from "../src/store/migrations/index.js";
import { recordWalletSightings, type WalletSighting } from "../src/store/wallets.js";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const WALLETS = Number(args.get("wallets") ?? 1_000_000);
const PG_URL = args.get("pg") ?? process.env.TEST_DATABASE_URL ?? "none";
const NEW_MIGRATION = "0013_name_lookups";
const BATCH_NAMES = 50;
const config = loadConfig({ LOG_LEVEL: "silent", RATE_PREMIUM_PER_MINUTE: "1000000" });

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (n: number) => `${fmt(n, n < 10 ? 2 : n < 100 ? 1 : 0)} ms`;

/** Wall time, and the CPU time of this process (on SQLite, the time the event loop was held; steadier under load). */
interface Timing {
  wall: number;
  cpu: number;
}

async function timed(fn: () => Promise<unknown>): Promise<Timing> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

/** The run of median wall time, after a first one. */
async function median(runs: number, fn: () => Promise<unknown>): Promise<Timing> {
  await fn();
  const times: Timing[] = [];
  for (let i = 0; i < runs; i++) times.push(await timed(fn));
  return times.sort((a, b) => a.wall - b.wall)[Math.floor(runs / 2)]!;
}

const hexAddress = (rng: Rng) =>
  `0x${Array.from({ length: 5 }, () => rng.u32().toString(16).padStart(8, "0")).join("")}`;
/** A wallet's profile as the simulated venue draws it: a username for 35% (made unique by `n`), a pseudonym for all. */
const profile = (rng: Rng, n: number) => ({
  name: rng.chance(0.35) ? `${handle(rng)}${n}` : null,
  pseudonym: pseudonym(rng),
});

/** Wallets as the simulated venue names them, with statistics for most; returns the usernames drawn. */
async function fill(store: Store): Promise<string[]> {
  const rng = new Rng(31, 1, 2, 3);
  const names: string[] = [];
  for (let done = 0; done < WALLETS; ) {
    const sightings: WalletSighting[] = [];
    const stats: { wallet: string; total_pnl: number }[] = [];
    for (; sightings.length < 10_000 && done < WALLETS; done++) {
      const address = hexAddress(rng);
      const drawn = profile(rng, done);
      if (drawn.name) names.push(drawn.name);
      sightings.push({ address, ts: 1_700_000_000 + done, ...drawn });
      if (rng.chance(0.9))
        stats.push({ wallet: address, total_pnl: Math.round((rng.u32() / 2 ** 32 - 0.5) * 2e6) / 100 });
    }
    await store.transaction(async (tx) => {
      await recordWalletSightings(tx, sightings, 1);
      const rows = stats.map((s) => sql`(${s.wallet}, 1, ${s.total_pnl})`);
      await sql`insert into wallet_stats (wallet, computed_at, total_pnl) values ${sql.join(rows)}`.execute(tx.db);
    });
  }
  return names;
}

async function openBenchStore(kind: "sqlite" | "postgres"): Promise<{ store: Store; dispose(): Promise<void> }> {
  if (kind === "postgres") {
    const schema = `name_bench_${Date.now().toString(36)}`;
    const store = await openStore({ kind, databaseUrl: PG_URL, schema, poolSize: 4 });
    return {
      store,
      dispose: async () => (await sql`drop schema ${sql.id(schema)} cascade`.execute(store.db), store.close()),
    };
  }
  const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), "pelagic-names-bench-"));
  const store = await openStore({
    kind,
    sqlitePath: join(dir, "bench.sqlite"),
    sqliteCacheMb: config.store.sqliteCacheMb,
  });
  return { store, dispose: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
}

/** The 50-name batch overview through the app (a fresh one each time: no cached lookups). */
async function batchOverview(store: Store, names: string[]): Promise<Timing> {
  const platform = await createPlatform({ redisPrefix: "", cacheMaxEntries: 10_000, cacheStaleSeconds: 60 });
  const app = await buildApp({ config, store, platform, expectedSources: [], startedAt: 0 }, createLogger("silent"));
  await app.ready();
  const { key } = await createKey(store.db, { account: `bench-${performance.now()}`, plan: "premium", now: 0 });
  let status = 0;
  const took = await timed(async () => {
    status = (
      await app.inject({
        method: "POST",
        url: "/api/public/v1/wallets/overview",
        headers: { "x-api-key": key },
        payload: { wallets: names },
      })
    ).statusCode;
  });
  if (status !== 200) throw new Error(`batch overview answered ${status}`);
  await app.close();
  await platform.close();
  return took;
}

const WRITTEN = 10_000;

/**
 * What ingest pays per batch of sightings (recordWalletSightings, one transaction, rolled back; the median of three):
 * new wallets with profiles, stored wallets seen again with the same names (most sightings), stored wallets renamed.
 */
async function timeWrites(store: Store): Promise<Map<string, Timing>> {
  const stored = (
    await store.db
      .selectFrom("wallets")
      .select(["address", "name", "pseudonym"])
      .orderBy("address")
      .limit(WRITTEN)
      .execute()
  ).map((w) => ({ ...w, ts: 1 }));
  const rng = new Rng(31, 9, 9, 9);
  const batches: [string, WalletSighting[]][] = [
    [
      "new wallets with a profile",
      Array.from({ length: WRITTEN }, (_, i) => ({ address: hexAddress(rng), ts: 1, ...profile(rng, WALLETS + i) })),
    ],
    ["stored wallets, same names", stored],
    ["stored wallets, renamed", stored.map((w, i) => ({ ...w, ...profile(rng, 2 * WALLETS + i) }))],
  ];
  const times = new Map<string, Timing>();
  for (const [label, sightings] of batches) {
    const runs: Timing[] = [];
    for (let run = 0; run < 3; run++) {
      await store
        .transaction(async (tx) => {
          runs.push(await timed(() => recordWalletSightings(tx, sightings, 2)));
          throw new RolledBack();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        });
    }
    times.set(label, runs.sort((a, b) => a.wall - b.wall)[1]!);
  }
  return times;
}

class RolledBack extends Error {}

interface Probe {
  label: string;
  q: string;
}

async function measure(kind: "sqlite" | "postgres"): Promise<void> {
  console.log(`\n--- ${kind}: ${fmt(WALLETS)} wallets ---`);
  const { store, dispose } = await openBenchStore(kind);
  try {
    for (const [name, migration] of Object.entries(migrations))
      if (name !== NEW_MIGRATION) await migration.up(store.db as never, kind);
    // Today's write path asks SQLite's queue of renamed wallets: an empty one (no trigger fills it) until the migration.
    if (kind === "sqlite")
      await sql`create table wallet_name_changes (wallet_rowid integer primary key)`.execute(store.db);
    let started = performance.now();
    const names = await fill(store);
    // What autovacuum would have done by the time the store serves: the planner's statistics of the tables.
    if (kind === "postgres")
      for (const table of ["wallets", "wallet_stats"]) await sql`analyze ${sql.table(table)}`.execute(store.db);
    console.log(`built in ${fmt((performance.now() - started) / 1000, 1)} s (${fmt(names.length)} usernames)`);
    const someone = names[Math.floor(names.length / 3)]!;
    const anAddress = (
      await store.db
        .selectFrom("wallets")
        .select("address")
        .orderBy("address")
        .offset(WALLETS >> 1)
        .limit(1)
        .executeTakeFirstOrThrow()
    ).address;
    const searches: Probe[] = [
      { label: "a username, whole", q: someone },
      { label: "a username's part", q: someone.slice(1, 6) },
      { label: "a handle word (about 1%)", q: "whale" },
      { label: "a pseudonym word (about 2%)", q: "heron" },
      { label: "a pseudonym, whole", q: "brisk-heron" },
      { label: "one letter", q: "a" },
      { label: "two letters, common", q: "er" },
      { label: "two letters, none", q: "qz" },
      { label: "no match", q: "nosuchtrader" },
      { label: "0x", q: "0x" },
      { label: "0x and 4 digits", q: anAddress.slice(0, 6) },
      { label: "an address", q: anAddress },
    ];
    const lookups: Probe[] = [
      { label: "username, exact case", q: someone },
      { label: "username, other case", q: someone.toUpperCase() },
      { label: "unknown name (every query)", q: "no-such-trader" },
    ];
    const batch = [
      ...Array.from({ length: BATCH_NAMES - 10 }, (_, i) => names[i * 97]!.toUpperCase()),
      ...Array.from({ length: 10 }, (_, i) => `unknown-trader-${i}`),
    ];

    const before = new Map<string, { took: Timing; answer: unknown; contract: unknown }>();
    for (const s of searches) {
      let answer: unknown;
      const took = await median(
        2,
        async () => (answer = await searchWalletsByScan(store, s.q, config.insights, SCAN_CANDIDATES)),
      );
      before.set(s.q, { took, answer, contract: await searchWalletsByScan(store, s.q, config.insights, Infinity) });
    }
    const lookupBefore = new Map<string, Timing>();
    for (const l of lookups) lookupBefore.set(l.q, await median(3, () => findWalletByName(store, l.q)));
    const batchBefore = await batchOverview(store, batch);
    const writesBefore = await timeWrites(store);

    started = performance.now();
    if (kind === "sqlite") await sql`drop table wallet_name_changes`.execute(store.db);
    await migrations[NEW_MIGRATION]!.up(store.db as never, kind);
    console.log(
      `migration ${NEW_MIGRATION} (indexes built over the stored wallets): ${fmt((performance.now() - started) / 1000, 1)} s`,
    );

    // SQLite: wall time (and this process's CPU time, the event loop held); PostgreSQL: wall time.
    const shown = (t: Timing) =>
      (kind === "sqlite" ? `${ms(t.wall)} (${fmt(t.cpu, t.cpu < 10 ? 2 : 0)})` : ms(t.wall)).padStart(18);
    const row = (label: string, was: Timing, now: Timing, rest = "") =>
      console.log(`  ${label.padEnd(52)} ${shown(was)} ${shown(now)}${rest}`);
    console.log(
      `search (GET /api/v2/wallet-search), per search:${" ".repeat(21)}before              after   as before   every match ranked`,
    );
    let asContract = true;
    for (const s of searches) {
      let answer: unknown;
      const after = await median(5, async () => (answer = await searchWallets(store, s.q, config.insights)));
      const old = before.get(s.q)!;
      asContract &&= isDeepStrictEqual(answer, old.contract);
      const yes = (expected: unknown) => (isDeepStrictEqual(answer, expected) ? "yes" : "no");
      row(
        `${s.label} (${s.q.length > 16 ? `${s.q.slice(0, 14)}..` : s.q})`,
        old.took,
        after,
        `   ${yes(old.answer).padEnd(11)} ${yes(old.contract)}`,
      );
    }
    console.log("username lookup (findWalletByName), per lookup:");
    for (const l of lookups) row(l.label, lookupBefore.get(l.q)!, await median(5, () => findWalletByName(store, l.q)));
    console.log(`batch overview (POST /api/public/v1/wallets/overview):`);
    row(`${BATCH_NAMES} names (40 in another case, 10 unknown)`, batchBefore, await batchOverview(store, batch));
    console.log(`recording ${fmt(WRITTEN)} wallet sightings (one transaction):`);
    for (const [label, after] of await timeWrites(store)) row(label, writesBefore.get(label)!, after);
    console.log(
      asContract
        ? "every search answered as the full scan ranking every match"
        : "SOME SEARCHES ANSWERED OTHERWISE THAN THE FULL SCAN",
    );
    await printSizes(store);
  } finally {
    await dispose();
  }
}

async function printSizes(store: Store): Promise<void> {
  const rows =
    store.kind === "sqlite"
      ? (
          await sql<{
            name: string;
            mb: number;
          }>`select case when name like 'wallet_name_grams%' then 'wallet_name_grams (FTS5)' else name end as name, sum(pgsize) / 1e6 as mb from dbstat
          where name like 'wallet_name_grams%' or name in ('wallets_lower_name', 'wallets_lower_pseudonym', 'wallet_stats_pnl_order', 'wallets') group by 1`.execute(
            store.db,
          )
        ).rows
      : (
          await sql<{
            name: string;
            mb: number;
          }>`select relname as name, pg_relation_size(oid) / 1e6 as mb from pg_class where relnamespace = current_schema()::regnamespace and relname in ('wallet_names', 'wallet_names_pkey', 'wallet_names_grams', 'wallets_lower_name', 'wallets_lower_pseudonym', 'wallet_stats_pnl_order', 'wallets')`.execute(
            store.db,
          )
        ).rows;
  console.log(`sizes: ${rows.map((r) => `${r.name} ${fmt(Number(r.mb), 1)} MB`).join(", ")}`);
}

await measure("sqlite");
if (PG_URL !== "none") await measure("postgres");
