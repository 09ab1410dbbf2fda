/**
 * The simulated chain's clock and addresses. Blocks are exactly 2 s apart from a fixed anchor, so the block of
 * any transaction follows from its timestamp and vice versa; every transaction's timestamp is its block's.
 *
 * Log layout of one transaction (what `logIndex` counts, from the transaction's first log index):
 * - a match with n maker orders: n maker `OrderFilled` (one per maker fill, in fill order), the taker's
 *   `OrderFilled`, then `OrdersMatched`: n + 2 logs;
 * - SPLIT `PositionSplit`, MERGE `PositionsMerge`, CONVERSION `PositionsConverted`, REDEEM `PayoutRedemption`,
 *   RESOLUTION `ConditionResolution`, REWARD the collateral `Transfer`: one log each.
 */
import { CONTRACTS } from "../../venue/contracts.js";
import type { OpType } from "./types.js";

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

/** Logs of one non-trade transaction (see the layout above). */
export function opLogCount(_type: OpType): number {
  return 1;
}

/** Logs of a match transaction with `fillCount` fills (makers plus the taker). */
export function matchLogCount(fillCount: number): number {
  return fillCount + 1;
}
