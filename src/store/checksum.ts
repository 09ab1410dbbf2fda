/**
 * Count and checksum of what ingest stored (fills, wallet activity, chain resolutions), for comparing a store
 * with another store or with a simulation's ground truth. Each row becomes one canonical line (exact fields
 * only: integers and strings, never the float `price`); the digest is the sum of the lines' SHA-256 prefixes
 * modulo 2^128, so it does not depend on row order, which differs between dialects and between runs.
 * Ground-truth code builds the same row shapes and feeds the same line functions to a ChecksumAccumulator.
 */
import { createHash } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import type { Database, FillsTable, MarketResolutionsTable, WalletActivityTable } from "./schema.js";

export type FillChecksumFields = Pick<
  FillsTable,
  | "fill_key"
  | "source"
  | "wallet"
  | "counterparty"
  | "role"
  | "condition_id"
  | "token_id"
  | "outcome_index"
  | "side"
  | "size"
  | "usd"
  | "fee"
  | "ts"
  | "entry_type"
  | "exchange_version"
  | "block_number"
>;

export type ActivityChecksumFields = Pick<
  WalletActivityTable,
  | "activity_key"
  | "source"
  | "wallet"
  | "type"
  | "condition_id"
  | "token_id"
  | "outcome_index"
  | "size"
  | "usd"
  | "ts"
  | "neg_risk_market_id"
  | "index_set"
  | "fee"
>;

export type ResolutionChecksumFields = Pick<
  MarketResolutionsTable,
  "condition_id" | "resolution" | "payout_numerators" | "resolved_at" | "block_number" | "tx_hash" | "log_index"
>;

const field = (value: string | number | null | undefined) =>
  value === null || value === undefined ? "" : String(value);

export function fillChecksumLine(f: FillChecksumFields): string {
  return [
    f.fill_key,
    f.source,
    f.wallet,
    f.counterparty,
    f.role,
    f.condition_id,
    f.token_id,
    f.outcome_index,
    f.side,
    f.size,
    f.usd,
    f.fee,
    f.ts,
    f.entry_type,
    f.exchange_version,
    f.block_number,
  ]
    .map(field)
    .join("|");
}

export function activityChecksumLine(a: ActivityChecksumFields): string {
  return [
    a.activity_key,
    a.source,
    a.wallet,
    a.type,
    a.condition_id,
    a.token_id,
    a.outcome_index,
    a.size,
    a.usd,
    a.ts,
    a.neg_risk_market_id,
    a.index_set,
    a.fee,
  ]
    .map(field)
    .join("|");
}

export function resolutionChecksumLine(r: ResolutionChecksumFields): string {
  return [r.condition_id, r.resolution, r.payout_numerators, r.resolved_at, r.block_number, r.tx_hash, r.log_index]
    .map(field)
    .join("|");
}

export interface TableDigest {
  readonly count: number;
  /** 32 hex digits. */
  readonly digest: string;
}

const MOD = 1n << 128n;

export class ChecksumAccumulator {
  private count = 0;
  private sum = 0n;

  add(line: string): void {
    const hash = createHash("sha256").update(line).digest();
    this.sum = (this.sum + ((hash.readBigUInt64BE(0) << 64n) | hash.readBigUInt64BE(8))) % MOD;
    this.count += 1;
  }

  result(): TableDigest {
    return { count: this.count, digest: this.sum.toString(16).padStart(32, "0") };
  }
}

export interface StoreChecksum {
  readonly fills: TableDigest;
  readonly activity: TableDigest;
  readonly resolutions: TableDigest;
}

const PAGE = 20_000;

/** Every row of a table with a serial `id`, page by page, into an accumulator. */
async function accumulate<T extends "fills" | "wallet_activity">(
  db: Kysely<Database>,
  table: T,
  line: (row: Selectable<Database[T]>) => string,
): Promise<TableDigest> {
  const sum = new ChecksumAccumulator();
  const rows = db as unknown as Kysely<{ t: { id: number } }>;
  for (let after = 0; ; ) {
    const page = await rows
      .selectFrom(table as unknown as "t")
      .selectAll()
      .where("id", ">", after)
      .orderBy("id")
      .limit(PAGE)
      .execute();
    for (const row of page) sum.add(line(row as unknown as Selectable<Database[T]>));
    if (page.length < PAGE) return sum.result();
    after = page[page.length - 1]!.id;
  }
}

/** Reads every fill, activity row and chain resolution of the store, page by page. */
export async function storeChecksum(db: Kysely<Database>): Promise<StoreChecksum> {
  const resolutions = new ChecksumAccumulator();
  for (const row of await db.selectFrom("market_resolutions").selectAll().execute())
    resolutions.add(resolutionChecksumLine(row));
  return {
    fills: await accumulate(db, "fills", fillChecksumLine),
    activity: await accumulate(db, "wallet_activity", activityChecksumLine),
    resolutions: resolutions.result(),
  };
}
