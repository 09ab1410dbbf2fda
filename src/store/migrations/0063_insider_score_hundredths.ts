/**
 * Issue 49: the scored bets (`insider_score_rows`, migration 0061) stored their score as an 8-byte double, in the row
 * and again in both indexes that hold it (`insider_scores_score` on score and recency, `insider_scores_market` on the
 * market and score). Every score the scorer writes is a whole number of hundredths (43.03), so here the column becomes
 * that count as an integer, `score_hundredths` (4303: two bytes in a SQLite record, 1 for a score under 1.28;
 * src/store/insider-score-hundredths.ts), on which both indexes are made again. The view `insider_scores` reads the
 * score back as the double it was, and the reads that filter or order on the score do so on the count, which keeps
 * them on the indexes. A stored score that is not a whole number of hundredths (the scorer never wrote one) stops
 * the migration, as the writer refuses one: kept as a double beside its count, it would have had to sort within that
 * count in both indexes.
 * Measured on the 1,000,000-fill world (SQLite, dbstat): the rows 3.31 -> 3.10 bytes a fill (35,686 rows, 6 bytes
 * fewer each), `insider_scores_score` 0.97 -> 0.67, `insider_scores_market` 0.80 -> 0.51 (made again packed; as the
 * Deriver rewrites them, 0.95 -> 0.71 and 0.77 -> 0.54): 5.08 -> 4.28, the store's b-trees 197.56 -> 196.76. The
 * view reads every row as before (each value's type and bits). The migration took 0.25 s there (peak RSS 149 MB).
 * On PostgreSQL only the market's index shrinks (1.14 -> 0.74): elsewhere the `integer` is padded to the 8-byte
 * column after it, as a `smallint` would be.
 * SQLite rebuilds the table in key order with the column as an integer (its indexes made again from their SQL);
 * PostgreSQL changes the column to `integer`, which makes its indexes again, and analyzes the table. Both then rename
 * the column, which each store carries over to the indexes.
 * Decision: docs/decisions.md, "Scored bets store their score in hundredths".
 */
import { sql, type Kysely } from "kysely";
import { ID_KEYED, idKeyedViewSql } from "../id-keyed.js";
import { SCORE_CODE, scoreHundredths } from "../insider-score-hundredths.js";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { rebuildSqliteTable, sqliteColumns } from "./sqlite-rebuild.js";

const { rows: ROWS } = ID_KEYED.insider_scores;

export const insiderScoreHundredths: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const run = (text: string) => sql.raw(text).execute(db);
    await refuseScoresWithoutHundredths(db);
    await run("drop view insider_scores");
    if (kind === "sqlite") await rebuildSqlite(db);
    else await run(`alter table ${ROWS} alter column score type integer using ${SCORE_CODE.codeSql()}`);
    await run(`alter table ${ROWS} rename column score to ${SCORE_CODE.storedAs}`);
    await run(idKeyedViewSql("insider_scores", kind));
    if (kind === "postgres") await run(`analyze ${ROWS}`);
  },
};

/** Every stored score checked by the writer's own rule (`scoreHundredths`), which throws at one it cannot store. */
async function refuseScoresWithoutHundredths(db: Kysely<unknown>): Promise<void> {
  const scores = await sql<{ score: number }>`select distinct score from ${sql.table(ROWS)}`.execute(db);
  for (const { score } of scores.rows) scoreHundredths(Number(score));
}

/** The table made again with the score as its count of hundredths, its rows converted on the way, in key order. */
async function rebuildSqlite(db: Kysely<unknown>): Promise<void> {
  const columns = await sqliteColumns(db, ROWS);
  const select = columns.map((c) => (c === "score" ? `${SCORE_CODE.codeSql()} as score` : c)).join(", ");
  const integer = (definition: string) => definition.replace(/"score" real/i, `"score" integer`);
  // The key (wallet_id, condition_ref, outcome_index) is the select list's first three columns.
  await rebuildSqliteTable(db, ROWS, integer, { order: "1, 2, 3", select });
}
