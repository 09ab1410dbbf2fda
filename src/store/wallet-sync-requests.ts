/**
 * Wallet syncs asked for by any process (`wallet_sync_requests`): an API process, which runs no ingest, records the
 * wallets whose first view wants a sync; the ingest process takes the oldest, syncs them and deletes their rows. A
 * request survives restarts of either process; asking again for a wallet already waiting adds nothing.
 */
import type { Kysely } from "kysely";
import { inSlices } from "./raw-sql.js";
import type { Database } from "./schema.js";

const ROWS_PER_STATEMENT = 500;

/** Asks for these wallets' syncs (lower-case addresses). */
export async function requestWalletSyncs(db: Kysely<Database>, wallets: readonly string[], now: number): Promise<void> {
  for (let i = 0; i < wallets.length; i += ROWS_PER_STATEMENT) {
    const values = wallets.slice(i, i + ROWS_PER_STATEMENT).map((wallet) => ({ wallet, requested_at: now }));
    await db
      .insertInto("wallet_sync_requests")
      .values(values)
      .onConflict((oc) => oc.column("wallet").doNothing())
      .execute();
  }
}

/** The oldest requests, at most `limit`, leaving out `except` (those already under way). */
export async function oldestWalletSyncRequests(
  db: Kysely<Database>,
  limit: number,
  except: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const rows = await db
    .selectFrom("wallet_sync_requests")
    .select("wallet")
    .orderBy("requested_at")
    .orderBy("wallet")
    .limit(limit + except.size)
    .execute();
  return rows
    .map((r) => r.wallet)
    .filter((w) => !except.has(w))
    .slice(0, limit);
}

export async function deleteWalletSyncRequests(db: Kysely<Database>, wallets: readonly string[]): Promise<void> {
  await inSlices(wallets, (slice) => db.deleteFrom("wallet_sync_requests").where("wallet", "in", slice).execute());
}

export async function countWalletSyncRequests(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("wallet_sync_requests")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
