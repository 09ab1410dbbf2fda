/**
 * Test support: what a complete chain ingest of the simulated venue must store, built from the simulation's ground
 * truth (src/sim/servers/ground-truth.ts) and the venue's settlement rules, sharing no code with the ingest's
 * mapping (src/ingest/chain-rows.ts, src/venue/chain/settlement.ts). The rows go through the store's own checksum
 * line functions, so `truthChecksum(world)` is comparable with `storeChecksum(store.db)`.
 *
 * The venue's events decide the shape of the rows where the world knows more than the chain says:
 * - a conversion names the NegRisk market, not a condition (condition_id null); its fee is the adapter's
 *   `feeBips` of that market, its usd the collateral received;
 * - a redemption's event carries the payout and the index sets, not the tokens burnt: size = usd = payout;
 * - a fill's counterparty is the taker for a maker fill and the first maker (log order) for the taker's fill.
 */
import {
  truthFills,
  truthOperations,
  truthResolutions,
  type TimeRange,
  type TruthFill,
  type TruthOperation,
  type TruthResolution,
} from "../../sim/servers/ground-truth.js";
import type { World } from "../../sim/world/index.js";
import {
  ChecksumAccumulator,
  activityChecksumLine,
  fillChecksumLine,
  resolutionChecksumLine,
  type ActivityChecksumFields,
  type FillChecksumFields,
  type ResolutionChecksumFields,
  type StoreChecksum,
} from "../../store/checksum.js";
import { chainFillKey } from "../../store/fills.js";

const key = (txHash: string, logIndex: number) => `chain:${txHash}:${logIndex}`;

export function truthFillRow(f: TruthFill): FillChecksumFields {
  return {
    fill_key: chainFillKey(f.blockNumber, f.logIndex),
    source: "chain",
    wallet: f.wallet,
    counterparty: f.counterparty,
    role: f.role === "TAKER" ? "taker" : "maker",
    condition_id: f.conditionId,
    token_id: f.tokenId,
    outcome_index: f.outcomeIndex,
    side: f.side,
    size: f.sizeMicro,
    usd: f.usdMicro,
    fee: f.feeUsdMicro,
    ts: f.ts,
    entry_type: f.entryType,
    exchange_version: f.exchangeVersion === "v1" ? 1 : 2,
    block_number: f.blockNumber,
  };
}

export function truthActivityRow(op: TruthOperation): ActivityChecksumFields {
  const base = {
    activity_key: key(op.txHash, op.logIndex),
    source: "chain" as const,
    wallet: op.wallet,
    type: op.type,
    token_id: null,
    outcome_index: null,
    ts: op.ts,
  };
  const none = { neg_risk_market_id: null, index_set: null, fee: null };
  switch (op.type) {
    case "SPLIT":
    case "MERGE":
      return { ...base, ...none, condition_id: op.conditionId, size: op.amountMicro, usd: op.amountMicro };
    case "REDEEM":
      return {
        ...base,
        ...none,
        condition_id: op.conditionId,
        size: op.payoutMicro,
        usd: op.payoutMicro,
        index_set: String(op.indexSet),
      };
    case "CONVERSION":
      return {
        ...base,
        condition_id: null,
        size: op.amountMicro,
        usd: op.payoutMicro,
        neg_risk_market_id: op.negRiskMarketId,
        index_set: String(op.indexSet),
        fee: op.feeMicro,
      };
  }
}

export function truthResolutionRow(r: TruthResolution): ResolutionChecksumFields {
  const numerators = r.resolution === "YES" ? ["1", "0"] : r.resolution === "NO" ? ["0", "1"] : ["1", "1"];
  return {
    condition_id: r.conditionId,
    resolution: r.resolution,
    payout_numerators: JSON.stringify(numerators),
    resolved_at: r.ts,
    block_number: r.blockNumber,
    tx_hash: r.txHash,
    log_index: r.logIndex,
  };
}

/** Count and checksum of the fills, wallet activity (splits, merges, conversions, redemptions) and resolutions in the range. */
export function truthChecksum(world: World, range: TimeRange = {}): StoreChecksum {
  const fills = new ChecksumAccumulator();
  for (const f of truthFills(world, range)) fills.add(fillChecksumLine(truthFillRow(f)));
  const activity = new ChecksumAccumulator();
  for (const op of truthOperations(world, range)) activity.add(activityChecksumLine(truthActivityRow(op)));
  const resolutions = new ChecksumAccumulator();
  for (const r of truthResolutions(world, range)) resolutions.add(resolutionChecksumLine(truthResolutionRow(r)));
  return { fills: fills.result(), activity: activity.result(), resolutions: resolutions.result() };
}
