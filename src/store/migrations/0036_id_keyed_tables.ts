/**
 * Issue 49: the daily position snapshots, a wallet's fees, daily fill counts and last moves store each wallet and
 * market as its id (src/store/id-keyed.ts), as the P&L series have since 0031. On the 1,000,000-fill world the
 * snapshots alone were 108 bytes a fill on SQLite, mostly the 42-character address and 66-character condition id of
 * every row. Each table's rows are copied to its rows table with the ids (values not in the dictionaries yet are
 * added), in key order; the table is dropped and a view by its name reads the rows as before. The P&L series' views
 * are created again by the same rule (outer joins, which a query that reads no address leaves out).
 */
import { sql, type Kysely } from "kysely";
import { addToDictionarySql } from "../dictionaries.js";
import { ID_COLUMNS, ID_KEYED, type IdKeyedTable, idKeyedViewSql, storedColumn } from "../id-keyed.js";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

type Type = "int" | "real" | "text" | "id";

/** The moved tables' columns (as they were at 0036), each with its type and whether it may be null, and their keys. */
const MOVED: Record<string, { columns: [string, Type, "null"?][]; key: string[] }> = {
  position_snapshots: {
    columns: [
      ["day", "int"],
      ["wallet", "id"],
      ["condition_id", "id"],
      ["yes_shares", "int"],
      ["yes_cost", "real"],
      ["no_shares", "int"],
      ["no_cost", "real"],
    ],
    key: ["day", "wallet", "condition_id"],
  },
  wallet_fees: {
    columns: [
      ["wallet", "id"],
      ["month", "text"],
      ["entry_type", "text"],
      ["role", "text"],
      ["fees", "int"],
      ["volume", "int"],
      ["fills", "int"],
      ["charged", "int"],
    ],
    key: ["wallet", "month", "entry_type", "role"],
  },
  wallet_daily_fills: {
    columns: [
      ["wallet", "id"],
      ["day", "int"],
      ["fills", "int"],
      ["usd", "int"],
    ],
    key: ["wallet", "day"],
  },
  wallet_last_moves: {
    columns: [
      ["wallet", "id"],
      ["condition_id", "id"],
      ["ts", "int"],
      ["fill_id", "int"],
      ["side", "text"],
      ["outcome_index", "int"],
      ["entry_type", "text", "null"],
      ["size", "int"],
      ["usd", "int"],
      ["price", "real"],
    ],
    key: ["wallet", "condition_id"],
  },
};

async function moveTable(db: Kysely<unknown>, kind: StoreKind, table: IdKeyedTable): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const { columns, key } = MOVED[table]!;
  const { rows } = ID_KEYED[table];
  const t = columnTypes(kind);
  const ids = columns.filter(([, type]) => type === "id").map(([name]) => name);
  for (const name of ids)
    await run(addToDictionarySql(ID_COLUMNS[name]!.dictionary, `select distinct ${name} as v from ${table}`));
  let create = db.schema.createTable(rows);
  for (const [name, type, nullable] of columns) {
    const dataType = type === "id" ? "integer" : t[type];
    create = create.addColumn(storedColumn(name), dataType, (c) => (nullable ? c : c.notNull()));
  }
  create = create.addPrimaryKeyConstraint(`${rows}_pk`, key.map(storedColumn) as never);
  await (kind === "sqlite" ? create.modifyEnd(sql`without rowid`) : create).execute();
  const joins = ids.map((name, i) => {
    const { table: dictionary, column } = ID_COLUMNS[name]!.dictionary;
    return `join ${dictionary} d${i} on d${i}.${column} = o.${name}`;
  });
  const values = columns.map(([name]) => (ids.includes(name) ? `d${ids.indexOf(name)}.id` : `o.${name}`));
  const order = key.map((name) => columns.findIndex(([c]) => c === name) + 1).join(", ");
  await run(`insert into ${rows} (${columns.map(([name]) => storedColumn(name)).join(", ")})
    select ${values.join(", ")} from ${table} o ${joins.join(" ")} order by ${order}`);
  await run(`drop table ${table}`);
  await run(idKeyedViewSql(table));
  if (kind === "postgres") await run(`analyze ${rows}`);
}

export const idKeyedTables: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    for (const table of Object.keys(MOVED) as IdKeyedTable[]) await moveTable(db, kind, table);
    for (const table of ["pnl_points", "venue_pnl_points"] as const) {
      await sql.raw(`drop view ${table}`).execute(db);
      await sql.raw(idKeyedViewSql(table)).execute(db);
    }
  },
};
