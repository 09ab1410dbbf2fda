/**
 * Named counters and flags of the derived tables (`derive_state`): `stats_generation`, bumped in the transaction of
 * each rebuild and refresh of wallet_stats (API processes reload what they keep when it moves), and
 * `first_sync_derived`, set once the statistics of the ingest's first full sync are written (`ready` in health), and
 * `funding_generation`, bumped in the transaction that rewrites the funding clusters, `smart_generation`, bumped
 * in each that changes the Smart Money wallets' ids, and `insider_generation`, bumped in the transaction that
 * rewrites the insider scores.
 */
import { type Kysely, sql } from "kysely";
import type { Store, StoreTransaction } from "./database.js";
import type { Database } from "./schema.js";
import { stampRow } from "./stamp-reads.js";

export const STATS_GENERATION = "stats_generation";
export const FIRST_SYNC_DERIVED = "first_sync_derived";
export const FUNDING_GENERATION = "funding_generation";
/** Bumped in each transaction that changes `smart_wallet_ids` (src/store/smart-wallets.ts). */
export const SMART_GENERATION = "smart_generation";
/** Bumped in each transaction that rewrites `insider_scores` (src/derive/insider-scores.ts). */
export const INSIDER_GENERATION = "insider_generation";

export async function readDeriveState(db: Kysely<Database>, name: string): Promise<number> {
  const row = await db.selectFrom("derive_state").select("value").where("name", "=", name).executeTakeFirst();
  return Number(row?.value ?? 0);
}

/**
 * A counter read as a request's stamp: on SQLite remembered while the store is unchanged (src/store/stamp-reads.ts),
 * which `readDeriveState` is not (kept insider alerts: 5,006 requests a second through it, 2,821 through that).
 */
export async function deriveStateStamp(store: Store, name: string): Promise<number> {
  const row = await stampRow<{ value: number }>(store, "select value from derive_state where name = ?", [name]);
  return Number(row?.value ?? 0);
}

export async function writeDeriveState(db: Kysely<Database>, name: string, value: number): Promise<void> {
  await db
    .insertInto("derive_state")
    .values({ name, value })
    .onConflict((oc) => oc.column("name").doUpdateSet({ value }))
    .execute();
}

/** The named counters' values in one read (0 for a counter never written), in the order of `names`. */
export async function readDeriveStates(db: Kysely<Database>, names: readonly string[]): Promise<number[]> {
  const rows = await db.selectFrom("derive_state").select(["name", "value"]).where("name", "in", names).execute();
  const byName = new Map(rows.map((r) => [r.name, Number(r.value)]));
  return names.map((name) => byName.get(name) ?? 0);
}

/** Adds one to a named counter, writing it at 1 where it was never written. */
export async function bumpDeriveState(db: Kysely<Database>, name: string): Promise<void> {
  await db
    .insertInto("derive_state")
    .values({ name, value: 1 })
    .onConflict((oc) => oc.column("name").doUpdateSet({ value: sql`derive_state.value + 1` }))
    .execute();
}

/** Bumps the generation of the whole wallet_stats table, in the transaction of each rebuild and refresh. */
export async function bumpStatsGeneration(tx: StoreTransaction): Promise<void> {
  await bumpDeriveState(tx.db, STATS_GENERATION);
}
