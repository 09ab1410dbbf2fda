/**
 * The venue's per-wallet cache: open positions, closed positions and the lifetime P&L curve as the venue reports
 * them (each replaced whole at a sync), and the sync state with the counts and truncation flags that
 * docs/METRICS.md's 95% rule reads.
 */
import type { Insertable, Kysely, Selectable } from "kysely";
import type { StoreTransaction } from "./database.js";
import { deleteWhereIn, insertRows } from "./derived-tables.js";
import { replaceVenuePnlSeries } from "./pnl-series.js";
import type { Database, VenueClosedPositionsTable, VenuePositionsTable, WalletSyncTable } from "./schema.js";

export type NewVenuePosition = Insertable<VenuePositionsTable>;
export type NewVenueClosedPosition = Insertable<VenueClosedPositionsTable>;
/** A point of the venue's lifetime P&L curve of a wallet (user-pnl), in USD micro-units. */
export interface NewVenuePnlPoint {
  readonly wallet: string;
  readonly t: number;
  readonly pnl: number;
}
export type WalletSyncRow = Selectable<WalletSyncTable>;

/** The venue can list a row twice across pages; the primary key keeps one. */
function uniqueBy<T>(rows: readonly T[], key: (row: T) => string): T[] {
  return [...new Map(rows.map((r) => [key(r), r])).values()];
}

/** An id-keyed table (src/store/id-keyed.ts), written as the derived tables are: the wallet's rows replaced whole. */
async function replaceRows<T extends "venue_positions" | "venue_closed_positions">(
  tx: StoreTransaction,
  table: T,
  wallet: string,
  rows: readonly Insertable<Database[T]>[],
  key: (row: Insertable<Database[T]>) => string,
): Promise<void> {
  await deleteWhereIn(tx, table, "wallet", [wallet]);
  await insertRows(tx, table, uniqueBy(rows, key) as Database[T][]);
}

export function replaceVenuePositions(
  tx: StoreTransaction,
  wallet: string,
  rows: readonly NewVenuePosition[],
): Promise<void> {
  return replaceRows(tx, "venue_positions", wallet, rows, (r) => r.token_id);
}

export function replaceVenueClosedPositions(
  tx: StoreTransaction,
  wallet: string,
  rows: readonly NewVenueClosedPosition[],
): Promise<void> {
  return replaceRows(tx, "venue_closed_positions", wallet, rows, (r) => r.token_id);
}

/** The venue's curve of a wallet, replaced whole (src/store/pnl-series.ts packs it). */
export function replaceVenuePnlPoints(
  tx: StoreTransaction,
  wallet: string,
  rows: readonly NewVenuePnlPoint[],
): Promise<void> {
  return replaceVenuePnlSeries(
    tx,
    wallet,
    rows.map(({ t, pnl }) => ({ t, pnl })),
  );
}

export async function saveWalletSync(db: Kysely<Database>, row: WalletSyncRow): Promise<void> {
  const { wallet, ...rest } = row;
  await db
    .insertInto("wallet_sync")
    .values(row)
    .onConflict((oc) => oc.column("wallet").doUpdateSet(rest))
    .execute();
}

export async function readWalletSync(db: Kysely<Database>, wallet: string): Promise<WalletSyncRow | undefined> {
  return db.selectFrom("wallet_sync").selectAll().where("wallet", "=", wallet).executeTakeFirst();
}
