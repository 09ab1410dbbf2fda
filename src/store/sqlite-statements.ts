/** Prepared statements of the raw SQLite handle, prepared once per handle and SQL text. */
import type { Database, Statement } from "better-sqlite3";

const cache = new WeakMap<Database, Map<string, Statement>>();

export function preparedStatement(handle: Database, text: string): Statement {
  let statements = cache.get(handle);
  if (!statements) cache.set(handle, (statements = new Map()));
  let statement = statements.get(text);
  if (!statement) statements.set(text, (statement = handle.prepare(text)));
  return statement;
}
