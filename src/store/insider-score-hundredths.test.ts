/**
 * Migration 0063 (src/store/migrations/0063_insider_score_hundredths.ts): the scored bets store their score as its
 * count of hundredths (src/store/insider-score-hundredths.ts). Every score of a whole number of hundredths, which is
 * every score the scorer gives (src/ledger/insider-score.test.ts), is kept, any other refused, and a threshold turned
 * into a count selects what the score itself would. A store written in the layout before
 * migrates: the view gives every row as before (doubles bit for bit), the rows and both indexes hold the counts as
 * integers, and the reads that filter and order on the score (the insider alerts, a market's informed flow, a wallet's
 * bets) give at every threshold the bets they should, ties in their order; rows written after read back alike, and a
 * score with no count of hundredths is refused, by the writer and by the migration, which then leaves the store as
 * it was. Those reads keep their indexes: each read's statements, as it runs them, are explained, and the count must
 * be a condition of the index's search. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { insertScoredBetsBefore0061 } from "../../test/support/earlier-layout.js";
import { InsiderAlerts } from "../alerts/insider-alerts.js";
import { InsiderReads } from "../analytics/informed/insider-reads.js";
import { loadConfig } from "../config/index.js";
import { SignalRecorder } from "../derive/signal-recorder.js";
import { scoreOfHundredths } from "../ledger/insider-score.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import { Rng, seedWords } from "../sim/world/random.js";
import type { Store } from "./database.js";
import { deleteAll, insertRows } from "./derived-tables.js";
import { hundredthsFrom, SCORE_CODE, scoreHundredths } from "./insider-score-hundredths.js";
import { migrateStore } from "./migrate.js";
import { queryRows } from "./raw-sql.js";
import type { InsiderScoresTable } from "./schema.js";
import { indexNamesOf } from "./testing/index-names.js";
import { marketRow } from "./testing/market-row.js";
import { plansOf } from "./testing/query-plans.js";
import { exactRows } from "./testing/exact-rows.js";

/** Scores as the scorer gives them, each with the count the rows must hold, written out here; ties among them. */
const SCORES: readonly [number, number][] = [
  [0, 0],
  [0.01, 1],
  [0.03, 3],
  [1.27, 127],
  [1.28, 128],
  [16.67, 1_667],
  [43.03, 4_303],
  [43.03, 4_303],
  [55.5, 5_550],
  [79.99, 7_999],
  [80, 8_000],
  [80, 8_000],
  [80.01, 8_001],
  [99.99, 9_999],
  [100, 10_000],
];
/** Thresholds a read is asked with: on a score, between two, and beyond them all. */
const THRESHOLDS = [0, 0.005, 0.01, 43.03, 43.031, 79.995, 80, 80.001, 100, 100.001];

const NOW = 1_795_200_000;
const FACTS = "[1782475576,11,496349.03,25047584.85,0,1799349590,null,0,0]";
const hex = (n: number, digits: number) => `0x${n.toString(16).padStart(digits, "0")}`;
const WALLETS = [0, 1, 2, 3].map((w) => hex(0xa0 + w, 40));
const MARKETS = [0, 1, 2].map((m) => hex(0xc0 + m, 64));

/** Every wallet in every market on both outcomes, the scores and last fills taking turns (ties in both). */
const BETS: InsiderScoresTable[] = WALLETS.flatMap((wallet, w) =>
  MARKETS.flatMap((condition_id, m) =>
    [0, 1].map((outcome_index) => {
      const n = (w * MARKETS.length + m) * 2 + outcome_index;
      return {
        wallet,
        condition_id,
        outcome_index,
        score: SCORES[n % SCORES.length]![0],
        confidence: 0.5,
        bet_usd: 1_000 + n,
        avg_price: 0.25,
        first_ts: NOW - 86_400,
        last_ts: NOW - 3_600 * (n % 3),
        cluster_id: null,
        computed_at: NOW,
        facts: FACTS,
      };
    }),
  ),
);

const run = (store: Store, text: string, params: readonly unknown[] = []) =>
  queryRows<Record<string, unknown>>(store.db, store.kind, text, params);

/** The view's rows in key order, each value with its type, a number by its shortest exact text. */
const viewRows = async (store: Store) =>
  exactRows(await run(store, "select * from insider_scores order by wallet, condition_id, outcome_index"));

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const key = (b: Pick<InsiderScoresTable, "wallet" | "condition_id" | "score">, outcome: number | string) =>
  `${b.wallet} ${b.condition_id} ${outcome} ${b.score}`;
const outcomeOf = (b: InsiderScoresTable) => (b.outcome_index === 0 ? "YES" : "NO");

/** What the reads that filter and order on the score give at every threshold, checked against the bets written. */
async function expectReadsOf(store: Store, bets: readonly InsiderScoresTable[]): Promise<void> {
  const reads = new InsiderReads(store, () => NOW);
  for (const least of THRESHOLDS) {
    const flagged = bets.filter((b) => b.score >= least);
    const alerts = await reads.alerts({ minScore: least, days: 7, category: null, market: null, limit: 500 });
    expect(
      alerts.alerts.map((a) => key(a, a.outcome)),
      `alerts from ${least}`,
    ).toEqual(
      [...flagged]
        .sort(
          (a, b) =>
            b.score - a.score ||
            b.last_ts - a.last_ts ||
            byText(a.wallet, b.wallet) ||
            byText(a.condition_id, b.condition_id) ||
            a.outcome_index - b.outcome_index,
        )
        .map((b) => key(b, outcomeOf(b))),
    );
    const market = MARKETS[1]!;
    const flow = await reads.marketFlow(market, least);
    expect(
      flow?.bets.map((a) => key(a, a.outcome)),
      `flow from ${least}`,
    ).toEqual(
      flagged
        .filter((b) => b.condition_id === market)
        .sort((a, b) => b.score - a.score || byText(a.wallet, b.wallet) || a.outcome_index - b.outcome_index)
        .map((b) => key(b, outcomeOf(b))),
    );
    const wallet = WALLETS[2]!;
    const mine = bets.filter((b) => b.wallet === wallet);
    const page = await reads.wallet(wallet, least, { limit: 100, offset: 0 });
    expect([page.best_score, page.flagged], `wallet from ${least}`).toEqual([
      Math.max(...mine.map((b) => b.score)),
      mine.filter((b) => b.score >= least).length,
    ]);
    expect(page.bets.map((a) => key(a, a.outcome))).toEqual(
      [...mine]
        .sort(
          (a, b) =>
            b.score - a.score ||
            b.last_ts - a.last_ts ||
            byText(a.condition_id, b.condition_id) ||
            a.outcome_index - b.outcome_index,
        )
        .map((b) => key(b, outcomeOf(b))),
    );
  }
}

/** The doubles next to `x` on either side. */
function neighbours(x: number): [number, number] {
  const bits = new BigInt64Array(new Float64Array([x]).buffer)[0]!;
  const at = (b: bigint) => new Float64Array(new BigInt64Array([b]).buffer)[0]!;
  return x > 0 ? [at(bits - 1n), at(bits + 1n)] : [-Number.MIN_VALUE, Number.MIN_VALUE];
}

describe("a score as its count of hundredths", () => {
  it("keeps every score of a whole number of hundredths, and refuses any other", () => {
    for (let hundredths = 0; hundredths <= 10_000; hundredths++)
      expect(scoreHundredths(scoreOfHundredths(hundredths))).toBe(hundredths);
    for (const score of [
      100 / 3,
      0.1 + 0.2,
      43.035,
      neighbours(43.03)[1],
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      2 ** 60,
    ])
      expect(() => scoreHundredths(score), String(score)).toThrow(/not a whole number of hundredths/);
  });

  it("turns a threshold into the count that selects the same scores", () => {
    const rng = Rng.derive(seedWords(63), "thresholds");
    const random = () => rng.next();
    const thresholds = [...THRESHOLDS, -5, 1 / 3, 2 ** -40];
    for (let n = 0; n < 200; n++) {
      const score = scoreOfHundredths(Math.floor(random() * 10_001));
      thresholds.push(score, ...neighbours(score), random() * 100);
    }
    for (const least of thresholds) {
      const from = hundredthsFrom(least);
      for (let hundredths = -10; hundredths <= 10_010; hundredths++)
        if (scoreOfHundredths(hundredths) >= least !== hundredths >= from)
          expect.fail(`from ${least}: count ${from}, but ${hundredths} is ${scoreOfHundredths(hundredths)}`);
    }
  });
});

describe.each(storeBackends)("scored bets' score in hundredths, on $kind", (backend) => {
  it("reads every count back as its score, as JavaScript does", async () => {
    const { store, dispose } = await backend.open();
    try {
      const rows = await run(
        store,
        `with recursive t(score_hundredths) as (select 0 union all select score_hundredths + 1 from t
          where score_hundredths < 10000) select t.score_hundredths as k, ${SCORE_CODE.textSql("t")} as score from t`,
      );
      expect(rows).toHaveLength(10_001);
      for (const r of rows) expect(r.score).toBe(scoreOfHundredths(Number(r.k)));
    } finally {
      await dispose();
    }
  });

  it("migration 0063 stores the counts: the view and the reads on the score as before, writes alike", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0063_insider_score_hundredths") });
    try {
      await insertScoredBetsBefore0061(store, BETS);
      await store.db
        .insertInto("markets")
        .values(
          MARKETS.map((condition_id, m) =>
            marketRow({ id: String(m), condition_id, question: `q${m}`, slug: `s${m}` }),
          ),
        )
        .execute();
      const before = await viewRows(store);
      expect(before).toHaveLength(BETS.length);

      await migrateStore(store);
      expect(await viewRows(store)).toEqual(before);
      await expectReadsOf(store, BETS);
      const stored = await run(
        store,
        `select a.address, c.condition_id, r.outcome_index, r.score_hundredths from insider_score_rows r
          join address_ids a on a.id = r.wallet_id join condition_ids c on c.id = r.condition_ref`,
      );
      const hundredths = new Map(SCORES);
      expect(
        stored.map((r) => `${r.address} ${r.condition_id} ${r.outcome_index} ${r.score_hundredths}`).sort(),
      ).toEqual(BETS.map((b) => `${b.wallet} ${b.condition_id} ${b.outcome_index} ${hundredths.get(b.score)}`).sort());
      for (const r of stored) expect(typeof r.score_hundredths).toBe("number");
      expect(await indexNamesOf(store, "insider_score_rows")).toEqual(
        expect.arrayContaining(["insider_scores_score", "insider_scores_market"]),
      );
      if (store.sqlite) {
        expect(
          store.sqlite.prepare("select distinct typeof(score_hundredths) from insider_score_rows").pluck().all(),
        ).toEqual(["integer"]);
        const indexed = (index: string) =>
          store.sqlite!.prepare(`select name from pragma_index_info('${index}') order by seqno`).pluck().all();
        expect(indexed("insider_scores_score")).toEqual(["score_hundredths", "last_ts"]);
        expect(indexed("insider_scores_market")).toEqual(["condition_ref", "score_hundredths"]);
      } else {
        const columns = await run(
          store,
          `select column_name as c, data_type as t from information_schema.columns
            where table_schema = current_schema() and table_name = 'insider_score_rows' and column_name like 'score%'`,
        );
        expect(columns).toEqual([{ c: "score_hundredths", t: "integer" }]);
        const indexes = await run(
          store,
          `select indexdef as d from pg_indexes where schemaname = current_schema() and indexname like 'insider_scores_%'
            order by indexname`,
        );
        expect(indexes.map((r) => String(r.d).replace(/^.* USING btree /, ""))).toEqual([
          "(condition_ref, score_hundredths)",
          "(score_hundredths, last_ts)",
        ]);
      }

      // Written again as the Deriver writes them, scores changed: read alike; a score with no count is refused.
      const rescored = BETS.map((b, n) => ({ ...b, score: SCORES[(n + 5) % SCORES.length]![0] }));
      await store.transaction(async (tx) => {
        await deleteAll(tx, "insider_scores");
        await insertRows(tx, "insider_scores", rescored);
      });
      await expectReadsOf(store, rescored);
      const written = await viewRows(store);
      await expect(
        store.transaction(async (tx) => {
          await deleteAll(tx, "insider_scores");
          await insertRows(tx, "insider_scores", [{ ...BETS[0]!, score: 100 / 3 }]);
        }),
      ).rejects.toThrow();
      expect(await viewRows(store)).toEqual(written);
    } finally {
      await dispose();
    }
  });

  it("migration 0063 stops at a stored score with no count of hundredths, the store as it was", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0063_insider_score_hundredths") });
    try {
      await insertScoredBetsBefore0061(store, [BETS[0]!, { ...BETS[1]!, score: 100 / 3 }]);
      const before = await viewRows(store);
      await expect(migrateStore(store)).rejects.toThrow(/0063_insider_score_hundredths.*not a whole number/);
      expect(await viewRows(store)).toEqual(before);
    } finally {
      await dispose();
    }
  });

  it("keeps the reads that filter and order on the score on the indexes that hold it", async () => {
    const { store, dispose } = await backend.open();
    try {
      const wallets = Array.from({ length: 60 }, (_, w) => hex(0xb000 + w, 40));
      const markets = Array.from({ length: 40 }, (_, m) => hex(0xd000 + m, 64));
      const many = wallets.flatMap((wallet, w) =>
        markets.map((condition_id, m) => ({
          ...BETS[0]!,
          wallet,
          condition_id,
          outcome_index: (w + m) % 2,
          score: scoreOfHundredths((w * 7_919 + m * 104_729) % 10_001),
          last_ts: NOW - 60 * ((w * 31 + m) % 1_000),
        })),
      );
      await store.transaction((tx) => insertRows(tx, "insider_scores", many));
      await store.db
        .insertInto("markets")
        .values(
          markets.map((condition_id, m) =>
            marketRow({ id: String(m), condition_id, question: `q${m}`, slug: `s${m}` }),
          ),
        )
        .execute();
      await run(
        store,
        `insert into alert_rules (account, name, kind, filters, destination_ids, status, created_at, updated_at)
          values ('a', 'r', 'insider_alert', '{"min_score":95,"markets":[],"categories":[]}', '[]', 'active', 0, 0)`,
      );
      if (store.kind === "postgres") await sql`analyze`.execute(store.db);
      const config = loadConfig({ LOG_LEVEL: "silent", INSIDER_MIN_SCORE: "95" });
      const reads = new InsiderReads(store, () => NOW);
      const market = markets[7]!;
      const searches: Record<string, { run: () => Promise<unknown>; search: string }> = {
        alerts: {
          run: () => reads.alerts({ minScore: 95, days: 7, category: null, market: null, limit: 50 }),
          search: "insider_scores_score (score_hundredths>?)",
        },
        "informed flow": {
          run: () => reads.marketFlow(market, 95),
          search: "insider_scores_market (condition_ref=? AND score_hundredths>?)",
        },
        "insider alert rules": {
          run: () =>
            new InsiderAlerts({
              store,
              config,
              clock: new ManualClock(NOW * 1_000),
              logger: createLogger("silent"),
            }).look(),
          search: "insider_scores_score (score_hundredths>?)",
        },
        "recorded insider alerts": {
          run: () => new SignalRecorder(store, config).record(NOW),
          search: "insider_scores_score (score_hundredths>?)",
        },
      };
      for (const [name, read] of Object.entries(searches)) {
        const plans = await plansOf(store, read.run, "insider_score_rows");
        expect(plans.length, name).toBeGreaterThan(0);
        for (const plan of plans) {
          if (store.kind === "sqlite") expect(plan, name).toContain(read.search);
          else expect(plan, name).toMatch(/Index Cond: \([^\n]*score_hundredths >= /);
          expect(plan, name).not.toMatch(/Seq Scan on insider_score_rows/);
        }
      }
    } finally {
      await dispose();
    }
  });
});
