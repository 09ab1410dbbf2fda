/**
 * Stamp reads: the one indexed row a request reads to learn whether an answer kept for it still holds
 * (src/analytics/wallet/wallet-stamps.ts). On SQLite every statement that reads a table first takes the WAL's read lock
 * (system calls on the shared-memory file): measured 2 µs alone, 8-10 µs under load, more than finding the row,
 * and paid on every request of a kept answer. So on SQLite a stamp read is remembered while the store is unchanged:
 * while this connection has changed no row (`total_changes()`, which takes no lock) and no other connection or
 * process has committed (`pragma data_version`, looked at no more often than every DATA_VERSION_CHECK_MS). A write
 * of this process is seen by the next read, one of another process at most DATA_VERSION_CHECK_MS later.
 * PostgreSQL: read every time (a round trip has no such shortcut).
 */
import type SqliteDatabase from "better-sqlite3";
import type { Store } from "./database.js";
import { queryRows } from "./raw-sql.js";

export const DATA_VERSION_CHECK_MS = 100;
/** Remembered reads at most; past it they are all dropped (a stamp read is one row, a few hundred bytes). */
const REMEMBERED_READS = 100_000;

class SqliteStampMemo {
  private readonly changes: SqliteDatabase.Statement;
  private readonly dataVersion: SqliteDatabase.Statement;
  private lastDataVersion = -1;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private version = "";
  private readonly reads = new Map<string, readonly unknown[]>();

  constructor(handle: SqliteDatabase.Database) {
    this.changes = handle.prepare("select total_changes()").pluck();
    this.dataVersion = handle.prepare("pragma data_version").pluck();
  }

  /** What the store holds now, as far as stamps go: moves with every change of a row, ours at once, others' soon. */
  private currentVersion(): string {
    const now = performance.now();
    if (now - this.checkedAt >= DATA_VERSION_CHECK_MS) {
      this.lastDataVersion = this.dataVersion.get() as number;
      this.checkedAt = now;
    }
    return `${this.changes.get() as number}:${this.lastDataVersion}`;
  }

  async rows<T>(store: Store, text: string, params: readonly unknown[]): Promise<readonly T[]> {
    const version = this.currentVersion();
    if (version !== this.version) {
      this.reads.clear();
      this.version = version;
    }
    const key = `${text}\u0000${params.join("\u0000")}`;
    const known = this.reads.get(key);
    if (known) return known as readonly T[];
    // Read after the version was taken: what is remembered under it is never older than it.
    const rows = await queryRows<T>(store.db, store.kind, text, params);
    if (this.version === version) {
      if (this.reads.size >= REMEMBERED_READS) this.reads.clear();
      this.reads.set(key, rows);
    }
    return rows;
  }
}

const memos = new WeakMap<Store, SqliteStampMemo>();

/** The rows of a stamp's SQL text (`?` placeholders); callers must not change them (they may be shared). */
export function stampRows<T>(store: Store, text: string, params: readonly unknown[]): Promise<readonly T[]> {
  if (!store.sqlite) return queryRows<T>(store.db, store.kind, text, params);
  let memo = memos.get(store);
  if (!memo) memos.set(store, (memo = new SqliteStampMemo(store.sqlite)));
  return memo.rows<T>(store, text, params);
}

export async function stampRow<T>(store: Store, text: string, params: readonly unknown[]): Promise<T | undefined> {
  return (await stampRows<T>(store, text, params))[0];
}
