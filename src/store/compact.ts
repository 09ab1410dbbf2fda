/**
 * Giving a store's free space back to the file system (`pelagic migrate --compact`). SQLite keeps the pages a
 * migration freed (0029 and 0030 rebuild tables: a quarter of a migrated 1,000,000-fill store's file) for its own
 * later growth; VACUUM writes the store again without them (it needs free disk about the store's size), then the
 * WAL is emptied into the file. PostgreSQL gives a dropped table's files back at once: nothing to do.
 */
import type { Store } from "./database.js";

export interface Compaction {
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

export async function compactStore(store: Store): Promise<Compaction | null> {
  const handle = store.sqlite;
  if (!handle) return null;
  const size = () =>
    (handle.pragma("page_count", { simple: true }) as number) *
    (handle.pragma("page_size", { simple: true }) as number);
  const bytesBefore = size();
  handle.exec("vacuum");
  handle.pragma("wal_checkpoint(TRUNCATE)");
  return { bytesBefore, bytesAfter: size() };
}
