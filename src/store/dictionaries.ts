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

/**
 * SQLite: a dictionary's id of a value, added if new; remembered for the call (one transaction), or in `known` for a
 * writer whose work is dropped with any transaction of it that rolls back (`DictionaryIdCache`).
 */
export function dictionaryIds(
  handle: SqliteDatabase.Database,
  dictionary: Dictionary,
  known = new Map<string, number>(),
): (value: string) => number {
  const find = preparedStatement(handle, `select id from ${dictionary.table} where ${dictionary.column} = ?`);
  const add = preparedStatement(handle, `insert into ${dictionary.table} (${dictionary.column}) values (?)`);
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

/** A dictionary's texts by id, read from the store as far as ids go; ids added later are read when first met. */
export class DictionaryTexts {
  private readonly texts: string[] = [];
  private readHighest = 0;

  constructor(
    private readonly handle: SqliteDatabase.Database,
    private readonly dictionary: Dictionary,
  ) {
    this.readAbove();
  }

  private readAbove(): void {
    const rows = preparedStatement(
      this.handle,
      `select id, ${this.dictionary.column} from ${this.dictionary.table} where id > ? order by id`,
    )
      .raw(true)
      .all(this.readHighest) as Array<[number, string]>;
    for (const [id, text] of rows) this.texts[id] = text;
    if (rows.length > 0) this.readHighest = rows[rows.length - 1]![0];
  }

  text(id: number): string {
    let text = this.texts[id];
    if (text === undefined) {
      this.readAbove();
      text = this.texts[id];
      if (text === undefined) throw new Error(`store: no ${this.dictionary.table} row ${id}`);
    }
    return text;
  }
}

/**
 * Ids remembered across the write calls of one piece of work that fails whole (a rebuild: any of its transactions
 * that rolls back ends it, and the cache with it), so that each value is looked up once, not once per call: an id
 * added in a transaction that rolled back must never be used after it.
 */
export class DictionaryIdCache {
  private readonly byTable = new Map<string, Map<string, number>>();

  of(dictionary: Dictionary): Map<string, number> {
    let known = this.byTable.get(dictionary.table);
    if (!known) this.byTable.set(dictionary.table, (known = new Map()));
    return known;
  }
}

/**
 * PostgreSQL: SQL adding to a dictionary the values of `select` (one column `v`) it lacks, in value order, so that
 * concurrent writers take the dictionary's key locks in one order.
 */
export function addToDictionarySql(dictionary: Dictionary, select: string): string {
  return `insert into ${dictionary.table} (${dictionary.column})
    select v from (${select}) d where v is not null order by v on conflict do nothing`;
}

/**
 * SQL: the dictionary's value of the id `id` (an expression), as a scalar subquery over alias `alias`: a statement
 * that does not read the value does not read the id either, and a group reads it once (a join of the groups merged
 * PostgreSQL's plan with the whole dictionary).
 */
export function dictionaryValueSql(dictionary: Dictionary, id: string, alias: string): string {
  return `(select ${alias}.${dictionary.column} from ${dictionary.table} ${alias} where ${alias}.id = ${id})`;
}
