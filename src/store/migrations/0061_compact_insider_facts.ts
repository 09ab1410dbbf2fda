/**
 * Issue 49: the scored bets (`insider_score_rows`, migration 0044) stored the facts their components are computed
 * from as a JSON text of about 55 bytes a row (`[1782475576,11,496349.03,25047584.85,0,1799349590,null,0,0]`), and
 * their confidence (four places) and average price (six) as 8-byte doubles. Here each of the facts' places becomes an
 * integer column (the amounts in cents: src/store/insider-facts.ts), the confidence an integer in basis points and
 * the price in micro-units (`decimalCode`, src/store/exact-codes.ts), each kept as it was only where the integers do
 * not give it back exactly (else null, which a SQLite record keeps in its header alone). The view `insider_scores`
 * reads every value back as it was, the facts' text byte for byte, so no reader changes what it reads (three order
 * ties by outcome now: PostgreSQL gave them in the order stored, which the copy changes). The score stays a double:
 * both indexes hold it and every read filters and orders on it, which a computed value would take from them.
 * Measured on the 1,000,000-fill world (SQLite, dbstat): the rows were 4.87 bytes a fill (35,686 rows of 136 bytes,
 * 55 of them the facts' text), 3.38 after (95 bytes a row), the two indexes, made again after the copy, 1.77 -> 1.61;
 * the store 201.05 -> 199.39 bytes a fill. Every bet the Deriver scored there is stored as integers, and the view reads
 * all of them as before (each value's type and bits). The migration took 0.45 s there (peak RSS 200 MB).
 * Both stores make the table again (SQLite cannot change a column's storage in place; PostgreSQL would write every
 * row again to set its integers): the old one set aside, the new one created, the rows copied in key order a page at
 * a time, coded in TypeScript by the derived tables' own code (`storedExactly`), the old table dropped and its two
 * indexes and the view made again.
 */
import { sql, type Kysely } from "kysely";
import { exactCodeColumns } from "../exact-codes.js";
import { exactCodes, ID_KEYED, idKeyedViewSql } from "../id-keyed.js";
import { INSIDER_SCORE_INDEXES } from "./0044_insider_scores_by_ids.js";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";
import { copyExactlyCoded } from "./copy-coded.js";
import { createIdKeyedIndexes } from "./move-to-ids.js";

const { rows: ROWS } = ID_KEYED.insider_scores;
const CODES = exactCodes("insider_scores");
const KEY = ["wallet_id", "condition_ref", "outcome_index"];

/** The rows' columns from here on: 0044's (those coded exactly null where their codes hold them), then the codes. */
const COLUMNS: readonly (readonly [string, "id" | "int" | "real" | "text", "null"?])[] = [
  ["wallet_id", "id"],
  ["condition_ref", "id"],
  ["outcome_index", "int"],
  ["score", "real"],
  ["confidence", "real", "null"],
  ["bet_usd", "real"],
  ["avg_price", "real", "null"],
  ["first_ts", "int"],
  ["last_ts", "int"],
  ["cluster_id", "text", "null"],
  ["computed_at", "int"],
  ["facts", "text", "null"],
  ...exactCodeColumns(CODES).map((column) => [column, "int", "null"] as const),
];

export const compactInsiderFacts: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const run = (text: string) => sql.raw(text).execute(db);
    const before = `${ROWS}_before`;
    await run("drop view insider_scores");
    for (const index of Object.keys(INSIDER_SCORE_INDEXES)) await run(`drop index ${index}`);
    await run(`alter table ${ROWS} rename to ${before}`);
    if (kind === "postgres") await run(`alter table ${before} rename constraint ${ROWS}_pk to ${before}_pk`);
    await createRows(db, kind);
    await copyExactlyCoded(db, before, ROWS, { key: KEY, columns: COLUMNS.map(([name]) => name), codes: CODES });
    await run(`drop table ${before}`);
    await createIdKeyedIndexes(db, "insider_scores", INSIDER_SCORE_INDEXES);
    // This layout's view: the score stays a double until 0063 stores its hundredths.
    await run(idKeyedViewSql("insider_scores", kind, ["score"]));
    if (kind === "postgres") await run(`analyze ${ROWS}`);
  },
};

async function createRows(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  const t = columnTypes(kind);
  let create = db.schema.createTable(ROWS);
  for (const [name, type, nullable] of COLUMNS) {
    const dataType = type === "id" ? "integer" : t[type];
    create = create.addColumn(name, dataType, (c) => (nullable ? c : c.notNull()));
  }
  create = create.addPrimaryKeyConstraint(`${ROWS}_pk`, KEY as never);
  await (kind === "sqlite" ? create.modifyEnd(sql`without rowid`) : create).execute();
}
