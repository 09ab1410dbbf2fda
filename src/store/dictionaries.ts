/**
 * The id dictionaries of the compact layout (src/store/fill-layout.ts): each address, market and token stored once
 * with a small integer id, which fills and the id-keyed tables (src/store/id-keyed.ts) store instead of the
 * text. Ids are added in the writer's transaction, so none outlives a rollback.
 */
import type SqliteDatabase from "better-sqlite3";
import { preparedStatement } from "./sqlite-statements.js";

export interface Dictionary {
  readonly table: string;
  readonly column: string;
}

/** SQLite: a dictionary's id of a value, added if new; remembered for the call (one transaction). */
export function dictionaryIds(handle: SqliteDatabase.Database, dictionary: Dictionary): (value: string) => number {
  const find = preparedStatement(handle, `select id from ${dictionary.table} where ${dictionary.column} = ?`);
  const add = preparedStatement(handle, `insert into ${dictionary.table} (${dictionary.column}) values (?)`);
  const known = new Map<string, number>();
  return (value) => {
    let id = known.get(value);
    if (id === undefined) {
      const found = find.get(value) as { id: number } | undefined;
      id = found ? found.id : Number(add.run(value).lastInsertRowid);
      known.set(value, id);
    }
    return id;
  };
}

/**
 * PostgreSQL: SQL adding to a dictionary the values of `select` (one column `v`) it lacks, in value order, so that
 * concurrent writers take the dictionary's key locks in one order.
 */
export function addToDictionarySql(dictionary: Dictionary, select: string): string {
  return `insert into ${dictionary.table} (${dictionary.column})
    select v from (${select}) d where v is not null order by v on conflict do nothing`;
}
