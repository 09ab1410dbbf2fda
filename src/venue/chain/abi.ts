/**
 * The venue's on-chain events (the venue's Polygon contracts) and their decoding into a typed union, plus the
 * inverse encoding the simulated venue uses to serve real-looking logs. Addresses and hashes come out lower case.
 */
import { PelagicError } from "../../errors/index.js";
import {
  decodeEventLog,
  encodeAbiParameters,
  encodeEventTopics,
  parseAbiItem,
  toEventSelector,
  type AbiEvent,
} from "viem";
import { CONTRACTS, addressesWithRole, exchangeVersion, venueContracts } from "../contracts.js";

export type Hex = `0x${string}`;

export const ORDER_FILLED_V1 = parseAbiItem(
  "event OrderFilled(bytes32 indexed orderHash, address indexed maker, address indexed taker, uint256 makerAssetId, uint256 takerAssetId, uint256 makerAmountFilled, uint256 takerAmountFilled, uint256 fee)",
);
export const ORDERS_MATCHED_V1 = parseAbiItem(
  "event OrdersMatched(bytes32 indexed takerOrderHash, address indexed takerOrderMaker, uint256 makerAssetId, uint256 takerAssetId, uint256 makerAmountFilled, uint256 takerAmountFilled)",
);
export const ORDER_FILLED_V2 = parseAbiItem(
  "event OrderFilled(bytes32 indexed orderHash, address indexed maker, address indexed taker, uint8 side, uint256 tokenId, uint256 makerAmountFilled, uint256 takerAmountFilled, uint256 fee, bytes32 builder, bytes32 metadata)",
);
export const ORDERS_MATCHED_V2 = parseAbiItem(
  "event OrdersMatched(bytes32 indexed takerOrderHash, address indexed takerOrderMaker, uint8 side, uint256 tokenId, uint256 makerAmountFilled, uint256 takerAmountFilled)",
);
export const POSITIONS_CONVERTED = parseAbiItem(
  "event PositionsConverted(address indexed stakeholder, bytes32 indexed marketId, uint256 indexed indexSet, uint256 amount)",
);
// ConditionalTokens (Gnosis CTF): which parameters are indexed follows the deployed contract.
export const POSITION_SPLIT = parseAbiItem(
  "event PositionSplit(address indexed stakeholder, address collateralToken, bytes32 indexed parentCollectionId, bytes32 indexed conditionId, uint256[] partition, uint256 amount)",
);
export const POSITIONS_MERGE = parseAbiItem(
  "event PositionsMerge(address indexed stakeholder, address collateralToken, bytes32 indexed parentCollectionId, bytes32 indexed conditionId, uint256[] partition, uint256 amount)",
);
export const PAYOUT_REDEMPTION = parseAbiItem(
  "event PayoutRedemption(address indexed redeemer, address indexed collateralToken, bytes32 indexed parentCollectionId, bytes32 conditionId, uint256[] indexSets, uint256 payout)",
);
// The NegRiskAdapter's own events: a NegRisk split, merge or redemption made through it names its caller here (the
// ConditionalTokens event underneath names the adapter).
export const NEG_RISK_POSITION_SPLIT = parseAbiItem(
  "event PositionSplit(address indexed stakeholder, bytes32 indexed conditionId, uint256 amount)",
);
export const NEG_RISK_POSITIONS_MERGE = parseAbiItem(
  "event PositionsMerge(address indexed stakeholder, bytes32 indexed conditionId, uint256 amount)",
);
export const NEG_RISK_PAYOUT_REDEMPTION = parseAbiItem(
  "event PayoutRedemption(address indexed redeemer, bytes32 indexed conditionId, uint256[] amounts, uint256 payout)",
);
// ERC-1155 transfers of outcome tokens, read only where a collateral adapter is the operator: they name the wallet
// an adapter acted for (src/venue/chain/attribution.ts).
export const TRANSFER_SINGLE = parseAbiItem(
  "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
);
export const TRANSFER_BATCH = parseAbiItem(
  "event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
);
export const CONDITION_RESOLUTION = parseAbiItem(
  "event ConditionResolution(bytes32 indexed conditionId, address indexed oracle, bytes32 indexed questionId, uint256 outcomeSlotCount, uint256[] payoutNumerators)",
);

/**
 * The collateral tokens' ERC-20 transfer (USDC.e, pUSD): how collateral reaches a wallet. Not one of the venue's
 * events (the chain pipeline never asks for it): a wallet's funding is read by its recipient topic.
 */
export const ERC20_TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
export const ERC20_TRANSFER_TOPIC: Hex = toEventSelector(ERC20_TRANSFER);

/** V2 `side`: the order's side, 0 = BUY (pays collateral), 1 = SELL (gives outcome tokens). */
export const SIDE_BUY = 0;
export const SIDE_SELL = 1;

export interface OrderFilledV1Event {
  readonly kind: "OrderFilledV1";
  readonly version: "v1";
  readonly address: Hex;
  readonly orderHash: Hex;
  /** The order's owner. */
  readonly maker: Hex;
  /** The taker order's owner, or the exchange itself on the taker order's own fill. */
  readonly taker: Hex;
  /** 0 is collateral: makerAssetId == 0 means the order is a BUY. */
  readonly makerAssetId: bigint;
  readonly takerAssetId: bigint;
  readonly makerAmountFilled: bigint;
  readonly takerAmountFilled: bigint;
  readonly fee: bigint;
}

export interface OrderFilledV2Event {
  readonly kind: "OrderFilledV2";
  readonly version: "v2";
  readonly address: Hex;
  readonly orderHash: Hex;
  readonly maker: Hex;
  readonly taker: Hex;
  readonly side: number;
  readonly tokenId: bigint;
  readonly makerAmountFilled: bigint;
  readonly takerAmountFilled: bigint;
  readonly fee: bigint;
  readonly builder: Hex;
  readonly metadata: Hex;
}

export interface OrdersMatchedV1Event {
  readonly kind: "OrdersMatchedV1";
  readonly version: "v1";
  readonly address: Hex;
  readonly takerOrderHash: Hex;
  readonly takerOrderMaker: Hex;
  readonly makerAssetId: bigint;
  readonly takerAssetId: bigint;
  readonly makerAmountFilled: bigint;
  readonly takerAmountFilled: bigint;
}

export interface OrdersMatchedV2Event {
  readonly kind: "OrdersMatchedV2";
  readonly version: "v2";
  readonly address: Hex;
  readonly takerOrderHash: Hex;
  readonly takerOrderMaker: Hex;
  readonly side: number;
  readonly tokenId: bigint;
  readonly makerAmountFilled: bigint;
  readonly takerAmountFilled: bigint;
}

export interface PositionsConvertedEvent {
  readonly kind: "PositionsConverted";
  readonly address: Hex;
  readonly stakeholder: Hex;
  readonly marketId: Hex;
  /** Each set bit is a NO position given up. */
  readonly indexSet: bigint;
  readonly amount: bigint;
}

interface CollateralMovement {
  readonly address: Hex;
  readonly stakeholder: Hex;
  readonly collateralToken: Hex;
  readonly parentCollectionId: Hex;
  readonly conditionId: Hex;
  readonly partition: readonly bigint[];
  readonly amount: bigint;
}

export interface PositionSplitEvent extends CollateralMovement {
  readonly kind: "PositionSplit";
}

export interface PositionsMergeEvent extends CollateralMovement {
  readonly kind: "PositionsMerge";
}

export interface PayoutRedemptionEvent {
  readonly kind: "PayoutRedemption";
  readonly address: Hex;
  readonly redeemer: Hex;
  readonly collateralToken: Hex;
  readonly parentCollectionId: Hex;
  readonly conditionId: Hex;
  readonly indexSets: readonly bigint[];
  readonly payout: bigint;
}

/** The NegRiskAdapter's PositionSplit or PositionsMerge: `stakeholder` is whoever called the adapter. */
interface NegRiskMovement {
  readonly address: Hex;
  readonly stakeholder: Hex;
  readonly conditionId: Hex;
  readonly amount: bigint;
}

export interface NegRiskPositionSplitEvent extends NegRiskMovement {
  readonly kind: "NegRiskPositionSplit";
}

export interface NegRiskPositionsMergeEvent extends NegRiskMovement {
  readonly kind: "NegRiskPositionsMerge";
}

export interface NegRiskPayoutRedemptionEvent {
  readonly kind: "NegRiskPayoutRedemption";
  readonly address: Hex;
  readonly redeemer: Hex;
  readonly conditionId: Hex;
  /** The amounts of YES and NO burnt. */
  readonly amounts: readonly bigint[];
  readonly payout: bigint;
}

export interface TransferSingleEvent {
  readonly kind: "TransferSingle";
  readonly address: Hex;
  readonly operator: Hex;
  readonly from: Hex;
  readonly to: Hex;
  readonly id: bigint;
  readonly value: bigint;
}

export interface TransferBatchEvent {
  readonly kind: "TransferBatch";
  readonly address: Hex;
  readonly operator: Hex;
  readonly from: Hex;
  readonly to: Hex;
  readonly ids: readonly bigint[];
  readonly values: readonly bigint[];
}

export interface ConditionResolutionEvent {
  readonly kind: "ConditionResolution";
  readonly address: Hex;
  readonly conditionId: Hex;
  readonly oracle: Hex;
  readonly questionId: Hex;
  readonly outcomeSlotCount: bigint;
  readonly payoutNumerators: readonly bigint[];
}

export type VenueEvent =
  | OrderFilledV1Event
  | OrderFilledV2Event
  | OrdersMatchedV1Event
  | OrdersMatchedV2Event
  | PositionsConvertedEvent
  | PositionSplitEvent
  | PositionsMergeEvent
  | PayoutRedemptionEvent
  | NegRiskPositionSplitEvent
  | NegRiskPositionsMergeEvent
  | NegRiskPayoutRedemptionEvent
  | TransferSingleEvent
  | TransferBatchEvent
  | ConditionResolutionEvent;

export type VenueEventKind = VenueEvent["kind"];
export type OrderFilledEvent = OrderFilledV1Event | OrderFilledV2Event;
export type OrdersMatchedEvent = OrdersMatchedV1Event | OrdersMatchedV2Event;

/** Where a log sits on chain. */
export interface LogPosition {
  readonly blockNumber: number;
  readonly blockHash: Hex | null;
  readonly transactionHash: Hex;
  readonly logIndex: number;
}

export type DecodedVenueLog = VenueEvent & LogPosition;

/** A log as eth_getLogs returns it (hex quantities) or with plain numbers. */
export interface RawLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
  readonly blockNumber: string | number | bigint;
  readonly blockHash?: string | null;
  readonly transactionHash: string;
  readonly logIndex: string | number;
}

export interface EncodedLog {
  readonly address: Hex;
  readonly topics: Hex[];
  readonly data: Hex;
}

export interface EventSpec {
  readonly kind: VenueEventKind;
  readonly abi: AbiEvent;
  readonly version?: "v1" | "v2";
  /** Whether a contract at this (lower-case) address emits the event. */
  readonly emittedBy: (address: string) => boolean;
}

const isAt = (contract: string) => (address: string) => address === contract.toLowerCase();

const SPECS: readonly EventSpec[] = [
  { kind: "OrderFilledV1", abi: ORDER_FILLED_V1, version: "v1", emittedBy: (a) => exchangeVersion(a) === "v1" },
  { kind: "OrdersMatchedV1", abi: ORDERS_MATCHED_V1, version: "v1", emittedBy: (a) => exchangeVersion(a) === "v1" },
  { kind: "OrderFilledV2", abi: ORDER_FILLED_V2, version: "v2", emittedBy: (a) => exchangeVersion(a) === "v2" },
  { kind: "OrdersMatchedV2", abi: ORDERS_MATCHED_V2, version: "v2", emittedBy: (a) => exchangeVersion(a) === "v2" },
  { kind: "PositionsConverted", abi: POSITIONS_CONVERTED, emittedBy: isAt(CONTRACTS.negRiskAdapter) },
  { kind: "PositionSplit", abi: POSITION_SPLIT, emittedBy: isAt(CONTRACTS.conditionalTokens) },
  { kind: "PositionsMerge", abi: POSITIONS_MERGE, emittedBy: isAt(CONTRACTS.conditionalTokens) },
  { kind: "PayoutRedemption", abi: PAYOUT_REDEMPTION, emittedBy: isAt(CONTRACTS.conditionalTokens) },
  { kind: "ConditionResolution", abi: CONDITION_RESOLUTION, emittedBy: isAt(CONTRACTS.conditionalTokens) },
  { kind: "NegRiskPositionSplit", abi: NEG_RISK_POSITION_SPLIT, emittedBy: isAt(CONTRACTS.negRiskAdapter) },
  { kind: "NegRiskPositionsMerge", abi: NEG_RISK_POSITIONS_MERGE, emittedBy: isAt(CONTRACTS.negRiskAdapter) },
  { kind: "NegRiskPayoutRedemption", abi: NEG_RISK_PAYOUT_REDEMPTION, emittedBy: isAt(CONTRACTS.negRiskAdapter) },
  { kind: "TransferSingle", abi: TRANSFER_SINGLE, emittedBy: isAt(CONTRACTS.conditionalTokens) },
  { kind: "TransferBatch", abi: TRANSFER_BATCH, emittedBy: isAt(CONTRACTS.conditionalTokens) },
];

const SPEC_BY_KIND = new Map(SPECS.map((s) => [s.kind, s]));
const SPEC_BY_TOPIC = new Map(SPECS.map((s) => [toEventSelector(s.abi), s]));

/** The venue's events by topic0 (lower case): kind, ABI item, generation and emitting contracts. */
export const VENUE_EVENT_SPECS: ReadonlyMap<string, EventSpec> = SPEC_BY_TOPIC;

/** topic0 of each event kind. */
export const VENUE_EVENT_TOPICS: Readonly<Record<VenueEventKind, Hex>> = Object.fromEntries(
  SPECS.map((s) => [s.kind, toEventSelector(s.abi)]),
) as Record<VenueEventKind, Hex>;

/** The contracts of the table (VENUE_EXTRA_EXCHANGES included) that emit an event kind, as eth_getLogs `address` values. */
export function eventEmitters(kind: VenueEventKind): Hex[] {
  const spec = SPEC_BY_KIND.get(kind) as EventSpec;
  return venueContracts()
    .map((c) => c.address as Hex)
    .filter((a) => spec.emittedBy(a));
}

/** An eth_getLogs filter (address and topic0 alternatives) for the given kinds. */
export function logFilterFor(kinds: readonly VenueEventKind[]): { address: Hex[]; topics: [Hex[]] } {
  const address = [...new Set(kinds.flatMap((k) => eventEmitters(k)))];
  return { address, topics: [[...new Set(kinds.map((k) => VENUE_EVENT_TOPICS[k]))]] };
}

/** A topic word holding an address (12 zero bytes, then the address), lower case. */
export const addressTopic = (address: string): Hex => `0x${"0".repeat(24)}${address.slice(2).toLowerCase()}`;

/**
 * The ConditionalTokens' outcome-token transfers made by a collateral adapter (its `operator`, topic 1): the
 * selection that, beside the venue's events, names the wallet each adapter acted for.
 */
export function adapterTransfersFilter(): { address: Hex[]; topics: [Hex[], Hex[]] } {
  return {
    address: eventEmitters("TransferBatch"),
    topics: [
      [VENUE_EVENT_TOPICS.TransferSingle, VENUE_EVENT_TOPICS.TransferBatch],
      addressesWithRole("collateral-adapter").map(addressTopic),
    ],
  };
}

/** A log whose topic0 is one of the venue's events, from the right contract, that does not decode. */
export class VenueLogDecodeError extends PelagicError {
  constructor(
    readonly log: RawLog,
    reason: string,
  ) {
    super("VENUE_LOG_UNDECODABLE", `undecodable venue log ${log.transactionHash}#${String(log.logIndex)}: ${reason}`);
  }
}

/** A hex quantity of at most 13 digits: exact as a double, read without BigInt. */
const SHORT_QUANTITY = /^0x[0-9a-fA-F]{1,13}$/;

function quantity(value: string | number | bigint): number {
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && SHORT_QUANTITY.test(value)
        ? parseInt(value, 16)
        : Number(BigInt(value));
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`bad quantity ${String(value)}`);
  return n;
}

/** Where a log sits on chain, addresses and hashes lower case; VenueLogDecodeError when its quantities do not read. */
export function logPosition(log: RawLog): LogPosition {
  try {
    return {
      blockNumber: quantity(log.blockNumber),
      blockHash: log.blockHash ? (log.blockHash.toLowerCase() as Hex) : null,
      transactionHash: log.transactionHash.toLowerCase() as Hex,
      logIndex: quantity(log.logIndex),
    };
  } catch (error) {
    throw new VenueLogDecodeError(log, (error as Error).message);
  }
}

function lower(value: unknown): unknown {
  if (typeof value === "string") return value.toLowerCase();
  if (Array.isArray(value)) return [...(value as unknown[])];
  return value;
}

/**
 * Decodes one log into the venue event it carries, with its position on chain. Returns null for logs that
 * are not venue events (other topics such as ERC-1155 transfers, or another contract using the same
 * signature); throws VenueLogDecodeError when a venue event's topics or data do not decode.
 */
export function decodeVenueLog(log: RawLog): DecodedVenueLog | null {
  const spec = SPEC_BY_TOPIC.get((log.topics[0] ?? "").toLowerCase() as Hex);
  const address = log.address.toLowerCase();
  if (!spec || !spec.emittedBy(address)) return null;
  let args: Record<string, unknown>;
  try {
    const decoded = decodeEventLog({
      abi: [spec.abi],
      data: log.data as Hex,
      topics: log.topics as [Hex, ...Hex[]],
      strict: true,
    });
    args = decoded.args as unknown as Record<string, unknown>;
  } catch (error) {
    throw new VenueLogDecodeError(log, (error as Error).message.split("\n")[0] ?? "decode failed");
  }
  const fields: Record<string, unknown> = { kind: spec.kind };
  if (spec.version) fields.version = spec.version;
  fields.address = address;
  for (const input of spec.abi.inputs) fields[input.name as string] = lower(args[input.name as string]);
  return { ...fields, ...logPosition(log) } as DecodedVenueLog;
}

/** The log a contract would emit for the event: what the simulated venue serves from eth_getLogs. */
export function encodeVenueLog(event: VenueEvent): EncodedLog {
  const spec = SPEC_BY_KIND.get(event.kind);
  if (!spec) throw new TypeError(`unknown venue event kind ${String(event.kind)}`);
  const values = event as unknown as Record<string, unknown>;
  const indexedArgs: Record<string, unknown> = {};
  const dataInputs = spec.abi.inputs.filter((input) => !input.indexed);
  for (const input of spec.abi.inputs) {
    if (input.indexed) indexedArgs[input.name as string] = values[input.name as string];
  }
  const topics = encodeEventTopics({ abi: [spec.abi], eventName: spec.abi.name, args: indexedArgs } as never) as Hex[];
  const data = encodeAbiParameters(
    dataInputs,
    dataInputs.map((input) => values[input.name as string]),
  );
  return { address: event.address.toLowerCase() as Hex, topics, data };
}
