/**
 * The world's transactions as the venue's on-chain events (the venue's Polygon contracts), at the real contract
 * addresses with the V1 to V2 cutover, in the layout of src/sim/world/chain.ts: each match is one OrderFilled per
 * maker, the taker's OrderFilled (whose `taker` is the exchange), then OrdersMatched, a V2 MINT or MERGE first
 * splitting or merging through the collateral adapter; each operation its events as the contracts emit them (a
 * NegRisk one through the NegRiskAdapter, a V2 one through a collateral adapter with its outcome-token transfer;
 * rewards emit none the venue's decoder reads). Encoding is left to the node (src/sim/servers/rpc.ts:
 * `encodeLogWords`, byte for byte `encodeVenueLog`).
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
  collateralAdapterAt,
  exchangeVersion,
  matchMechanicsLogs,
  type FillView,
  type World,
} from "../world/index.js";
import { ID_DOMAIN, bytes32 } from "../world/ids.js";
import { redeemedIndexSets } from "./ground-truth.js";

const ZERO32 = `0x${"0".repeat(64)}` as Hex;
const ZERO_ADDRESS = `0x${"0".repeat(40)}` as Hex;
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
  const at = (event: VenueEvent, offset: number): SimLog => ({
    event,
    blockNumber,
    ts,
    transactionHash,
    transactionIndex,
    logIndex: match.logIndex + offset,
  });
  const mechanics = matchMechanicsLogs(match.type, match.exchangeVersion);
  if (mechanics > 0)
    adapterPairEvents(world, match.market, match.type === "MINT", exchange, taker.size).forEach((event, k) =>
      logs.push(at(event, k)),
    );
  for (let f = match.firstFill; f < match.takerFill; f++)
    logs.push(at(orderFilled(world, exchange, world.fill(f), takerAddress), mechanics + (f - match.firstFill)));
  logs.push(at(orderFilled(world, exchange, taker, exchange), mechanics + match.fillCount - 1));
  logs.push(at(ordersMatched(world, exchange, taker, takerAddress), mechanics + match.fillCount));
  return logs;
}

/** The YES and NO token ids of market m. */
const pairIds = (world: World, m: number): bigint[] => [BigInt(world.tokenId(m * 2)), BigInt(world.tokenId(m * 2 + 1))];

/**
 * A V2 exchange's MINT (or MERGE) through the collateral adapter, before the fills: the split (merge) event naming
 * the adapter (the NegRiskAdapter's own, for a NegRisk market), and the pair's transfer between the adapter and the
 * exchange, which marks it as trade mechanics rather than a wallet's operation.
 */
function adapterPairEvents(world: World, m: number, mint: boolean, exchange: Hex, amount: number): VenueEvent[] {
  // The V2 exchanges were deployed with the first generation of adapters, and keep it.
  const adapter = lower(collateralAdapterAt(0, world.markets[m]!.negRisk));
  const values = [BigInt(amount), BigInt(amount)];
  const transfer = pairTransfer(world, m, adapter, mint ? adapter : exchange, mint ? exchange : adapter, values);
  const event = splitOrMerge(world, m, mint, adapter)(BigInt(amount));
  return mint ? [event, transfer] : [transfer, event];
}

/** The adapter's ERC-1155 transfer of market m's pair (YES, NO) between two accounts. */
function pairTransfer(world: World, m: number, operator: Hex, from: Hex, to: Hex, values: bigint[]): VenueEvent {
  return { kind: "TransferBatch", address: CTF, operator, from, to, ids: pairIds(world, m), values };
}

const CTF = lower(CONTRACTS.conditionalTokens);
const NEG_RISK_ADAPTER = lower(CONTRACTS.negRiskAdapter);

/**
 * A split (or merge) of market m's pair by `caller`: the NegRiskAdapter's own event in a NegRisk market, else the
 * ConditionalTokens' (whose collateral is USDC.e, also under the V2 adapters, which unwrap pUSD first).
 */
function splitOrMerge(world: World, m: number, split: boolean, caller: Hex): (amount: bigint) => VenueEvent {
  const market = world.markets[m]!;
  const conditionId = market.conditionId as Hex;
  if (market.negRisk)
    return (amount) => ({
      kind: split ? "NegRiskPositionSplit" : "NegRiskPositionsMerge",
      address: NEG_RISK_ADAPTER,
      stakeholder: caller,
      conditionId,
      amount,
    });
  return (amount) => ctfMovement(split, caller, USDC_E, conditionId, amount);
}

const USDC_E = lower(CONTRACTS.usdcE);
const WRAPPED_COLLATERAL = lower(CONTRACTS.negRiskWrappedCollateral);

function ctfMovement(
  split: boolean,
  stakeholder: Hex,
  collateralToken: Hex,
  conditionId: Hex,
  amount: bigint,
): VenueEvent {
  const fields = {
    address: CTF,
    stakeholder,
    collateralToken,
    parentCollectionId: ZERO32,
    conditionId,
    partition: [1n, 2n],
    amount,
  };
  return split ? { kind: "PositionSplit", ...fields } : { kind: "PositionsMerge", ...fields };
}

/** YES won [1, 0], NO won [0, 1], 50-50 [1, 1]. */
export function payoutNumerators(resolution: "YES" | "NO" | "50-50"): bigint[] {
  return resolution === "YES" ? [1n, 0n] : resolution === "NO" ? [0n, 1n] : [1n, 1n];
}

/**
 * The logs of operation i, in the layout of `opLogLayout` (src/sim/world/chain.ts): the wallet's own call in V1
 * (through the NegRiskAdapter in a NegRisk market), a collateral adapter's in V2; none for a reward.
 */
export function opLogs(world: World, i: number): SimLog[] {
  const op = world.op(i);
  const events = opEvents(world, i);
  return events.map((event, k) => ({
    event,
    blockNumber: op.block,
    ts: op.ts,
    transactionHash: world.txHashOfOp(i),
    transactionIndex: op.txIndex,
    logIndex: op.logIndex + k,
  }));
}

function opEvents(world: World, i: number): VenueEvent[] {
  const op = world.op(i);
  const type = world.tables.opType[i];
  if (type === OP_RESOLUTION) {
    const market = world.markets[op.market]!;
    return [
      {
        kind: "ConditionResolution",
        address: CTF,
        conditionId: market.conditionId as Hex,
        oracle: lower(market.negRisk ? CONTRACTS.negRiskAdapter : UMA_CTF_ADAPTER),
        questionId: market.questionId as Hex,
        outcomeSlotCount: 2n,
        payoutNumerators: payoutNumerators(market.resolution!),
      },
    ];
  }
  if (type !== OP_SPLIT && type !== OP_MERGE && type !== OP_REDEEM && type !== OP_CONVERSION) return [];
  const market = world.markets[op.market]!;
  const wallet = lower(world.wallets[op.wallet]!.proxyWallet);
  const conditionId = market.conditionId as Hex;
  const amount = BigInt(op.amount);
  const adapter = exchangeVersion(op.ts) === 2 ? lower(collateralAdapterAt(op.ts, market.negRisk)) : null;
  // Whoever calls the ConditionalTokens or the NegRiskAdapter: the wallet in V1, the collateral adapter in V2.
  const caller = adapter ?? wallet;
  const fromWallet = (values: bigint[], m = op.market) => pairTransfer(world, m, adapter!, wallet, adapter!, values);
  switch (type) {
    case OP_SPLIT:
    case OP_MERGE: {
      const split = type === OP_SPLIT;
      const event = splitOrMerge(world, op.market, split, caller)(amount);
      const under = market.negRisk
        ? [ctfMovement(split, NEG_RISK_ADAPTER, WRAPPED_COLLATERAL, conditionId, amount)]
        : [];
      if (!adapter) return [...under, event];
      if (split) {
        const mint = market.negRisk
          ? under
          : [pairTransfer(world, op.market, adapter, ZERO_ADDRESS, adapter, [amount, amount])];
        return [...mint, event, pairTransfer(world, op.market, adapter, adapter, wallet, [amount, amount])];
      }
      const burn = market.negRisk
        ? under
        : [pairTransfer(world, op.market, adapter, adapter, ZERO_ADDRESS, [amount, amount])];
      return [fromWallet([amount, amount]), ...burn, event];
    }
    case OP_REDEEM: {
      const payout = BigInt(Math.trunc(op.payout));
      const held = [BigInt(op.amount), BigInt(op.amount2)];
      const ctf = (redeemer: Hex, collateralToken: Hex): VenueEvent => ({
        kind: "PayoutRedemption",
        address: CTF,
        redeemer,
        collateralToken,
        parentCollectionId: ZERO32,
        conditionId,
        indexSets: [1n, 2n].filter((set) => BigInt(redeemedIndexSets(op.amount, op.amount2)) & set),
        payout,
      });
      const own: VenueEvent[] = market.negRisk
        ? [
            ctf(NEG_RISK_ADAPTER, WRAPPED_COLLATERAL),
            {
              kind: "NegRiskPayoutRedemption",
              address: NEG_RISK_ADAPTER,
              redeemer: caller,
              conditionId,
              amounts: held,
              payout,
            },
          ]
        : [ctf(caller, USDC_E)];
      if (!adapter) return own;
      const burn = market.negRisk ? [] : [pairTransfer(world, op.market, adapter, adapter, ZERO_ADDRESS, held)];
      return [fromWallet(held), ...burn, ...own];
    }
    default: {
      const event = world.events[op.event]!;
      const converted: VenueEvent = {
        kind: "PositionsConverted",
        address: NEG_RISK_ADAPTER,
        stakeholder: caller,
        marketId: event.negRiskMarketId as Hex,
        indexSet: BigInt(op.indexSet),
        amount,
      };
      if (!adapter) return [converted];
      // The NO of each question in the set go in; the YES of every other question come out, less the fee.
      const given = event.marketIndexes.filter((_, q) => op.indexSet & (1 << q));
      const received = event.marketIndexes.filter((_, q) => !(op.indexSet & (1 << q)));
      const fee = (amount * BigInt(event.convertFeeBips)) / 10_000n;
      const batch = (from: Hex, to: Hex, ids: bigint[], value: bigint): VenueEvent => ({
        kind: "TransferBatch",
        address: CTF,
        operator: adapter,
        from,
        to,
        ids,
        values: ids.map(() => value),
      });
      return [
        batch(
          wallet,
          adapter,
          given.map((m) => BigInt(world.tokenId(m * 2 + 1))),
          amount,
        ),
        converted,
        batch(
          adapter,
          wallet,
          received.map((m) => BigInt(world.tokenId(m * 2))),
          amount - fee,
        ),
      ];
    }
  }
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
    else yield* opLogs(world, i++);
  }
}
