/**
 * The simulated chain's clock and addresses. Blocks are exactly 2 s apart from a fixed anchor, so the block of
 * any transaction follows from its timestamp and vice versa; every transaction's timestamp is its block's.
 *
 * Log layout of one transaction (what `logIndex` counts, from the transaction's first log index), as the venue's
 * contracts emit it (docs/VENUE.md; the ERC-20 transfers in between, which no reader here asks for, are left out):
 * - a match with n maker orders: n maker `OrderFilled` (one per maker fill, in fill order), the taker's
 *   `OrderFilled`, then `OrdersMatched`: n + 2 logs; a V2 MINT or MERGE first splits or merges the pair through
 *   the collateral adapter (its ConditionalTokens event and its outcome-token transfer with the exchange): 2 more;
 * - V1: SPLIT `PositionSplit`, MERGE `PositionsMerge`, REDEEM `PayoutRedemption` of the ConditionalTokens naming the
 *   wallet; in a NegRisk market the wallet calls the NegRiskAdapter, whose ConditionalTokens event names the
 *   adapter and whose own event, after it, names the wallet; CONVERSION `PositionsConverted`;
 * - V2: the wallet calls a collateral adapter (pUSD in and out), which the events name; the adapter's ERC-1155
 *   transfer with the wallet comes after a split and before a merge, redemption or conversion (`opLogLayout`);
 * - RESOLUTION `ConditionResolution`, REWARD the collateral `Transfer`: one log each.
 * A wallet's funding is a collateral `Transfer` in a transaction of its own, after its block's (funding.ts).
 */
import { CONTRACTS } from "../../venue/contracts.js";
import type { MatchType, OpType } from "./types.js";

export const BLOCK_TIME_SECONDS = 2;

/** Polygon block 81,000,000 is placed at 2026-01-01T00:00:00Z in the simulation. */
export const BLOCK_ANCHOR = { number: 81_000_000, timestamp: Date.UTC(2026, 0, 1) / 1000 } as const;

/** 2026-04-28T00:00:00Z: V1 exchanges before, V2 from this instant. */
export const V2_CUTOVER_TS = Date.UTC(2026, 3, 28) / 1000;

export function blockAt(ts: number): number {
  return BLOCK_ANCHOR.number + Math.floor((ts - BLOCK_ANCHOR.timestamp) / BLOCK_TIME_SECONDS);
}

export function blockTimestamp(block: number): number {
  return BLOCK_ANCHOR.timestamp + (block - BLOCK_ANCHOR.number) * BLOCK_TIME_SECONDS;
}

/** The first block-grid instant at or after ts. */
export function alignUp(ts: number): number {
  const offset = ts - BLOCK_ANCHOR.timestamp;
  const rem = ((offset % BLOCK_TIME_SECONDS) + BLOCK_TIME_SECONDS) % BLOCK_TIME_SECONDS;
  return rem === 0 ? ts : ts + (BLOCK_TIME_SECONDS - rem);
}

export function exchangeVersion(ts: number): 1 | 2 {
  return ts < V2_CUTOVER_TS ? 1 : 2;
}

/** The exchange that settled a match: per exchange version and per negRisk. */
export function exchangeAddress(version: 1 | 2, negRisk: boolean): string {
  if (version === 1) return negRisk ? CONTRACTS.negRiskCtfExchangeV1 : CONTRACTS.ctfExchangeV1;
  return negRisk ? CONTRACTS.negRiskCtfExchangeV2 : CONTRACTS.ctfExchangeV2;
}

/** USDC.e before the cutover, pUSD after. */
export function collateralAddress(version: 1 | 2): string {
  return version === 1 ? CONTRACTS.usdcE : CONTRACTS.pUsd;
}

/** The logs of one non-trade transaction, and which of them carries the wallet's record (its activity key). */
export interface OpLogLayout {
  readonly count: number;
  readonly booked: number;
}

const ONE_LOG: OpLogLayout = { count: 1, booked: 0 };

/** The layout of an operation (see the file's comment); src/sim/servers/chain-logs.ts writes the logs. */
export function opLogLayout(type: OpType, version: 1 | 2, negRisk: boolean): OpLogLayout {
  if (type === "RESOLUTION" || type === "REWARD") return ONE_LOG;
  if (version === 1) {
    if (type === "CONVERSION" || !negRisk) return ONE_LOG;
    return { count: 2, booked: 1 };
  }
  // Through a collateral adapter: the transfer to the wallet after a split (the event is second of three, after
  // the ConditionalTokens' mint or the NegRiskAdapter's own split), from the wallet first for the others.
  if (type === "SPLIT" || type === "CONVERSION") return { count: 3, booked: 1 };
  return { count: 3, booked: 2 };
}

/** Logs before a match's first OrderFilled: a V2 MINT or MERGE's split or merge through the collateral adapter. */
export function matchMechanicsLogs(type: MatchType, version: 1 | 2): number {
  return version === 2 && type !== "COMPLEMENTARY" ? 2 : 0;
}

/** Logs of a match transaction with `fillCount` fills (makers plus the taker). */
export function matchLogCount(fillCount: number, type: MatchType, version: 1 | 2): number {
  return matchMechanicsLogs(type, version) + fillCount + 1;
}

/** The collateral adapter a wallet's V2 operation goes through: the second generation's from 2026-05-15. */
export const SECOND_ADAPTERS_TS = Date.UTC(2026, 4, 15) / 1000;

export function collateralAdapterAt(ts: number, negRisk: boolean): string {
  if (ts < SECOND_ADAPTERS_TS) return negRisk ? CONTRACTS.negRiskCtfCollateralAdapter : CONTRACTS.ctfCollateralAdapter;
  return negRisk ? CONTRACTS.negRiskCtfCollateralAdapter2 : CONTRACTS.ctfCollateralAdapter2;
}
