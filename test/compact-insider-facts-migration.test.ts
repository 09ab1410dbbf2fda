/**
 * Migrations 0061 (the scored bets' facts, confidence and price stored as integers, src/store/insider-facts.ts,
 * src/store/exact-codes.ts) and 0063 (their score as its count of hundredths, src/store/insider-score-hundredths.ts)
 * change no answer. A simulated world is stored and derived in today's layout, the signal recorder records its
 * signals (insider alerts among them), and every answer that reads the scored bets or the signals is taken: the
 * insider alerts, each scored wallet's insider page, the informed flow of every scored market, the scorecard and its
 * signals. Then the scored bets are turned back into the table of texts they were before 0044 and migrated by 0044,
 * 0061 and 0063 again (the store's other tables stay in today's layout: copied into a store migrated only to before
 * 0061, they would hold what later migrations wrote). The view reads every row as before (doubles bit for bit, the
 * facts' text byte for byte), every bet the Deriver scored is stored as integers, the recorder records the same
 * signals into an emptied ledger (hashes included), and every answer is the same: status, content type and body,
 * byte for byte. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { SignalRecorder } from "../src/derive/signal-recorder.js";
import type { Store } from "../src/store/database.js";
import { insiderScoresByIds } from "../src/store/migrations/0044_insider_scores_by_ids.js";
import { compactInsiderFacts } from "../src/store/migrations/0061_compact_insider_facts.js";
import { insiderScoreHundredths } from "../src/store/migrations/0063_insider_score_hundredths.js";
import { queryRows } from "../src/store/raw-sql.js";
import { exactRows } from "../src/store/testing/exact-rows.js";
import { storeBackends } from "./support/backends.js";
import { answerTaker, expectSameAnswers, migrationWorld } from "./support/migration-answers.js";
import { viewAsTableOfTexts } from "./support/earlier-layout.js";
import { storeWorld } from "./support/world-app.js";

const run = (store: Store, text: string) => queryRows<Record<string, unknown>>(store.db, store.kind, text);

const scoredBets = async (store: Store) =>
  exactRows(await run(store, "select * from insider_scores order by wallet, condition_id, outcome_index"));
const ledger = (store: Store) => run(store, "select * from signal_ledger order by seq");

/** The URLs that read the scored bets or the signals: the lists, and the pages of every scored wallet and market. */
async function insiderUrls(store: Store): Promise<string[]> {
  const column = async (text: string) => (await run(store, text)).map((r) => r.v as string);
  const wallets = await column("select distinct wallet as v from insider_scores order by wallet");
  const markets = await column("select distinct condition_id as v from insider_scores order by condition_id");
  return [
    "/api/v2/insider-alerts",
    "/api/v2/insider-alerts?min_score=0&days=365&limit=500",
    "/api/v2/scorecard",
    "/api/v2/scorecard/signals?limit=1000",
    ...wallets.map((w) => `/api/v2/wallet/${w}/insider?min_score=0&limit=500`),
    ...markets.flatMap((m) => [`/api/v2/market/${m}/informed-flow`, `/api/v2/market/${m}/informed-flow?min_score=0`]),
  ];
}

describe.each(storeBackends)("migrating the scored bets' facts and score to integers, on $kind", (backend) => {
  it("answers every insider, informed-flow and scorecard request as before, and records the same signals", async () => {
    const { store, dispose } = await backend.open();
    const { world, clock, config } = migrationWorld();
    try {
      await storeWorld(store, world, config, clock);
      // Every bet counts as flagged to the recorder, so that its insider alerts read scored bets (the world's bets
      // that score high are on markets resolved by its end, which it leaves out).
      const recorder = new SignalRecorder(store, { ...config, insider: { ...config.insider, minScore: 0 } });
      await recorder.record(world.end);
      const recorded = await ledger(store);
      expect(recorded.filter((s) => s.kind === "insider_alert").length).toBeGreaterThan(0);

      const urls = await insiderUrls(store);
      const take = await answerTaker(store, config, clock, world.end);
      const answers = () => take(urls);
      const before = await answers();
      const bets = await scoredBets(store);

      await viewAsTableOfTexts(store, "insider_scores", "insider_score_rows");
      await insiderScoresByIds.up(store.db as never, store.kind);
      expect(await run(store, "select count(*) as n from insider_score_rows where facts is null")).toEqual([{ n: 0 }]);
      await compactInsiderFacts.up(store.db as never, store.kind);
      expect(await scoredBets(store)).toEqual(bets);
      await insiderScoreHundredths.up(store.db as never, store.kind);
      expect(await scoredBets(store)).toEqual(bets);
      // Every bet the Deriver scored is stored as integers: no facts, confidence or price kept as it was.
      expect(
        await run(
          store,
          `select count(*) as n from insider_score_rows
            where facts is not null or confidence is not null or avg_price is not null`,
        ),
      ).toEqual([{ n: 0 }]);
      // The recorder reads the migrated bets into the same signals: an emptied ledger holds the same records again.
      await sql.raw("delete from signal_ledger").execute(store.db);
      await recorder.record(world.end);
      expect(await ledger(store)).toEqual(recorded);
      const after = await answers();

      const ok = expectSameAnswers(before, after);
      expect(ok.length).toBeGreaterThan(20);
      expect(ok.filter((a) => a.includes('"components":[{')).length).toBeGreaterThan(10);
      expect(ok.filter((a) => a.includes('"kind":"insider_alert"')).length).toBeGreaterThan(0);
    } finally {
      await dispose();
    }
  }, 300_000);
});
