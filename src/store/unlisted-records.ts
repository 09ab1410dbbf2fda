/**
 * Chain records whose market Gamma did not list yet (`unlisted_market_records`): held in the transaction of the batch
 * that read them (so the chain cursor may move past them and nothing is lost), moved to their tables by the
 * transaction that finds their market, counted by health while they wait.
 */
import type { Kysely } from "kysely";
import type { StoreTransaction } from "./database.js";
import type { UnlistedRecordKind } from "./queue-tables.js";
import { inSlices } from "./raw-sql.js";
import type { Database } from "./schema.js";

export interface HeldRecord<R> {
  readonly key: string;
  readonly kind: UnlistedRecordKind;
  /** The outcome token (a fill) or the condition (the others) whose market is awaited. */
  readonly marketKey: string;
  readonly ts: number;
  readonly row: R;
}

const ROWS_PER_STATEMENT = 500;

/** Holds records until their market is listed; a record held already stays as it is. */
export async function holdUnlistedRecords(
  tx: StoreTransaction,
  records: readonly HeldRecord<unknown>[],
  now: number,
): Promise<void> {
  for (let i = 0; i < records.length; i += ROWS_PER_STATEMENT) {
    const values = records.slice(i, i + ROWS_PER_STATEMENT).map((r) => ({
      record_key: r.key,
      kind: r.kind,
      market_key: r.marketKey,
      ts: r.ts,
      row: JSON.stringify(r.row),
      created_at: now,
    }));
    await tx.db
      .insertInto("unlisted_market_records")
      .values(values)
      .onConflict((oc) => oc.column("record_key").doNothing())
      .execute();
  }
}

/** The markets awaited, per kind of record: outcome tokens (fills) and conditions (activity and resolutions). */
export async function awaitedMarkets(db: Kysely<Database>): Promise<{ tokens: string[]; conditions: string[] }> {
  const rows = await db.selectFrom("unlisted_market_records").select(["kind", "market_key"]).distinct().execute();
  return {
    tokens: rows.filter((r) => r.kind === "fill").map((r) => r.market_key),
    conditions: rows.filter((r) => r.kind !== "fill").map((r) => r.market_key),
  };
}

/** The held records of these markets, oldest first. */
export async function heldRecordsOf(
  db: Kysely<Database>,
  marketKeys: readonly string[],
): Promise<HeldRecord<unknown>[]> {
  const rows = await inSlices(marketKeys, (slice) =>
    db.selectFrom("unlisted_market_records").selectAll().where("market_key", "in", slice).execute(),
  );
  return rows
    .sort((a, b) => a.ts - b.ts || (a.record_key < b.record_key ? -1 : 1))
    .map((r) => ({
      key: r.record_key,
      kind: r.kind,
      marketKey: r.market_key,
      ts: Number(r.ts),
      row: JSON.parse(r.row) as unknown,
    }));
}

/** Deletes held records (once written to their tables, in the same transaction). */
export async function releaseHeldRecords(tx: StoreTransaction, keys: readonly string[]): Promise<void> {
  await inSlices(keys, (slice) =>
    tx.db.deleteFrom("unlisted_market_records").where("record_key", "in", slice).execute(),
  );
}

/** Drops the held records of these kinds first held before `before` (unix seconds); returns how many. */
export async function dropHeldRecords(
  db: Kysely<Database>,
  kinds: readonly UnlistedRecordKind[],
  before: number,
): Promise<number> {
  const result = await db
    .deleteFrom("unlisted_market_records")
    .where("kind", "in", kinds)
    .where("created_at", "<", before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Records waiting for their market. */
export async function countHeldRecords(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("unlisted_market_records")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
