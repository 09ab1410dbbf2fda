/**
 * The scored bets (`insider_scores`, migrations 0038 and 0040) with their market's id, question, category and prices.
 * A row keeps the bet's own figures as columns and the rest of what its components are computed from as `facts`
 * (`encodeInsiderFacts` in src/ledger/insider-score.ts): the reads compute the components again with the ledger's rule.
 * Since 0061 the view gives `facts`, `confidence` and `avg_price` back from integers (src/store/insider-facts.ts), and
 * since 0063 the score from its count of hundredths, which the reads filter and order on as `score_code`
 * (src/store/insider-score-hundredths.ts).
 */
import { type Kysely, sql } from "kysely";
import type { Store } from "./database.js";
import { bumpDeriveState, INSIDER_GENERATION } from "./derive-state.js";
import { deleteAll, insertRows } from "./derived-tables.js";
import { textPerStore } from "./fill-layout.js";
import { idKeyedSelectSql } from "./id-keyed.js";
import type { StoreKind } from "./migrations/column-types.js";
import type { Database, InsiderScoresTable } from "./schema.js";

const WITH_SCORE_CODE = textPerStore((kind) => `(${idKeyedSelectSql("insider_scores", kind, ["score"])})`);

/**
 * The scored bets as the view reads them, with `score_code` (the score as stored: its count of hundredths, which
 * both indexes hold; `hundredthsFrom` turns a threshold into one), as `s`.
 */
export function scoredBetsWithScoreCode(kind: StoreKind) {
  return sql<InsiderScoresTable & { score_code: number }>`${sql.raw(WITH_SCORE_CODE[kind])}`.as("s");
}

export function scoredBetsWithMarkets(db: Kysely<Database>, kind: StoreKind) {
  return db
    .selectFrom(scoredBetsWithScoreCode(kind))
    .leftJoin("markets as m", "m.condition_id", "s.condition_id")
    .select([
      "s.wallet",
      "s.condition_id",
      "s.outcome_index",
      "s.score",
      "s.confidence",
      "s.bet_usd",
      "s.avg_price",
      "s.first_ts",
      "s.last_ts",
      "s.cluster_id",
      "s.facts",
      "s.computed_at",
      "m.id as market_id",
      "m.question",
      "m.category",
      "m.price_yes",
      "m.price_no",
    ]);
}

/**
 * Replaces every scored bet, `insider_generation` bumped in the same transaction: the answers kept under it
 * (src/analytics/informed/insider-reads.ts, `stamp`) are not served once the scores were rewritten.
 */
export async function replaceInsiderScores(store: Store, rows: readonly InsiderScoresTable[]): Promise<void> {
  await store.transaction(async (tx) => {
    await deleteAll(tx, "insider_scores");
    await insertRows(tx, "insider_scores", rows);
    await bumpDeriveState(tx.db, INSIDER_GENERATION);
  });
}
