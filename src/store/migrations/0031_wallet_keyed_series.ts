/**
 * Issue 49: the P&L series store each wallet as its id (src/store/id-keyed.ts). The hourly and daily P&L points
 * and the venue's P&L points were 104 bytes a fill of the 1,000,000-fill world on SQLite and 251 on PostgreSQL, most
 * of it the 42-character address in every row and again in every key entry. Each table's rows are copied to
 * `<name>_rows` with the address's id (addresses not in the dictionary yet are added), in key order; the table is
 * dropped and a view by its name reads the rows as before.
 */
import { sql, type Kysely } from "kysely";
import { addToDictionarySql } from "../dictionaries.js";
import { FILL_DICTIONARIES } from "../fill-layout.js";
import { idKeyedViewSql } from "../id-keyed.js";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

/** The tables this migration moved, with their columns besides the wallet (as they were at 0031). */
const SERIES = {
  pnl_points: { rows: "pnl_point_rows", columns: ["resolution", "t", "pnl"] },
  venue_pnl_points: { rows: "venue_pnl_point_rows", columns: ["t", "pnl"] },
} as const;

type Series = keyof typeof SERIES;

async function createRowsTable(db: Kysely<unknown>, kind: StoreKind, table: Series): Promise<void> {
  const t = columnTypes(kind);
  const { rows } = SERIES[table];
  const hourly = table === "pnl_points";
  let create = db.schema.createTable(rows).addColumn("wallet_id", "integer", (c) => c.notNull());
  if (hourly) create = create.addColumn("resolution", t.text, (c) => c.notNull());
  create = create
    .addColumn("t", t.int, (c) => c.notNull())
    .addColumn("pnl", hourly ? t.real : t.int, (c) => c.notNull())
    .addPrimaryKeyConstraint(`${rows}_pk`, (hourly ? ["wallet_id", "resolution", "t"] : ["wallet_id", "t"]) as never);
  await (kind === "sqlite" ? create.modifyEnd(sql`without rowid`) : create).execute();
}

export const walletKeyedSeries: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const run = (text: string) => sql.raw(text).execute(db);
    const { table: addresses, column } = FILL_DICTIONARIES.addresses;
    for (const table of Object.keys(SERIES) as Series[]) {
      const { rows, columns } = SERIES[table];
      await run(addToDictionarySql(FILL_DICTIONARIES.addresses, `select distinct wallet as v from ${table}`));
      await createRowsTable(db, kind, table);
      const key = table === "pnl_points" ? "1, 2, 3" : "1, 2";
      await run(`insert into ${rows} (wallet_id, ${columns.join(", ")})
        select a.id, ${columns.map((c) => `p.${c}`).join(", ")}
        from ${table} p join ${addresses} a on a.${column} = p.wallet order by ${key}`);
      await run(`drop table ${table}`);
      await run(idKeyedViewSql(table));
      if (kind === "postgres") await run(`analyze ${rows}`);
    }
  },
};
