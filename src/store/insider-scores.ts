/**
 * The scored bets (`insider_scores`, migrations 0038 and 0040) with their market's id, question, category and prices.
 * A row keeps the bet's own figures as columns and the rest of what its components are computed from as `facts`
 * (`encodeInsiderFacts` in src/ledger/insider-score.ts): the reads compute the components again with the ledger's rule.
 * Since 0061 the view gives `facts`, `confidence` and `avg_price` back from integers (src/store/insider-facts.ts).
 */
import type { Kysely } from "kysely";
import type { Database } from "./schema.js";

export function scoredBetsWithMarkets(db: Kysely<Database>) {
  return db
    .selectFrom("insider_scores as s")
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
