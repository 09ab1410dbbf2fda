/**
 * A table moved to its id-keyed rows table (src/store/id-keyed.ts), for the migrations that move one (0036, 0041,
 * 0043, 0044, 0056):
 * the values its id columns name added to their dictionaries, the rows table created with its key (WITHOUT ROWID on
 * SQLite: the rows are their key), the rows copied in key order with their ids, the table dropped and a view by its
 * name made to read the rows as before (its other columns as they are: a table's columns coded later, as 0056 codes
 * those 0036 moved, get their view made again).
 */
import { sql, type Kysely } from "kysely";
import { addToDictionarySql } from "../dictionaries.js";
import { ID_COLUMNS, ID_KEYED, type IdKeyedTable, idKeyedViewSql, storedColumn } from "../id-keyed.js";
import { columnTypes, type StoreKind } from "./column-types.js";

type Type = "int" | "real" | "text" | "id";

/** A table's columns as they were when it moved, each with its type and whether it may be null, and its key. */
export interface MovedTable {
  readonly columns: readonly (readonly [string, Type, "null"?])[];
  readonly key: readonly string[];
}

export async function moveToIds(
  db: Kysely<unknown>,
  kind: StoreKind,
  table: IdKeyedTable,
  moved: MovedTable,
): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const { columns, key } = moved;
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

/** Indexes on an id-keyed table's rows, each by the columns readers know (stored as their ids where they are). */
export async function createIdKeyedIndexes(
  db: Kysely<unknown>,
  table: IdKeyedTable,
  indexes: Readonly<Record<string, readonly string[]>>,
): Promise<void> {
  for (const [name, columns] of Object.entries(indexes))
    await sql
      .raw(`create index ${name} on ${ID_KEYED[table].rows} (${columns.map(storedColumn).join(", ")})`)
      .execute(db);
}
