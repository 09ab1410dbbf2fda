/**
 * Wallet search through the indexes (issue 31), on both stores: every answer equals the full scan that ranks every
 * match (src/analytics/wallet/wallet-search-scan.ts), whichever way the indexes are read (all of them, the walk by P&L,
 * the walk given up); the old 500-candidate scan gives the same answers wherever its cap does not bind; and no
 * query of a search or a name lookup reads a whole table.
 */
import { CompiledQuery, sql, type KyselyPlugin, type QueryId, type RootOperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../../test/support/backends.js";
import type { Store } from "../../store/database.js";
import { recordWalletSightings, type WalletSighting } from "../../store/wallets.js";
import { findWalletByName } from "./wallet-overview.js";
import { searchWallets, type WalletSearchSettings } from "./wallet-search.js";
import { SCAN_CANDIDATES, searchWalletsByScan } from "./wallet-search-scan.js";

const NAMES = [
  "whale123",
  "WhaleWatcher",
  "the_whale",
  "BLUEWHALE",
  "100%_sure",
  "back\\slash",
  "ÉCOLE",
  "Éé",
  "école",
  "Zoë",
  "日本語トレーダー",
  "🐋whale",
  "0xdeadbeef",
  "a",
  "ab",
  "x\u{10ffff}y",
  "Brisk",
  "markov_heron7",
  "quantYield",
  "Whale",
];
const PSEUDONYMS = ["Brisk-Heron", "Calm-Otter", "Zesty-Yak", "Lucky-Whale", "Icy-Zebra", "Odd-Ab"];

/** A deterministic 40-hex-digit address; wallets share prefixes ("0x0", "0x00", ...) through the low numbers. */
const address = (i: number) =>
  `0x${(i % 16).toString(16)}${(Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, "0")}${String(i).padStart(31, "0")}`;

/** Profiles (some without a name, some without a pseudonym), statistics for most with P&L ties, traders without a profile. */
async function fillStore(store: Store): Promise<void> {
  const sightings: WalletSighting[] = [];
  const stats: [string, number][] = [];
  for (let i = 0; i < 240; i++) {
    const name = i % 5 === 4 ? null : `${NAMES[i % NAMES.length]}${i % 3 === 0 ? "" : String(i)}`;
    const pseudonym = i % 11 === 10 ? null : PSEUDONYMS[i % PSEUDONYMS.length]!;
    sightings.push({ address: address(i), ts: 1_000 + i, name, pseudonym });
    if (i % 9 !== 8) stats.push([address(i), ((i * 37) % 13) * 100 - 600]);
  }
  for (let i = 240; i < 300; i++) stats.push([address(i), ((i * 11) % 7) * 50]);
  // Wallets without a profile, enough that reading `wallets` whole costs PostgreSQL's planner more than the indexes.
  for (let i = 1_000; i < 5_000; i++) sightings.push({ address: address(i), ts: 1 });
  await store.transaction(async (tx) => {
    await recordWalletSightings(tx, sightings, 1);
    await sql`insert into wallet_stats (wallet, computed_at, total_pnl) values ${sql.join(stats.map(([w, pnl]) => sql`(${w}, 1, ${pnl})`))}`.execute(
      tx.db,
    );
  });
  // Names written outside ingest's batches (SQLite indexes them with the next batch; a search finds them before).
  await store.db.updateTable("wallets").set({ name: "Renamed_Whale" }).where("address", "=", address(7)).execute();
  await sql`insert into wallets (address, name, pseudonym, updated_at) values (${address(300)}, ${"WhaleOfAnotherWriter"}, ${"Quiet-Heron"}, 1)`.execute(
    store.db,
  );
  // The planner's statistics, as autovacuum keeps them (the search asks PostgreSQL's planner how many rows match).
  if (store.kind === "postgres")
    for (const table of ["wallets", "wallet_names", "wallet_stats"])
      await sql`analyze ${sql.table(table)}`.execute(store.db);
}

const QUERIES = [
  "whale",
  "WHALE",
  "Whale",
  "wha",
  "ha",
  "h",
  "e",
  "_",
  "%",
  "\\",
  "100%",
  "the_",
  "é",
  "É",
  "éé",
  "école",
  "ÉCOLE",
  "zoë",
  "日本",
  "語ト",
  "🐋",
  "🐋w",
  "\u{10ffff}",
  "x\u{10ffff}",
  "brisk",
  "brisk-heron",
  "-",
  "heron",
  "lucky-whale",
  "odd-ab",
  "ab",
  "a",
  "b",
  "0x",
  "0X0",
  "0x00",
  "0x1",
  "0xdead",
  "0xdeadbeef1",
  address(3),
  address(250),
  address(3).slice(0, 12),
  "0xg",
  "nosuch",
  "zz",
  "  whale123  ",
  "whale12",
  "123",
  "7",
  "yield",
];

const settings = (overrides: Partial<WalletSearchSettings> = {}): WalletSearchSettings => ({
  searchMaxResults: 5,
  searchIndexMatches: 5_000,
  searchWalkRows: 100_000,
  ...overrides,
});

/** The ways the indexes are read: every indexed wallet; the walk by P&L; the walk given up after a few rows. */
const READS: [string, WalletSearchSettings][] = [
  ["read from the indexes", settings()],
  ["walked by P&L", settings({ searchIndexMatches: 0 })],
  ["walk given up", settings({ searchIndexMatches: 0, searchWalkRows: 7 })],
  ["20 results, walked", settings({ searchMaxResults: 20, searchIndexMatches: 3 })],
];

describe.each(storeBackends)("wallet search on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
    await fillStore(store);
  });
  afterAll(() => dispose());

  it.each(READS)("answers as the full scan ranking every match (%s)", async (_, limits) => {
    for (const q of QUERIES)
      expect(await searchWallets(store, q, limits), q).toEqual(await searchWalletsByScan(store, q, limits, Infinity));
  });

  it("answers as the old 500-candidate scan while its cap does not bind", async () => {
    for (const q of QUERIES)
      expect(await searchWallets(store, q, settings()), q).toEqual(
        await searchWalletsByScan(store, q, settings(), SCAN_CANDIDATES),
      );
    const results = await searchWallets(store, "whale", settings());
    expect(results).toHaveLength(5);
    for (const { name } of results) expect(name!.toLowerCase().startsWith("whale")).toBe(true);
  });

  it("reads no whole table, whichever way the indexes are read", async () => {
    const queries: { node: RootOperationNode; queryId: QueryId }[] = [];
    const capture: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => (queries.push({ node, queryId }), node),
      transformResult: async ({ result }) => result,
    };
    const watched: Store = { ...store, db: store.db.withPlugin(capture) };
    for (const [, limits] of READS)
      for (const q of ["whale", "a", "0x1", address(3), "nosuch"]) await searchWallets(watched, q, limits);
    for (const name of ["Brisk-Heron", "BRISK-HERON", "no-such-trader"]) await findWalletByName(watched, name);
    expect(queries.length).toBeGreaterThan(40);
    for (const { node, queryId } of queries) {
      const query = store.db.getExecutor().compileQuery(node, queryId);
      if (/^explain/i.test(query.sql)) continue;
      expect(await wholeTableScans(store, query), query.sql).toEqual([]);
    }
  });
});

/** The tables that grow with the wallets, as the queries name them (SQLite's plans show aliases). */
const LARGE_TABLES = new Set(["wallets", "w", "wallet_stats", "s", "wallet_names", "n", "a"]);
/** The one whole-index scan allowed: the walk's, in P&L order, which its LIMIT ends. */
const WALK_INDEX = "wallet_stats_pnl_order";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: PlanNode[];
}

/**
 * The large tables a query reads whole, through the table or through one of its indexes without a condition.
 * SQLite: a `SCAN <table>` line of its plan (a scan of a subquery it computed first is not one). PostgreSQL: such a
 * node of its plan.
 */
async function wholeTableScans(store: Store, query: CompiledQuery): Promise<string[]> {
  if (store.kind === "sqlite") {
    const plan = await store.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    const computed = new Set(plan.rows.flatMap((r) => /^(?:CO-ROUTINE|MATERIALIZE) (\S+)/.exec(r.detail)?.[1] ?? []));
    return plan.rows
      .filter((r) => /^SCAN /.test(r.detail) && !r.detail.endsWith(`COVERING INDEX ${WALK_INDEX}`))
      .map((r) => r.detail.split(" ")[1]!)
      .filter((name) => LARGE_TABLES.has(name) && !computed.has(name));
  }
  const plan = await store.transaction(async (tx) => {
    // The test tables are small: reading them whole, or joining by hashing or merging whole inputs, costs less than
    // index lookups would, which the planner picks at scale. Priced out, those plans show only where no index serves.
    for (const method of ["seqscan", "hashjoin", "mergejoin"])
      await sql`set local ${sql.raw(`enable_${method}`)} = off`.execute(tx.db);
    return (
      await tx.db.executeQuery<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
        CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
      )
    ).rows[0]!["QUERY PLAN"][0].Plan;
  });
  const whole = (node: PlanNode, limited: boolean): string[] => {
    const below = (node.Plans ?? []).flatMap((child) => whole(child, limited || node["Node Type"] === "Limit"));
    const scansAll =
      node["Node Type"] === "Seq Scan" ||
      (/^Index (Only )?Scan$/.test(node["Node Type"]) &&
        !node["Index Cond"] &&
        !(limited && node["Index Name"] === WALK_INDEX));
    return scansAll && LARGE_TABLES.has(node["Relation Name"] ?? "") ? [node["Relation Name"]!, ...below] : below;
  };
  return whole(plan, false);
}

describe.each(storeBackends)("wallet search ranking on $kind", (backend) => {
  it("puts a name prefix match first even where 500 wallets with more P&L contain the query (the old cap hid it)", async () => {
    const { store, dispose } = await backend.open();
    try {
      const rich = Array.from({ length: SCAN_CANDIDATES + 1 }, (_, i) => ({
        address: address(i),
        ts: 1,
        name: `bluewhale${i}`,
        pseudonym: null,
      }));
      const poor = { address: address(9_999), ts: 1, name: "whalefan", pseudonym: null };
      await store.transaction(async (tx) => {
        await recordWalletSightings(tx, [...rich, poor], 1);
        await sql`insert into wallet_stats (wallet, computed_at, total_pnl) values ${sql.join([...rich.map((w, i) => sql`(${w.address}, 1, ${1_000 + i})`), sql`(${poor.address}, 1, ${-5})`])}`.execute(
          tx.db,
        );
      });
      const limits = settings({ searchIndexMatches: 100 });
      const found = await searchWallets(store, "whale", limits);
      expect(found[0]).toEqual({ address: poor.address, name: "whalefan", source: "profile" });
      expect(found.slice(1).map((r) => r.name)).toEqual([
        "bluewhale500",
        "bluewhale499",
        "bluewhale498",
        "bluewhale497",
      ]);
      expect(found).toEqual(await searchWalletsByScan(store, "whale", limits, Infinity));
      expect((await searchWalletsByScan(store, "whale", limits, SCAN_CANDIDATES)).map((r) => r.name)).not.toContain(
        "whalefan",
      );
    } finally {
      await dispose();
    }
  });
});
