/**
 * A table's rows copied into another in key order, a page at a time, each row's exactly coded columns stored as the
 * derived tables' writer stores them (`storedExactly`, src/store/exact-codes.ts): for a migration that codes the rows
 * already stored by the same function that codes the rows written after it (0061's scored bets, 0065's snapshots).
 */
import { sql, type Kysely } from "kysely";
import { type ExactCode, storedExactly } from "../exact-codes.js";

type Row = Record<string, unknown>;

/** Rows read from the old table at a time. */
const PAGE_ROWS = 5_000;
/** Parameters one insert binds at most (SQLite allows 32,766, PostgreSQL 65,535). */
const INSERT_PARAMETERS = 10_000;

export interface CodedCopy {
  /** The key both tables are ordered by: the old one is read a page at a time after the last row copied. */
  readonly key: readonly string[];
  /** The new table's columns: the old one's, and the codes. */
  readonly columns: readonly string[];
  readonly codes: Readonly<Record<string, ExactCode>>;
}

export async function copyExactlyCoded(db: Kysely<unknown>, from: string, to: string, copy: CodedCopy): Promise<void> {
  const { key, columns, codes } = copy;
  const ordered = sql.join(key.map((c) => sql.ref(c)));
  const names = sql.join(columns.map((c) => sql.ref(c)));
  const perInsert = Math.floor(INSERT_PARAMETERS / columns.length);
  let after: readonly unknown[] | null = null;
  for (;;) {
    const rest = after ? sql`where (${ordered}) > (${sql.join(after)})` : sql``;
    const page: Row[] = (
      await sql<Row>`select * from ${sql.table(from)} ${rest} order by ${ordered} limit ${PAGE_ROWS}`.execute(db)
    ).rows;
    for (let start = 0; start < page.length; start += perInsert) {
      const values = page.slice(start, start + perInsert).map((row) => {
        const coded = storedExactly(codes, row);
        return sql`(${sql.join(columns.map((c) => coded[c] ?? null))})`;
      });
      await sql`insert into ${sql.table(to)} (${names}) values ${sql.join(values)}`.execute(db);
    }
    if (page.length < PAGE_ROWS) return;
    const last = page.at(-1)!;
    after = key.map((c) => last[c]);
  }
}
