/**
 * The world's transactions as the venue's on-chain events (the venue's Polygon contracts), at the real contract
 * addresses with the V1 to V2 cutover: each match is one OrderFilled per maker, the taker's OrderFilled (whose
 * `taker` is the exchange), then OrdersMatched; each operation one event (rewards emit none the venue's
 * decoder reads). Encoding is left to the node (src/sim/servers/rpc.ts: `encodeLogWords`, byte for byte `encodeVenueLog`).
 *
 * Fees: the world keeps every taker fee in collateral. The V1 exchange charges a BUY order's fee in the
 * outcome tokens it receives, and settlement values such a fee at the fill's price (rounding half up), so a V1
 * BUY emits the token amount that settles back to the world's collateral fee exactly (`v1BuyFeeTokens`).
 */
import { CONTRACTS } from "../../venue/contracts.js";
import { SIDE_BUY, SIDE_SELL, type Hex, type VenueEvent } from "../../venue/chain/abi.js";
import {
  BLOCK_TIME_SECONDS,
  OP_CONVERSION,
  OP_MERGE,
  OP_REDEEM,
  OP_RESOLUTION,
  OP_SPLIT,
  blockTimestamp,
  collateralAddress,
  exchangeVersion,
  type FillView,
  type World,
} from "../world/index.js";
import { ID_DOMAIN, bytes32 } from "../world/ids.js";
import { redeemedIndexSets } from "./ground-truth.js";

const ZERO32 = `0x${"0".repeat(64)}` as Hex;
/** Oracle of plain markets' ConditionResolution: the UMA CTF adapter (NegRisk markets resolve through the NegRiskAdapter). */
export const UMA_CTF_ADAPTER = "0x6a9d222616c90fca5754cd1333cfd9b7fb6a4f74";
const lower = (address: string) => address.toLowerCase() as Hex;

/** One log with its place on the simulated chain. */
export interface SimLog {
  readonly event: VenueEvent;
  readonly blockNumber: number;
  readonly ts: number;
  readonly transactionHash: Hex;
  readonly transactionIndex: number;
  readonly logIndex: number;
}

export function blockHash(world: World, block: number): Hex {
  return bytes32(world.key, ID_DOMAIN.block, block);
}

/**
 * The V1 BUY fee in outcome tokens whose value at the fill's price, as settlement rounds it
 * (`round(tokens * usd / size)`, halves up), is `feeUsdMicro`: the least such amount. One always exists,
 * since a token is worth less than one collateral unit (price < 1).
 */
export function v1BuyFeeTokens(feeUsdMicro: number, sizeMicro: number, usdMicro: number): bigint {
  if (feeUsdMicro <= 0) return 0n;
  const numerator = BigInt(sizeMicro) * BigInt(2 * feeUsdMicro - 1);
  const denominator = 2n * BigInt(usdMicro);
  return (numerator + denominator - 1n) / denominator;
}

function feeOf(fill: FillView): bigint {
  if (fill.fee === 0) return 0n;
  return fill.exchangeVersion === 1 && fill.side === "BUY"
    ? v1BuyFeeTokens(fill.fee, fill.size, fill.usd)
    : BigInt(fill.fee);
}

// Events are written as whole object literals (no spreads): a backfill asks the node for millions of them, and a
// literal gets its final shape at once, which the word encoder then reads fast.

/** An order's terms as the exchange emits them: the maker side gives collateral on a BUY (asset 0 in V1), tokens on a SELL. */
function orderTerms(world: World, fill: FillView) {
  const buy = fill.side === "BUY";
  const size = BigInt(fill.size);
  const usd = BigInt(fill.usd);
  return {
    buy,
    tokenId: BigInt(world.tokenId(fill.token)),
    orderHash: world.orderHash(fill.index),
    makerAmountFilled: buy ? usd : size,
    takerAmountFilled: buy ? size : usd,
  };
}

function orderFilled(world: World, exchange: Hex, fill: FillView, taker: Hex): VenueEvent {
  const { buy, tokenId, orderHash, makerAmountFilled, takerAmountFilled } = orderTerms(world, fill);
  const maker = lower(world.wallets[fill.wallet]!.proxyWallet);
  const fee = feeOf(fill);
  if (fill.exchangeVersion === 1) {
    return {
      kind: "OrderFilledV1",
      version: "v1",
      address: exchange,
      orderHash,
      maker,
      taker,
      makerAssetId: buy ? 0n : tokenId,
      takerAssetId: buy ? tokenId : 0n,
      makerAmountFilled,
      takerAmountFilled,
      fee,
    };
  }
  return {
    kind: "OrderFilledV2",
    version: "v2",
    address: exchange,
    orderHash,
    maker,
    taker,
    side: buy ? SIDE_BUY : SIDE_SELL,
    tokenId,
    makerAmountFilled,
    takerAmountFilled,
    fee,
    builder: ZERO32,
    metadata: ZERO32,
  };
}

function ordersMatched(world: World, exchange: Hex, taker: FillView, takerOrderMaker: Hex): VenueEvent {
  const { buy, tokenId, orderHash: takerOrderHash, makerAmountFilled, takerAmountFilled } = orderTerms(world, taker);
  if (taker.exchangeVersion === 1) {
    return {
      kind: "OrdersMatchedV1",
      version: "v1",
      address: exchange,
      takerOrderHash,
      takerOrderMaker,
      makerAssetId: buy ? 0n : tokenId,
      takerAssetId: buy ? tokenId : 0n,
      makerAmountFilled,
      takerAmountFilled,
    };
  }
  return {
    kind: "OrdersMatchedV2",
    version: "v2",
    address: exchange,
    takerOrderHash,
    takerOrderMaker,
    side: buy ? SIDE_BUY : SIDE_SELL,
    tokenId,
    makerAmountFilled,
    takerAmountFilled,
  };
}

/** The logs of match j, in log order. */
export function matchLogs(world: World, j: number): SimLog[] {
  const match = world.match(j);
  const exchange = lower(world.exchangeOfMatch(j));
  const { block: blockNumber, ts, txIndex: transactionIndex } = match;
  const transactionHash = world.txHashOfMatch(j);
  const taker = world.fill(match.takerFill);
  const takerAddress = lower(world.wallets[taker.wallet]!.proxyWallet);
  const logs: SimLog[] = [];
  for (let f = match.firstFill; f < match.takerFill; f++) {
    const event = orderFilled(world, exchange, world.fill(f), takerAddress);
    logs.push({
      event,
      blockNumber,
      ts,
      transactionHash,
      transactionIndex,
      logIndex: match.logIndex + (f - match.firstFill),
    });
  }
  logs.push({
    event: orderFilled(world, exchange, taker, exchange),
    blockNumber,
    ts,
    transactionHash,
    transactionIndex,
    logIndex: match.logIndex + match.fillCount - 1,
  });
  logs.push({
    event: ordersMatched(world, exchange, taker, takerAddress),
    blockNumber,
    ts,
    transactionHash,
    transactionIndex,
    logIndex: match.logIndex + match.fillCount,
  });
  return logs;
}

/** YES won [1, 0], NO won [0, 1], 50-50 [1, 1]. */
export function payoutNumerators(resolution: "YES" | "NO" | "50-50"): bigint[] {
  return resolution === "YES" ? [1n, 0n] : resolution === "NO" ? [0n, 1n] : [1n, 1n];
}

/** The log of operation i; null for rewards (a collateral transfer, no venue event). */
export function opLog(world: World, i: number): SimLog | null {
  const op = world.op(i);
  const t = world.tables;
  const market = op.market >= 0 ? world.markets[op.market]! : null;
  const stakeholder = () => lower(world.wallets[op.wallet]!.proxyWallet);
  const ctf = lower(CONTRACTS.conditionalTokens);
  const collateral = lower(collateralAddress(exchangeVersion(op.ts)));
  let event: VenueEvent;
  switch (t.opType[i]) {
    case OP_SPLIT:
    case OP_MERGE: {
      const fields = {
        address: ctf,
        stakeholder: stakeholder(),
        collateralToken: collateral,
        parentCollectionId: ZERO32,
        conditionId: market!.conditionId as Hex,
        partition: [1n, 2n],
        amount: BigInt(op.amount),
      };
      event = t.opType[i] === OP_SPLIT ? { kind: "PositionSplit", ...fields } : { kind: "PositionsMerge", ...fields };
      break;
    }
    case OP_CONVERSION:
      event = {
        kind: "PositionsConverted",
        address: lower(CONTRACTS.negRiskAdapter),
        stakeholder: stakeholder(),
        marketId: world.events[op.event]!.negRiskMarketId as Hex,
        indexSet: BigInt(op.indexSet),
        amount: BigInt(op.amount),
      };
      break;
    case OP_REDEEM:
      event = {
        kind: "PayoutRedemption",
        address: ctf,
        redeemer: stakeholder(),
        collateralToken: collateral,
        parentCollectionId: ZERO32,
        conditionId: market!.conditionId as Hex,
        indexSets: [1n, 2n].filter((set) => BigInt(redeemedIndexSets(op.amount, op.amount2)) & set),
        payout: BigInt(Math.trunc(op.payout)),
      };
      break;
    case OP_RESOLUTION:
      event = {
        kind: "ConditionResolution",
        address: ctf,
        conditionId: market!.conditionId as Hex,
        oracle: lower(market!.negRisk ? CONTRACTS.negRiskAdapter : UMA_CTF_ADAPTER),
        questionId: market!.questionId as Hex,
        outcomeSlotCount: 2n,
        payoutNumerators: payoutNumerators(market!.resolution!),
      };
      break;
    default:
      return null;
  }
  return {
    event,
    blockNumber: op.block,
    ts: op.ts,
    transactionHash: world.txHashOfOp(i),
    transactionIndex: op.txIndex,
    logIndex: op.logIndex,
  };
}

/** Every log of blocks [fromBlock, toBlock], in chain order (block, then log index). */
export function* logsInBlocks(world: World, fromBlock: number, toBlock: number): Generator<SimLog> {
  const t = world.tables;
  const from = blockTimestamp(fromBlock);
  const to = blockTimestamp(toBlock) + BLOCK_TIME_SECONDS;
  let [j, jEnd] = world.matchesBetween(from, to);
  let [i, iEnd] = world.opsBetween(from, to);
  while (j < jEnd || i < iEnd) {
    const matchFirst =
      j < jEnd &&
      (i >= iEnd ||
        t.matchTs[j]! < t.opTs[i]! ||
        (t.matchTs[j] === t.opTs[i] && t.matchLogIndex[j]! < t.opLogIndex[i]!));
    if (matchFirst) yield* matchLogs(world, j++);
    else {
      const log = opLog(world, i++);
      if (log) yield log;
    }
  }
}
