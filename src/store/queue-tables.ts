/**
 * Row types of the tables that hold work waiting for someone else (migration 0012_venue_figures): wallet syncs an
 * API process asked for, and chain records of markets Gamma does not list yet.
 */

/** A wallet whose sync a process asked for; the ingest process deletes the row once the sync has run. */
export interface WalletSyncRequestsTable {
  wallet: string;
  /** When it was first asked for (unix seconds); the oldest are synced first. */
  requested_at: number;
}

export type UnlistedRecordKind = "fill" | "activity" | "resolution";

/**
 * A chain record whose market Gamma did not list when it was read: a fill (by its outcome token), or a split,
 * merge, redemption or resolution (by its condition). Written with the batch that read it, moved to its table once
 * the market is known.
 */
export interface UnlistedMarketRecordsTable {
  /** The record's natural key in its own table (`fill_key`, `activity_key`, or `resolution:<condition id>`). */
  record_key: string;
  kind: UnlistedRecordKind;
  /** The outcome token (a fill) or the condition id (the others) whose market is awaited. */
  market_key: string;
  /** Block time of the record. */
  ts: number;
  /** The record as JSON, ready for its table once its market's facts are added. */
  row: string;
  /** When it was first held back (unix seconds). */
  created_at: number;
}
