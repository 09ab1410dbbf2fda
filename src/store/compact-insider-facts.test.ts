/**
 * Migration 0061 (src/store/migrations/0061_compact_insider_facts.ts): the scored bets store their facts as integer
 * columns (src/store/insider-facts.ts), their confidence in basis points and their price in micro-units
 * (src/store/exact-codes.ts), each kept as it was where the integers would not give it back. A store written in the
 * layout before migrates: the view and the store's read give every value as before (doubles bit for bit, the facts'
 * text byte for byte), the rows hold the integers, or the value where they cannot; rows written after through the
 * derived tables' writer are stored alike and read back alike. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { insertScoredBetsBefore0061 } from "../../test/support/earlier-layout.js";
import type { Store } from "./database.js";
import { deleteAll, insertRows, upsertRows } from "./derived-tables.js";
import { scoredBetsWithMarkets } from "./insider-scores.js";
import { migrateStore } from "./migrate.js";
import { queryRows } from "./raw-sql.js";
import { INSIDER_SCORE_COLUMNS } from "./id-keyed.js";
import { exactRows } from "./testing/exact-rows.js";
import { Rng, seedWords } from "../sim/world/random.js";
import type { InsiderScoresTable } from "./schema.js";

const WALLETS = [`0x${"a".repeat(40)}`, `0x${"b".repeat(40)}`, `0x${"c".repeat(40)}`];
const MARKETS = [1, 2, 3, 4, 5].map((i) => `0x${String(i).repeat(64)}`);

/** Facts as the ledger writes them (`encodeInsiderFacts`), each with the integers they must be stored as. */
const CODED_FACTS: readonly [string, readonly (number | null)[]][] = [
  [
    "[1782475576,11,496349.03,25047584.85,0,1799349590,null,0,0]",
    [1782475576, 11, 49634903, 2504758485, 0, 1799349590, null, 0, 0],
  ],
  [
    "[1782475576,1,496349.03,117633.65,0,1787626616,1,0,0]",
    [1782475576, 1, 49634903, 11763365, 0, 1787626616, 1, 0, 0],
  ],
  ["[1700000000,0,117.6,7,0.05,null,0,1,3]", [1700000000, 0, 11760, 700, 5, null, 0, 1, 3]],
  [
    "[9007199254740991,0,9999999999999.99,-12.34,-0.05,1799349590,1,1,120]",
    [9007199254740991, 0, 999999999999999, -1234, -5, 1799349590, 1, 1, 120],
  ],
  ["[0,0,0,0,0,0,0,0,0]", [0, 0, 0, 0, 0, 0, 0, 0, 0]],
];

/** Facts the integers cannot give back: each is kept as its text. */
const KEPT_FACTS = [
  "[]", // 0040's default
  "[1700000000,0,3.125,0,0,null,null,0,0]", // an amount to a tenth of a cent
  "[1700000000,1.5,3,0,0,null,null,0,0]", // a count that is no integer
  "[1700000000, 0, 3, 0, 0, null, null, 0, 0]", // not as JSON.stringify writes it
  "[1700000000,0,3,0,0,null,null,0,0,5]", // a tenth place
  "[1700000000,0,99999999999999.99,0,0,null,null,0,0]", // cents at 10^15
  "[1700000000,0,1e21,0,0,null,null,0,0]",
  "[-0,0,0,0,0,null,null,0,0]",
  "[1700000000,0,0.1,0,0,null,true,0,0]",
  "not json",
];

/** Confidences and prices as the ledger writes them (four and six places), and others that are kept. */
const CODED_CONFIDENCE: readonly [number, number][] = [
  [0.5, 5_000],
  [0.6667, 6_667],
  [1, 10_000],
  [0, 0],
  [0.3333, 3_333],
];
const KEPT_CONFIDENCE = [1 / 3, 0.12345, 1e-5];
const CODED_PRICE: readonly [number, number][] = [
  [0.538683, 538_683],
  [0.99, 990_000],
  [0.000001, 1],
  [1, 1_000_000],
  [0, 0],
];
const KEPT_PRICE = [0.1 + 0.2, 1 / 3, 0.0000005];

/** Every fact text, confidence and price, taking turns over the wallets and markets. */
const FACTS = [...CODED_FACTS.map(([text]) => text), ...KEPT_FACTS];
const CONFIDENCES = [...CODED_CONFIDENCE.map(([c]) => c), ...KEPT_CONFIDENCE];
const PRICES = [...CODED_PRICE.map(([p]) => p), ...KEPT_PRICE];
const BETS: InsiderScoresTable[] = FACTS.map((facts, n) => ({
  wallet: WALLETS[n % WALLETS.length]!,
  condition_id: MARKETS[n % MARKETS.length]!,
  outcome_index: Math.floor(n / 15) % 2,
  score: Math.round(10_000 / (n + 3)) / 100,
  confidence: CONFIDENCES[n % CONFIDENCES.length]!,
  bet_usd: 66_803.54404776 + n,
  avg_price: PRICES[n % PRICES.length]!,
  first_ts: 1_787_807_944 + n,
  last_ts: 1_795_147_268 + n,
  cluster_id: n % 3 === 0 ? WALLETS[(n + 1) % WALLETS.length]! : null,
  computed_at: 1_795_219_200,
  facts,
}));

const run = (store: Store, text: string, params: readonly unknown[] = []) =>
  queryRows<Record<string, unknown>>(store.db, store.kind, text, params);

const byKey = (a: InsiderScoresTable, b: InsiderScoresTable) =>
  a.wallet.localeCompare(b.wallet) || a.condition_id.localeCompare(b.condition_id) || a.outcome_index - b.outcome_index;

/** The view's rows in key order, each value told apart exactly. */
const viewRows = async (store: Store) =>
  exactRows(await run(store, "select * from insider_scores order by wallet, condition_id, outcome_index"));

/**
 * The store's read of the rows with their markets, the view's columns of each, as `viewRows` (it reads the score's
 * count of hundredths too, which only 0063 stores: it reads the rows once migrated).
 */
async function readRows(store: Store) {
  const rows = await scoredBetsWithMarkets(store.db, store.kind)
    .orderBy("s.wallet")
    .orderBy("s.condition_id")
    .orderBy("s.outcome_index")
    .execute();
  return exactRows(rows.map((r) => Object.fromEntries(INSIDER_SCORE_COLUMNS.map((c) => [c, r[c]]))));
}

/** The view's rows and the store's read of them, each value told apart exactly. */
const reads = async (store: Store) => ({ view: await viewRows(store), withMarkets: await readRows(store) });

/** The rows as stored: by wallet and market text, each value told apart exactly (ids left out). */
async function storedRows(store: Store) {
  const rows = await run(
    store,
    `select a.address, c.condition_id, r.* from insider_score_rows r
      join address_ids a on a.id = r.wallet_id join condition_ids c on c.id = r.condition_ref
      order by a.address, c.condition_id, r.outcome_index`,
  );
  return rows.map(({ wallet_id: _w, condition_ref: _c, ...row }) => row);
}

const FACT_COLUMNS = [
  "wallet_since",
  "markets_before",
  "wallet_bought_cents",
  "market_volume_cents",
  "market_liquidity_cents",
  "market_end",
  "won",
  "in_cluster",
  "cluster_backers",
];

/** What each bet must be stored as: the integers written out above, or the value kept where it has none. */
function expectStored(rows: readonly Record<string, unknown>[]): void {
  expect(rows).toHaveLength(BETS.length);
  const bets = new Map(BETS.map((b) => [`${b.wallet} ${b.condition_id} ${b.outcome_index}`, b]));
  const number = (v: unknown) => (v === null ? null : Number(v));
  for (const row of rows) {
    const bet = bets.get(`${row.address} ${row.condition_id} ${Number(row.outcome_index)}`)!;
    const codes = CODED_FACTS.find(([text]) => text === bet.facts)?.[1];
    expect(row.facts, bet.facts).toBe(codes ? null : bet.facts);
    expect(
      FACT_COLUMNS.map((c) => number(row[c])),
      bet.facts,
    ).toEqual(codes ?? FACT_COLUMNS.map(() => null));
    const bps = CODED_CONFIDENCE.find(([c]) => c === bet.confidence)?.[1];
    expect([number(row.confidence), number(row.confidence_bps)]).toEqual(
      bps === undefined ? [bet.confidence, null] : [null, bps],
    );
    const micro = CODED_PRICE.find(([p]) => p === bet.avg_price)?.[1];
    expect([number(row.avg_price), number(row.avg_price_micro)]).toEqual(
      micro === undefined ? [bet.avg_price, null] : [null, micro],
    );
  }
}

/** Facts as the ledger would write them, of every magnitude: integers, whole cents (negative too) and nulls. */
function randomFacts(random: () => number): string {
  const magnitude = () => Math.floor(random() * 10 ** Math.floor(random() * 16));
  const cents = () => ((random() < 0.2 ? -1 : 1) * magnitude()) / 100;
  const nullable = (v: number) => (random() < 0.2 ? null : v);
  return JSON.stringify([
    magnitude(),
    magnitude() % 1_000,
    cents(),
    cents(),
    nullable(cents()),
    nullable(magnitude()),
    nullable(Math.floor(random() * 2)),
    Math.floor(random() * 2),
    magnitude() % 100,
  ]);
}

describe.each(storeBackends)("scored bets' facts, confidence and price as integers, on $kind", (backend) => {
  it("migration 0061 stores them as integers that give them back: reads as before, writes alike", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0061_compact_insider_facts") });
    try {
      await insertScoredBetsBefore0061(store, BETS);
      const written = await viewRows(store);
      expect(written).toHaveLength(BETS.length);
      expect((await run(store, "select facts from insider_scores")).map((r) => r.facts).sort()).toEqual(
        [...FACTS].sort(),
      );
      const before = { view: written, withMarkets: written };

      await migrateStore(store);
      expect(await reads(store)).toEqual(before);
      const migrated = await storedRows(store);
      expectStored(migrated);
      if (store.sqlite) {
        const types = store.sqlite
          .prepare(
            `select distinct typeof(wallet_bought_cents) || ' ' || typeof(confidence_bps) || ' ' ||
              typeof(avg_price_micro) from insider_score_rows
              where facts is null and confidence is null and avg_price is null`,
          )
          .pluck()
          .all();
        expect(types).toEqual(["integer integer integer"]);
      }

      // Written again as the Deriver writes them (the table emptied, every row inserted): stored as the migration
      // stored them, read as before.
      await store.transaction(async (tx) => {
        await deleteAll(tx, "insider_scores");
        await insertRows(tx, "insider_scores", [...BETS].reverse());
      });
      expect(await storedRows(store)).toEqual(migrated);
      expect(await reads(store)).toEqual(before);

      // A row replaced by one whose values have no integers, and the other way round.
      const [coded, kept] = [BETS[0]!, BETS[CODED_FACTS.length]!];
      const replaced = [
        { ...coded, facts: "[]", confidence: 1 / 3, avg_price: 0.1 + 0.2 },
        { ...kept, facts: CODED_FACTS[1]![0], confidence: 0.5, avg_price: 0.99 },
      ];
      await store.transaction((tx) => upsertRows(tx, "insider_scores", replaced));
      const expected = BETS.map((b) => replaced.find((r) => byKey(r, b) === 0) ?? b).sort(byKey);
      const view = await run(store, "select * from insider_scores order by wallet, condition_id, outcome_index");
      expect(exactRows(view)).toEqual(exactRows(expected as unknown as Record<string, unknown>[]));

      // Facts of every magnitude the ledger writes: every one stored as integers, and read back byte for byte.
      const rng = Rng.derive(seedWords(61), "facts");
      const random = () => rng.next();
      const many = Array.from({ length: 400 }, (_, n) => ({
        ...BETS[0]!,
        condition_id: `0x${n.toString(16).padStart(64, "0")}`,
        facts: randomFacts(random),
      }));
      await store.transaction(async (tx) => {
        await deleteAll(tx, "insider_scores");
        await insertRows(tx, "insider_scores", many);
      });
      const read = await run(store, "select condition_id, facts from insider_scores order by condition_id");
      expect(read.map((r) => r.facts)).toEqual(many.map((m) => m.facts));
      expect(await run(store, "select count(*) as n from insider_score_rows where facts is not null")).toEqual([
        { n: 0 },
      ]);
    } finally {
      await dispose();
    }
  });
});
