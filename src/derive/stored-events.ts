/**
 * Stored fills and activity as ledger events, and the one order in which a wallet's events are applied:
 * time, then the log index on chain (when both events have one), then fills before activity, then the
 * order rows were stored in. A rebuild streams each table in (wallet, ts, id) order and merges them by
 * this order; the incremental path sorts each committed batch by it.
 */
import type { LedgerActivity, LedgerEvent, LedgerFill, OutcomeIndex } from "../ledger/index.js";
import type { NewActivity, NewFill } from "../store/fills.js";
import type { ActivityType, Direction, EntryType } from "../store/schema.js";

/** The columns of `fills` the ledger and the derived tables read. */
export interface StoredFill {
  readonly fill_key: string;
  readonly wallet: string;
  readonly counterparty: string | null;
  readonly role: "maker" | "taker" | null;
  readonly condition_id: string;
  readonly token_id: string;
  readonly outcome_index: number;
  readonly side: Direction;
  readonly size: number;
  readonly usd: number;
  readonly price: number;
  readonly fee: number | null;
  readonly ts: number;
  readonly log_index: number | null;
  readonly entry_type: EntryType | null;
}

/** The columns of `wallet_activity` the ledger reads. */
export interface StoredActivity {
  readonly activity_key: string;
  readonly wallet: string;
  readonly type: ActivityType;
  readonly condition_id: string | null;
  readonly size: number;
  readonly usd: number;
  readonly ts: number;
  readonly log_index: number | null;
  readonly neg_risk_market_id: string | null;
  readonly index_set: string | null;
  readonly fee: number | null;
}

/** A fill as the ingest hands it over (optional columns absent) in the shape read back from the store. */
export function storedFill(row: NewFill): StoredFill {
  return {
    fill_key: row.fill_key,
    wallet: row.wallet,
    counterparty: row.counterparty ?? null,
    role: row.role ?? null,
    condition_id: row.condition_id,
    token_id: row.token_id,
    outcome_index: row.outcome_index,
    side: row.side,
    size: row.size,
    usd: row.usd,
    price: row.price,
    fee: row.fee ?? 0,
    ts: row.ts,
    log_index: row.log_index ?? null,
    entry_type: row.entry_type ?? null,
  };
}

export function storedActivity(row: NewActivity): StoredActivity {
  return {
    activity_key: row.activity_key,
    wallet: row.wallet,
    type: row.type,
    condition_id: row.condition_id ?? null,
    size: row.size,
    usd: row.usd,
    ts: row.ts,
    log_index: row.log_index ?? null,
    neg_risk_market_id: row.neg_risk_market_id ?? null,
    index_set: row.index_set ?? null,
    fee: row.fee ?? null,
  };
}

/** The columns a stream reads, the natural key first. */
export const FILL_COLUMNS = [
  "fill_key",
  "wallet",
  "counterparty",
  "role",
  "condition_id",
  "token_id",
  "outcome_index",
  "side",
  "size",
  "usd",
  "price",
  "fee",
  "ts",
  "log_index",
  "entry_type",
] as const;
export const ACTIVITY_COLUMNS = [
  "activity_key",
  "wallet",
  "type",
  "condition_id",
  "size",
  "usd",
  "ts",
  "log_index",
  "neg_risk_market_id",
  "index_set",
  "fee",
] as const;

/** A row read as an array of `id` then FILL_COLUMNS (SQLite's raw mode). */
export function fillFromArray(v: readonly unknown[]): StoredFill & { id: number } {
  return {
    id: v[0] as number,
    fill_key: v[1] as string,
    wallet: v[2] as string,
    counterparty: v[3] as string | null,
    role: v[4] as StoredFill["role"],
    condition_id: v[5] as string,
    token_id: v[6] as string,
    outcome_index: v[7] as number,
    side: v[8] as Direction,
    size: v[9] as number,
    usd: v[10] as number,
    price: v[11] as number,
    fee: v[12] as number | null,
    ts: v[13] as number,
    log_index: v[14] as number | null,
    entry_type: v[15] as EntryType | null,
  };
}

/** A row read as an array of `id` then ACTIVITY_COLUMNS. */
export function activityFromArray(v: readonly unknown[]): StoredActivity & { id: number } {
  return {
    id: v[0] as number,
    activity_key: v[1] as string,
    wallet: v[2] as string,
    type: v[3] as ActivityType,
    condition_id: v[4] as string | null,
    size: v[5] as number,
    usd: v[6] as number,
    ts: v[7] as number,
    log_index: v[8] as number | null,
    neg_risk_market_id: v[9] as string | null,
    index_set: v[10] as string | null,
    fee: v[11] as number | null,
  };
}

/** A stored row with its place in the order of its wallet's events. */
export interface OrderKey {
  readonly ts: number;
  readonly logIndex: number | null;
  /** 0 for a fill, 1 for activity. */
  readonly kind: 0 | 1;
}

export type OrderedEvent = OrderKey & { readonly event: LedgerEvent; readonly key: string };

/** Order of two events of one wallet; 0 when only the storage order tells them apart. */
export function compareEventOrder(a: OrderKey, b: OrderKey): number {
  if (a.ts !== b.ts) return a.ts - b.ts;
  if (a.logIndex !== null && b.logIndex !== null && a.logIndex !== b.logIndex) return a.logIndex - b.logIndex;
  return a.kind - b.kind;
}

export function fillEvent(row: StoredFill): LedgerFill {
  return {
    kind: "fill",
    wallet: row.wallet,
    tokenId: row.token_id,
    conditionId: row.condition_id,
    outcomeIndex: row.outcome_index as OutcomeIndex,
    side: row.side,
    size: row.size,
    usd: row.usd,
    price: row.price,
    fee: row.fee ?? 0,
    ts: row.ts,
    entryType: row.entry_type,
  };
}

/** The question indices of a decimal index set (bit i set: question i). */
export function indexSetQuestions(indexSet: string): number[] {
  const questions: number[] = [];
  let bits = BigInt(indexSet);
  for (let question = 0; bits > 0n; question++, bits >>= 1n) if (bits & 1n) questions.push(question);
  return questions;
}

/**
 * The ledger event of an activity row; null for a row the ledger cannot use (a conversion without its
 * NegRisk market or index set, as the Data API lists them, or a market operation without its market).
 */
export function activityEvent(row: StoredActivity): LedgerActivity | null {
  // Each event one literal: a spread of shared fields made every activity row an object copied twice.
  const { wallet, ts } = row;
  switch (row.type) {
    case "SPLIT":
    case "MERGE":
      return row.condition_id
        ? { kind: "activity", wallet, ts, type: row.type, conditionId: row.condition_id, amount: row.size }
        : null;
    case "REDEEM":
      return row.condition_id
        ? { kind: "activity", wallet, ts, type: "REDEEM", conditionId: row.condition_id, payoutYes: null }
        : null;
    case "CONVERSION":
      if (!row.neg_risk_market_id || !row.index_set) return null;
      // An unknown adapter fee counts as none: the YES received are then overstated by the fee.
      return {
        kind: "activity",
        wallet,
        ts,
        type: "CONVERSION",
        negRiskEventId: row.neg_risk_market_id,
        indexSet: indexSetQuestions(row.index_set),
        amount: row.size,
        fee: row.fee ?? 0,
      };
    case "REWARD":
    case "MAKER_REBATE":
    case "TAKER_REBATE":
      return { kind: "activity", wallet, ts, type: row.type, usd: row.usd };
  }
}

/** Rewards and rebates add to a wallet's income whenever they come (per-wallet syncs store them late); their order does not matter. */
export const INCOME_TYPES: readonly ActivityType[] = ["REWARD", "MAKER_REBATE", "TAKER_REBATE"];

export function isIncomeType(type: ActivityType | null): boolean {
  return type !== null && INCOME_TYPES.includes(type);
}

export function isIncome(event: LedgerEvent): boolean {
  return event.kind === "activity" && isIncomeType(event.type);
}

/** A committed batch's rows as events in the order the ledger applies them (see the module comment). */
export function orderedBatchEvents(fills: readonly StoredFill[], activity: readonly StoredActivity[]): OrderedEvent[] {
  const events: OrderedEvent[] = [];
  for (const row of fills)
    events.push({ ts: row.ts, logIndex: row.log_index, kind: 0, event: fillEvent(row), key: row.fill_key });
  for (const row of activity) {
    const event = activityEvent(row);
    if (event) events.push({ ts: row.ts, logIndex: row.log_index, kind: 1, event, key: row.activity_key });
  }
  // Array.prototype.sort is stable: rows of one kind keep the order they were stored in.
  return events.sort(compareEventOrder);
}
