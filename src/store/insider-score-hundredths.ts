/**
 * A scored bet's score as `insider_score_rows` stores it since migration 0063 (issue 49): the whole count of
 * hundredths of a point it is (`score_hundredths`, 43.03 as 4303), where it was an 8-byte double. A SQLite record
 * keeps a count up to 100.00 in two bytes, in the row and in both indexes that hold the score
 * (`insider_scores_score`, `insider_scores_market`); PostgreSQL stores it as `integer`. The scorer rounds every score
 * to hundredths (`scoreOfHundredths`, src/ledger/insider-score.ts, which the store may not import), and the store
 * refuses any other score, on both stores, rather than keep it beside its count: a kept double would have to sort
 * within its count in both indexes. The view `insider_scores` reads the score back as the double it was (the count
 * over 100, one correctly rounded division on both stores, as in JavaScript). The count sorts as the score does, so
 * the reads that filter or order on the score do so on the stored count (`scoredBetsWithScoreCode`, as `score_code`,
 * with `hundredthsFrom` for a threshold), which the indexes hold: the view's score is computed, and a filter on it
 * reaches neither index. Decision: docs/decisions.md, "Scored bets store their score in hundredths".
 */
import { type ColumnCode, qualified } from "./coded-columns.js";
import { doubleSql } from "./exact-codes.js";

const HUNDREDTHS = 100;

/** The score a count of hundredths reads back as. */
const scoreOf = (hundredths: number): number => hundredths / HUNDREDTHS;

/** A score as stored: its whole count of hundredths; a score that is none is refused (it would not read back). */
export function scoreHundredths(score: number): number {
  // `+ 0` turns a -0 into 0, which reads back as 0, not the -0 it came from: such a score is refused.
  const hundredths = Math.round(score * HUNDREDTHS) + 0;
  if (!Number.isSafeInteger(hundredths) || !Object.is(scoreOf(hundredths), score))
    throw new Error(`store: insider score ${score} is not a whole number of hundredths`);
  return hundredths;
}

/**
 * The least count of hundredths whose score is `least` or more: `score >= least` as a condition on the stored count,
 * for any threshold (79.995 too). `least` times 100 is rounded, so the count found from it moves to the exact bound.
 */
export function hundredthsFrom(least: number): number {
  let hundredths = Math.ceil(least * HUNDREDTHS);
  if (!Number.isSafeInteger(hundredths)) return hundredths;
  while (scoreOf(hundredths - 1) >= least) hundredths -= 1;
  while (scoreOf(hundredths) < least) hundredths += 1;
  return hundredths;
}

/** SQL: a count of hundredths read back as its score, the same double on both stores. */
const scoreSql = (hundredths: string) => `(${doubleSql(hundredths)} / ${HUNDREDTHS})`;

/**
 * `insider_scores.score` as stored. In SQL (the migration, PostgreSQL's staged rows) a score is turned into its count
 * only where the count reads back as the score, else into null, which the column refuses.
 */
export const SCORE_CODE = {
  number: true,
  storedAs: "score_hundredths",
  stored: (value) => scoreHundredths(value as number),
  textSql: (alias) => scoreSql(`${alias}.score_hundredths`),
  codeSql: (alias?: string) => {
    const score = qualified(alias, "score");
    const hundredths = `cast(round(${score} * ${HUNDREDTHS}) as integer)`;
    return `(case when ${scoreSql(hundredths)} = ${score} then ${hundredths} end)`;
  },
} as const satisfies ColumnCode;
