/**
 * A read with a time-out on its statements. PostgreSQL cancels a statement past it itself (`statement_timeout`, set
 * for one transaction); SQLite cannot be interrupted from here (better-sqlite3 runs a statement to its end on the
 * calling thread), so a caller on SQLite keeps each statement small and checks its own deadline between them.
 */
import { PelagicError } from "../errors/index.js";
import type { Kysely } from "kysely";
import type { Store } from "./database.js";
import type { Database } from "./schema.js";

/** A statement ran past its time-out and was cancelled. */
export class StatementTimeout extends PelagicError {
  constructor(readonly timeoutMs: number) {
    super("STORE_STATEMENT_TIMEOUT", `statement ran past its ${timeoutMs} ms time-out`);
  }
}

/** PostgreSQL's SQLSTATE for a statement cancelled by statement_timeout (query_canceled). */
const QUERY_CANCELED = "57014";

export async function withStatementTimeout<T>(
  store: Store,
  timeoutMs: number,
  read: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (store.kind === "sqlite") return read(store.db);
  try {
    return await store.transaction(async (tx) => {
      if (tx.raw.kind === "postgres")
        await tx.raw.client.query(`set local statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
      return read(tx.db);
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === QUERY_CANCELED) throw new StatementTimeout(timeoutMs);
    throw error;
  }
}
