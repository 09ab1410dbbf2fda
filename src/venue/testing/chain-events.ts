/** Test support: the venue's on-chain events for one match or operation, as the exchanges and the CTF emit them. */
import type { Hex, VenueEvent } from "../chain/abi.js";
import { CONTRACTS } from "../contracts.js";

/** `n` as a 32-byte hash and as a 20-byte address, zero-padded hex. */
export const hash32 = (n: number | bigint) => `0x${n.toString(16).padStart(64, "0")}` as Hex;
export const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Hex;

export const EXCHANGE_V1 = CONTRACTS.ctfExchangeV1.toLowerCase() as Hex;
export const NEG_RISK_EXCHANGE_V1 = CONTRACTS.negRiskCtfExchangeV1.toLowerCase() as Hex;
export const EXCHANGE_V2 = CONTRACTS.ctfExchangeV2.toLowerCase() as Hex;
export const NEG_RISK_EXCHANGE_V2 = CONTRACTS.negRiskCtfExchangeV2.toLowerCase() as Hex;
export const ADAPTER = CONTRACTS.negRiskAdapter.toLowerCase() as Hex;
export const CTF = CONTRACTS.conditionalTokens.toLowerCase() as Hex;
const ZERO = hash32(0);
export const M = 1_000_000n;

let orders = 0;
const nextOrder = () => hash32(0x0de0000 + ++orders);

export interface OrderSpec {
  readonly owner: Hex;
  readonly side: "BUY" | "SELL";
  readonly token: bigint;
  /** Shares and collateral, micro-units. */
  readonly size: bigint;
  readonly usd: bigint;
  readonly fee?: bigint;
}

function filled(exchange: Hex, order: OrderSpec, taker: Hex, orderHash: Hex): VenueEvent {
  const buy = order.side === "BUY";
  // The order's maker side gives collateral on a BUY, tokens on a SELL.
  const making = buy ? order.usd : order.size;
  const taking = buy ? order.size : order.usd;
  const fee = order.fee ?? 0n;
  if (exchange === EXCHANGE_V1 || exchange === NEG_RISK_EXCHANGE_V1) {
    return {
      kind: "OrderFilledV1",
      version: "v1",
      address: exchange,
      orderHash,
      maker: order.owner,
      taker,
      makerAssetId: buy ? 0n : order.token,
      takerAssetId: buy ? order.token : 0n,
      makerAmountFilled: making,
      takerAmountFilled: taking,
      fee,
    };
  }
  return {
    kind: "OrderFilledV2",
    version: "v2",
    address: exchange,
    orderHash,
    maker: order.owner,
    taker,
    side: buy ? 0 : 1,
    tokenId: order.token,
    makerAmountFilled: making,
    takerAmountFilled: taking,
    fee,
    builder: ZERO,
    metadata: ZERO,
  };
}

/** One match: an OrderFilled per maker order, the taker order's own OrderFilled, then OrdersMatched. */
export function matchEvents(exchange: Hex, taker: OrderSpec, makers: readonly OrderSpec[]): VenueEvent[] {
  const takerHash = nextOrder();
  const events = makers.map((m) => filled(exchange, m, taker.owner, nextOrder()));
  events.push(filled(exchange, taker, exchange, takerHash));
  const buy = taker.side === "BUY";
  const making = buy ? taker.usd : taker.size;
  const taking = buy ? taker.size : taker.usd;
  if (exchange === EXCHANGE_V1 || exchange === NEG_RISK_EXCHANGE_V1) {
    events.push({
      kind: "OrdersMatchedV1",
      version: "v1",
      address: exchange,
      takerOrderHash: takerHash,
      takerOrderMaker: taker.owner,
      makerAssetId: buy ? 0n : taker.token,
      takerAssetId: buy ? taker.token : 0n,
      makerAmountFilled: making,
      takerAmountFilled: taking,
    });
  } else {
    events.push({
      kind: "OrdersMatchedV2",
      version: "v2",
      address: exchange,
      takerOrderHash: takerHash,
      takerOrderMaker: taker.owner,
      side: buy ? 0 : 1,
      tokenId: taker.token,
      makerAmountFilled: making,
      takerAmountFilled: taking,
    });
  }
  return events;
}

export function split(
  stakeholder: Hex,
  conditionId: Hex,
  amount: bigint,
  kind: "PositionSplit" | "PositionsMerge" = "PositionSplit",
): VenueEvent {
  return {
    kind,
    address: CTF,
    stakeholder,
    collateralToken: CONTRACTS.pUsd.toLowerCase() as Hex,
    parentCollectionId: ZERO,
    conditionId,
    partition: [1n, 2n],
    amount,
  };
}

export function redemption(redeemer: Hex, conditionId: Hex, payout: bigint): VenueEvent {
  return {
    kind: "PayoutRedemption",
    address: CTF,
    redeemer,
    collateralToken: CONTRACTS.pUsd.toLowerCase() as Hex,
    parentCollectionId: ZERO,
    conditionId,
    indexSets: [1n, 2n],
    payout,
  };
}

export function resolution(conditionId: Hex, payouts: readonly bigint[]): VenueEvent {
  return {
    kind: "ConditionResolution",
    address: CTF,
    conditionId,
    oracle: ADAPTER,
    questionId: hash32(0x9e57),
    outcomeSlotCount: BigInt(payouts.length),
    payoutNumerators: payouts,
  };
}

export function conversion(stakeholder: Hex, marketId: Hex, indexSet: bigint, amount: bigint): VenueEvent {
  return { kind: "PositionsConverted", address: ADAPTER, stakeholder, marketId, indexSet, amount };
}
