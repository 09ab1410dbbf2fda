/**
 * Ground truth for ingest tests: what a complete ingest of the simulated venue must hold, read straight from
 * the world (not from any served payload). Fills and operations carry their place on chain (tx hash, log
 * index, block), so they join against what the chain follower stored; amounts are micro-units, times unix
 * seconds, addresses and hashes lower case. Ranges are [from, to) in unix seconds; by default everything the
 * world holds at the time of the call (live appends included).
 */
import {
  OP_CONVERSION,
  OP_MERGE,
  OP_REDEEM,
  OP_RESOLUTION,
  OP_REWARD,
  OP_SPLIT,
  collateralAddress,
  exchangeVersion,
  type Category,
  type MatchType,
  type Resolution,
  type Side,
  type World,
} from "../world/index.js";

export interface TimeRange {
  from?: number;
  to?: number;
}

export interface TruthFill {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  ts: number;
  /** The order's owner (proxy wallet). */
  wallet: string;
  /** The wallet on the other side: the taker for a maker fill, the first maker (log order) for the taker's fill. */
  counterparty: string;
  role: "MAKER" | "TAKER";
  orderHash: string;
  exchange: string;
  exchangeVersion: "v1" | "v2";
  tokenId: string;
  conditionId: string;
  outcomeIndex: 0 | 1;
  side: Side;
  sizeMicro: number;
  usdMicro: number;
  priceMicro: number;
  /** The taker fee in collateral (0 for makers), whatever asset the exchange charged it in. */
  feeUsdMicro: number;
  entryType: MatchType;
}

export type OperationType = "SPLIT" | "MERGE" | "CONVERSION" | "REDEEM";

export interface TruthOperation {
  type: OperationType;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  ts: number;
  wallet: string;
  /** The market's condition; for a conversion, that of the event's first market. */
  conditionId: string;
  /** CONVERSION: the NegRisk market id; otherwise null. */
  negRiskMarketId: string | null;
  /**
   * CONVERSION: the indexSet (bit i: question i's NO given up). REDEEM: the index sets redeemed, OR-ed (1: YES,
   * 2: NO; those of the outcomes the wallet held). Otherwise 0.
   */
  indexSet: number;
  /** SPLIT/MERGE: collateral = shares of each outcome; CONVERSION: NO shares given up per question; REDEEM: YES shares redeemed. */
  amountMicro: number;
  /** REDEEM: NO shares redeemed; otherwise 0. */
  amount2Micro: number;
  /** REDEEM: collateral paid out; CONVERSION: collateral received; otherwise 0. */
  payoutMicro: number;
  /** CONVERSION: micro-shares the adapter keeps per NO given up (`amount * feeBips / 10000`); otherwise 0. */
  feeMicro: number;
  collateral: string;
}

export interface TruthReward {
  txHash: string;
  ts: number;
  wallet: string;
  amountMicro: number;
}

export interface TruthResolution {
  conditionId: string;
  questionId: string;
  resolution: Resolution;
  ts: number;
  txHash: string;
  logIndex: number;
  blockNumber: number;
}

export interface TruthMarket {
  id: string;
  conditionId: string;
  questionId: string;
  slug: string;
  question: string;
  eventId: string;
  eventSlug: string;
  yesTokenId: string;
  noTokenId: string;
  category: Category;
  negRisk: boolean;
  negRiskMarketId: string | null;
  feeRateBps: number;
  /** As of `asOf`: open, closed-but-pending, or resolved. */
  status: "open" | "pending" | "resolved";
  resolution: Resolution | null;
  resolvedAt: number | null;
}

function bounds(range: TimeRange): [number, number] {
  return [range.from ?? 0, range.to ?? Number.MAX_SAFE_INTEGER];
}

/** Every fill (one per OrderFilled) in chain order. */
export function* truthFills(world: World, range: TimeRange = {}): Generator<TruthFill> {
  const [j0, j1] = world.matchesBetween(...bounds(range));
  for (let j = j0; j < j1; j++) {
    const exchange = world.exchangeOfMatch(j).toLowerCase();
    const txHash = world.txHashOfMatch(j);
    const [from, to] = world.fillsOfMatch(j);
    for (let f = from; f < to; f++) {
      const fill = world.fill(f);
      const market = world.markets[fill.market]!;
      yield {
        txHash,
        logIndex: fill.logIndex,
        blockNumber: fill.block,
        ts: fill.ts,
        wallet: world.wallets[fill.wallet]!.proxyWallet,
        counterparty: world.wallets[fill.counterparty]!.proxyWallet,
        role: fill.role === "taker" ? "TAKER" : "MAKER",
        orderHash: world.orderHash(f),
        exchange,
        exchangeVersion: fill.exchangeVersion === 1 ? "v1" : "v2",
        tokenId: world.tokenId(fill.token),
        conditionId: market.conditionId,
        outcomeIndex: fill.outcome,
        side: fill.side,
        sizeMicro: fill.size,
        usdMicro: fill.usd,
        priceMicro: fill.price,
        feeUsdMicro: fill.fee,
        entryType: fill.entryType,
      };
    }
  }
}

/** The index sets a redemption passes: those of the outcomes redeemed (1: YES, 2: NO), OR-ed. */
export function redeemedIndexSets(yesMicro: number, noMicro: number): number {
  return (yesMicro > 0 ? 1 : 0) | (noMicro > 0 ? 2 : 0);
}

const OPERATION_TYPES: Partial<Record<number, OperationType>> = {
  [OP_SPLIT]: "SPLIT",
  [OP_MERGE]: "MERGE",
  [OP_CONVERSION]: "CONVERSION",
  [OP_REDEEM]: "REDEEM",
};

/** Every wallet operation on chain (splits, merges, NegRisk conversions, redemptions) in chain order. */
export function* truthOperations(world: World, range: TimeRange = {}): Generator<TruthOperation> {
  const [i0, i1] = world.opsBetween(...bounds(range));
  for (let i = i0; i < i1; i++) {
    const type = OPERATION_TYPES[world.tables.opType[i]!];
    if (!type) continue;
    const op = world.op(i);
    const market = world.markets[op.market]!;
    yield {
      type,
      txHash: world.txHashOfOp(i),
      // The log that carries the wallet's record (the adapter's or the NegRiskAdapter's event where one acts).
      logIndex: op.bookedLogIndex,
      blockNumber: op.block,
      ts: op.ts,
      wallet: world.wallets[op.wallet]!.proxyWallet,
      conditionId: market.conditionId,
      negRiskMarketId: type === "CONVERSION" ? world.events[op.event]!.negRiskMarketId : null,
      indexSet: type === "REDEEM" ? redeemedIndexSets(op.amount, op.amount2) : op.indexSet,
      amountMicro: op.amount,
      amount2Micro: op.amount2,
      payoutMicro: Math.trunc(op.payout),
      feeMicro: type === "CONVERSION" ? Math.trunc((op.amount * world.events[op.event]!.convertFeeBips) / 10_000) : 0,
      collateral: collateralAddress(exchangeVersion(op.ts)).toLowerCase(),
    };
  }
}

/** Liquidity rewards: collateral transfers the Data API lists as REWARD activity (no venue event on chain). */
export function* truthRewards(world: World, range: TimeRange = {}): Generator<TruthReward> {
  const [i0, i1] = world.opsBetween(...bounds(range));
  for (let i = i0; i < i1; i++) {
    if (world.tables.opType[i] !== OP_REWARD) continue;
    yield {
      txHash: world.txHashOfOp(i),
      ts: world.tables.opTs[i]!,
      wallet: world.wallets[world.tables.opWallet[i]!]!.proxyWallet,
      amountMicro: world.tables.opAmount[i]!,
    };
  }
}

/** Every ConditionResolution in chain order. */
export function* truthResolutions(world: World, range: TimeRange = {}): Generator<TruthResolution> {
  const [i0, i1] = world.opsBetween(...bounds(range));
  for (let i = i0; i < i1; i++) {
    if (world.tables.opType[i] !== OP_RESOLUTION) continue;
    const op = world.op(i);
    const market = world.markets[op.market]!;
    yield {
      conditionId: market.conditionId,
      questionId: market.questionId,
      resolution: market.resolution!,
      ts: op.ts,
      txHash: world.txHashOfOp(i),
      // The log that carries the wallet's record (the adapter's or the NegRiskAdapter's event where one acts).
      logIndex: op.bookedLogIndex,
      blockNumber: op.block,
    };
  }
}

/** The markets as Gamma publishes them at `asOf` (default: the world's end); never the hidden truth of unresolved ones. */
export function truthMarkets(world: World, asOf: number = world.end): TruthMarket[] {
  return world.markets.map((m) => {
    const event = world.events[m.eventIndex]!;
    const resolved = m.resolvedAt !== null && m.resolvedAt <= asOf;
    return {
      id: m.id,
      conditionId: m.conditionId,
      questionId: m.questionId,
      slug: m.slug,
      question: m.question,
      eventId: event.id,
      eventSlug: event.slug,
      yesTokenId: m.yesTokenId,
      noTokenId: m.noTokenId,
      category: m.category,
      negRisk: m.negRisk,
      negRiskMarketId: m.negRiskMarketId,
      feeRateBps: m.fee.rateBps,
      status: resolved ? "resolved" : m.tradingStop <= asOf ? "pending" : "open",
      resolution: resolved ? m.resolution : null,
      resolvedAt: resolved ? m.resolvedAt : null,
    };
  });
}
