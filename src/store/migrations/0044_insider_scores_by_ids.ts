/**
 * Issue 49: the scored bets store their wallet and market as ids (src/store/id-keyed.ts), as the positions do since
 * 0041. On the 1,000,000-fill world they were 17.7 bytes a fill on SQLite with their three indexes: a 42-character
 * address and a 66-character condition id in the row, again in the key's index, and the condition id again in the
 * market's. The two reads' indexes are made again on the ids: the flagged bets by score and recency
 * (`insider_scores_score`) and a market's bets by score (`insider_scores_market`).
 */
import type { Kysely } from "kysely";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { createIdKeyedIndexes, moveToIds, type MovedTable } from "./move-to-ids.js";

const INSIDER_SCORES: MovedTable = {
  columns: [
    ["wallet", "id"],
    ["condition_id", "id"],
    ["outcome_index", "int"],
    ["score", "real"],
    ["confidence", "real"],
    ["bet_usd", "real"],
    ["avg_price", "real"],
    ["first_ts", "int"],
    ["last_ts", "int"],
    ["cluster_id", "text", "null"],
    ["computed_at", "int"],
    ["facts", "text"],
  ],
  key: ["wallet", "condition_id", "outcome_index"],
};

/** The scored bets' indexes on their rows table, by the columns readers know. */
export const INSIDER_SCORE_INDEXES = {
  insider_scores_score: ["score", "last_ts"],
  insider_scores_market: ["condition_id", "score"],
} as const;

export const insiderScoresByIds: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    await moveToIds(db, kind, "insider_scores", INSIDER_SCORES);
    await createIdKeyedIndexes(db, "insider_scores", INSIDER_SCORE_INDEXES);
  },
};
