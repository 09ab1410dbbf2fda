/**
 * Chain records → store rows: settled fills, NegRisk conversions, splits, merges, redemptions (wallet
 * activity) and ConditionResolution payouts. Natural keys: `chain:<block>:<logIndex>` zero-padded for fills
 * (chainFillKey: chain order), `chain:<tx>:<logIndex>` for activity, the condition id for a resolution.
 */
import { chainFillKey, type NewActivity, type NewFill } from "../store/fills.js";
import type { NewResolution, TokenFacts } from "../store/markets.js";
import type { Resolution } from "../store/schema.js";
import {
  fromMicro,
  isOperationLog,
  type ChainFill,
  type DecodedVenueLog,
  type LogPosition,
  type OperationLog,
  type ConditionResolutionEvent,
} from "../venue/index.js";

/** The natural key of a chain activity row. */
export const chainKey = (log: { readonly transactionHash: string; readonly logIndex: number }) =>
  `chain:${log.transactionHash}:${log.logIndex}`;

export function chainFillRow(fill: ChainFill, facts: TokenFacts, ts: number): NewFill {
  return {
    fill_key: chainFillKey(fill.blockNumber, fill.logIndex),
    source: "chain",
    tx_hash: fill.txHash,
    log_index: fill.logIndex,
    block_number: fill.blockNumber,
    wallet: fill.wallet,
    counterparty: fill.counterparty,
    role: fill.role === "MAKER" ? "maker" : fill.role === "TAKER" ? "taker" : null,
    condition_id: facts.conditionId,
    token_id: fill.tokenId,
    outcome_index: facts.outcomeIndex,
    side: fill.direction,
    size: fill.sizeMicro,
    usd: fill.usdMicro,
    price: fromMicro(fill.priceMicro),
    fee: fill.feeUsdMicro,
    ts,
    entry_type: fill.entryType,
    exchange_version: fill.exchangeVersion === "v1" ? 1 : 2,
  };
}

/** A split, merge, conversion or redemption, naming the wallet that made it (src/venue/chain/attribution.ts). */
export type ActivityLog = OperationLog;

export const isActivityLog = (log: DecodedVenueLog): log is ActivityLog => isOperationLog(log);

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function safe(amount: bigint): number {
  if (amount > MAX_SAFE) throw new RangeError(`amount beyond 2^53: ${amount}`);
  return Number(amount);
}

function popCount(x: bigint): number {
  let n = 0;
  for (let v = x; v > 0n; v >>= 1n) if (v & 1n) n++;
  return n;
}

/**
 * The wallet activity of one log. A conversion's fee (micro-shares per NO given up) needs the adapter's fee
 * rate for its market: `feeBips` null leaves it unknown (fee null, usd 0). Throws RangeError on amounts beyond 2^53.
 */
export function chainActivityRow(log: ActivityLog, ts: number, feeBips: number | null): NewActivity {
  const base = {
    activity_key: chainKey(log),
    source: "chain" as const,
    ts,
    tx_hash: log.transactionHash,
    log_index: log.logIndex,
    token_id: null,
    outcome_index: null,
  };
  switch (log.kind) {
    case "PositionSplit":
    case "PositionsMerge":
    case "NegRiskPositionSplit":
    case "NegRiskPositionsMerge": {
      const amount = safe(log.amount);
      return {
        ...base,
        wallet: log.stakeholder,
        type: log.kind === "PositionSplit" || log.kind === "NegRiskPositionSplit" ? "SPLIT" : "MERGE",
        condition_id: log.conditionId,
        size: amount,
        usd: amount,
        price: 0.5,
      };
    }
    case "PayoutRedemption":
    case "NegRiskPayoutRedemption": {
      const payout = safe(log.payout);
      // The NegRiskAdapter names the amounts of YES and NO burnt: a side redeemed is one with tokens.
      const indexSet =
        log.kind === "PayoutRedemption"
          ? log.indexSets.reduce((all, set) => all | set, 0n)
          : log.amounts.reduce((all, amount, i) => (amount > 0n ? all | (1n << BigInt(i)) : all), 0n);
      return {
        ...base,
        wallet: log.redeemer,
        type: "REDEEM",
        condition_id: log.conditionId,
        size: payout,
        usd: payout,
        price: 0,
        index_set: indexSet.toString(),
      };
    }
    case "PositionsConverted": {
      const amount = safe(log.amount);
      // NegRiskAdapter.convertPositions: fee = amount * feeBips / 10000 per NO; collateral out = (noCount - 1) * (amount - fee).
      const fee = feeBips === null ? null : safe((log.amount * BigInt(feeBips)) / 10_000n);
      const usd = fee === null ? 0 : Math.max(0, popCount(log.indexSet) - 1) * (amount - fee);
      return {
        ...base,
        wallet: log.stakeholder,
        type: "CONVERSION",
        condition_id: null,
        size: amount,
        usd,
        price: 0,
        neg_risk_market_id: log.marketId,
        index_set: log.indexSet.toString(),
        fee,
      };
    }
  }
}

/** The outcome a binary condition's payout numerators settle: YES [n,0], NO [0,n], 50-50 [n,n]; null otherwise. */
export function resolutionOfPayouts(numerators: readonly bigint[]): Resolution | null {
  if (numerators.length !== 2) return null;
  const [yes, no] = numerators as [bigint, bigint];
  if (yes > 0n && no === 0n) return "YES";
  if (yes === 0n && no > 0n) return "NO";
  if (yes > 0n && yes === no) return "50-50";
  return null;
}

export function chainResolutionRow(
  log: ConditionResolutionEvent & LogPosition,
  ts: number,
  resolution: Resolution,
): NewResolution {
  return {
    condition_id: log.conditionId,
    resolution,
    payout_numerators: JSON.stringify(log.payoutNumerators.map(String)),
    resolved_at: ts,
    block_number: log.blockNumber,
    tx_hash: log.transactionHash,
    log_index: log.logIndex,
  };
}
