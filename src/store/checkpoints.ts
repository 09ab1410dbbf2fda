/** Ingest checkpoints: where each source stopped, whether its first full sync finished, and its error count. */
import type { Kysely, Selectable } from "kysely";
import type { Database, IngestCheckpointsTable } from "./schema.js";

export type Checkpoint = Selectable<IngestCheckpointsTable>;

/** The checkpoint of the chain logs pipeline: its `history_from` tells the Deriver where the chain history starts. */
export const CHAIN_LOGS_SOURCE = "chain-logs";
/** The checkpoint of the per-wallet syncs: the last wallet synced, and the syncs that failed. */
export const WALLET_SYNC_SOURCE = "wallet-sync";

export async function readCheckpoint(db: Kysely<Database>, source: string): Promise<Checkpoint | undefined> {
  return db.selectFrom("ingest_checkpoints").selectAll().where("source", "=", source).executeTakeFirst();
}

export async function listCheckpoints(db: Kysely<Database>): Promise<Checkpoint[]> {
  return db.selectFrom("ingest_checkpoints").selectAll().orderBy("source").execute();
}

/**
 * Records a source's position. Call it in the same transaction as the writes it covers,
 * so that a crash leaves either both or neither.
 */
export async function saveCheckpoint(
  db: Kysely<Database>,
  source: string,
  cursor: string,
  now: number,
  firstSyncDone?: boolean,
): Promise<void> {
  const done = firstSyncDone === undefined ? undefined : firstSyncDone ? 1 : 0;
  await db
    .insertInto("ingest_checkpoints")
    .values({ source, cursor, first_sync_done: done ?? 0, errors: 0, last_error: null, updated_at: now })
    .onConflict((oc) =>
      oc.column("source").doUpdateSet({
        cursor,
        updated_at: now,
        ...(done === undefined ? {} : { first_sync_done: done }),
      }),
    )
    .execute();
}

/** Counts `count` errors of a source (malformed records, a failed request) without moving its cursor. */
export async function recordSourceError(
  db: Kysely<Database>,
  source: string,
  message: string,
  now: number,
  count = 1,
): Promise<void> {
  await db
    .insertInto("ingest_checkpoints")
    .values({ source, cursor: "", first_sync_done: 0, errors: count, last_error: message, updated_at: now })
    .onConflict((oc) =>
      oc.column("source").doUpdateSet((eb) => ({
        errors: eb("ingest_checkpoints.errors", "+", count),
        last_error: message,
      })),
    )
    .execute();
}

/** Records from when a source holds the venue's history; once (a later call leaves the first time). */
export async function recordHistoryFrom(db: Kysely<Database>, source: string, ts: number): Promise<void> {
  await db
    .updateTable("ingest_checkpoints")
    .set({ history_from: ts })
    .where("source", "=", source)
    .where("history_from", "is", null)
    .execute();
}

/** From when the chain logs pipeline holds the venue's history (unix seconds); null before its first batch. */
export async function chainHistoryFrom(db: Kysely<Database>): Promise<number | null> {
  const from = (await readCheckpoint(db, CHAIN_LOGS_SOURCE))?.history_from;
  return from == null ? null : Number(from);
}

/**
 * Whether a chain history from `chainFrom` holds every wallet's whole history: it starts at or before the venue's
 * first record (VENUE_HISTORY_START), so no wallet can have anything before it. Unknown either way: false.
 */
export function holdsWholeHistory(chainFrom: number | null, venueHistoryStart: number | undefined): boolean {
  return chainFrom !== null && venueHistoryStart !== undefined && chainFrom <= venueHistoryStart;
}

/** `holdsWholeHistory` of the stored chain history. */
export async function chainHoldsWholeHistory(
  db: Kysely<Database>,
  venueHistoryStart: number | undefined,
): Promise<boolean> {
  return holdsWholeHistory(await chainHistoryFrom(db), venueHistoryStart);
}
