/**
 * Issue 52, insider scores: every large enough recent bet (a wallet's position in one market outcome) with its score,
 * confidence and components (src/ledger/insider-score.ts), rewritten whole by the Deriver (src/derive/insider-scores.ts).
 */
import type { Kysely } from "kysely";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const insiderScores: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    await db.schema
      .createTable("insider_scores")
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("condition_id", t.text, (c) => c.notNull())
      .addColumn("outcome_index", t.int, (c) => c.notNull())
      .addColumn("score", t.real, (c) => c.notNull())
      .addColumn("confidence", t.real, (c) => c.notNull())
      .addColumn("bet_usd", t.real, (c) => c.notNull())
      .addColumn("avg_price", t.real, (c) => c.notNull())
      .addColumn("first_ts", t.int, (c) => c.notNull())
      .addColumn("last_ts", t.int, (c) => c.notNull())
      .addColumn("cluster_id", t.text)
      .addColumn("components", t.text, (c) => c.notNull())
      .addColumn("computed_at", t.int, (c) => c.notNull())
      .addPrimaryKeyConstraint("insider_scores_pk", ["wallet", "condition_id", "outcome_index"])
      .execute();
    await db.schema.createIndex("insider_scores_score").on("insider_scores").columns(["score", "last_ts"]).execute();
    await db.schema
      .createIndex("insider_scores_market")
      .on("insider_scores")
      .columns(["condition_id", "score"])
      .execute();
  },
};
