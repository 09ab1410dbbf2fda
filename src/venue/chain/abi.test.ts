import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  VENUE_EVENT_TOPICS,
  eventEmitters,
  VenueLogDecodeError,
  decodeVenueLog,
  encodeVenueLog,
  logFilterFor,
  type Hex,
  type VenueEvent,
} from "./abi.js";
import { CONTRACTS } from "../contracts.js";

const hexOf = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString("hex")}`;
const bytesN = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map(hexOf);
const address = bytesN(20);
const bytes32 = bytesN(32);
const uint256 = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
const uint8 = fc.integer({ min: 0, max: 255 });
const uintArray = fc.array(uint256, { maxLength: 5 });
const emitter = (kind: VenueEvent["kind"]) => fc.constantFrom(...eventEmitters(kind));

const venueEvent: fc.Arbitrary<VenueEvent> = fc.oneof(
  fc.record({
    kind: fc.constant("OrderFilledV1" as const),
    version: fc.constant("v1" as const),
    address: emitter("OrderFilledV1"),
    orderHash: bytes32,
    maker: address,
    taker: address,
    makerAssetId: uint256,
    takerAssetId: uint256,
    makerAmountFilled: uint256,
    takerAmountFilled: uint256,
    fee: uint256,
  }),
  fc.record({
    kind: fc.constant("OrderFilledV2" as const),
    version: fc.constant("v2" as const),
    address: emitter("OrderFilledV2"),
    orderHash: bytes32,
    maker: address,
    taker: address,
    side: uint8,
    tokenId: uint256,
    makerAmountFilled: uint256,
    takerAmountFilled: uint256,
    fee: uint256,
    builder: bytes32,
    metadata: bytes32,
  }),
  fc.record({
    kind: fc.constant("OrdersMatchedV1" as const),
    version: fc.constant("v1" as const),
    address: emitter("OrdersMatchedV1"),
    takerOrderHash: bytes32,
    takerOrderMaker: address,
    makerAssetId: uint256,
    takerAssetId: uint256,
    makerAmountFilled: uint256,
    takerAmountFilled: uint256,
  }),
  fc.record({
    kind: fc.constant("OrdersMatchedV2" as const),
    version: fc.constant("v2" as const),
    address: emitter("OrdersMatchedV2"),
    takerOrderHash: bytes32,
    takerOrderMaker: address,
    side: uint8,
    tokenId: uint256,
    makerAmountFilled: uint256,
    takerAmountFilled: uint256,
  }),
  fc.record({
    kind: fc.constant("PositionsConverted" as const),
    address: emitter("PositionsConverted"),
    stakeholder: address,
    marketId: bytes32,
    indexSet: uint256,
    amount: uint256,
  }),
  fc.record({
    kind: fc.constantFrom("PositionSplit" as const, "PositionsMerge" as const),
    address: emitter("PositionSplit"),
    stakeholder: address,
    collateralToken: address,
    parentCollectionId: bytes32,
    conditionId: bytes32,
    partition: uintArray,
    amount: uint256,
  }),
  fc.record({
    kind: fc.constant("PayoutRedemption" as const),
    address: emitter("PayoutRedemption"),
    redeemer: address,
    collateralToken: address,
    parentCollectionId: bytes32,
    conditionId: bytes32,
    indexSets: uintArray,
    payout: uint256,
  }),
  fc.record({
    kind: fc.constantFrom("NegRiskPositionSplit" as const, "NegRiskPositionsMerge" as const),
    address: emitter("NegRiskPositionSplit"),
    stakeholder: address,
    conditionId: bytes32,
    amount: uint256,
  }),
  fc.record({
    kind: fc.constant("NegRiskPayoutRedemption" as const),
    address: emitter("NegRiskPayoutRedemption"),
    redeemer: address,
    conditionId: bytes32,
    amounts: uintArray,
    payout: uint256,
  }),
  fc.record({
    kind: fc.constant("TransferSingle" as const),
    address: emitter("TransferSingle"),
    operator: address,
    from: address,
    to: address,
    id: uint256,
    value: uint256,
  }),
  fc.record({
    kind: fc.constant("TransferBatch" as const),
    address: emitter("TransferBatch"),
    operator: address,
    from: address,
    to: address,
    ids: uintArray,
    values: uintArray,
  }),
  fc.record({
    kind: fc.constant("ConditionResolution" as const),
    address: emitter("ConditionResolution"),
    conditionId: bytes32,
    oracle: address,
    questionId: bytes32,
    outcomeSlotCount: uint256,
    payoutNumerators: uintArray,
  }),
);

const position = fc.record({
  blockNumber: fc.integer({ min: 0, max: 2 ** 40 }),
  blockHash: fc.option(bytes32, { nil: null }),
  transactionHash: bytes32,
  logIndex: fc.integer({ min: 0, max: 10_000 }),
});

describe("venue event ABIs", () => {
  it("hash to the topics the venue's contracts emit", () => {
    expect(VENUE_EVENT_TOPICS.OrderFilledV1).toBe("0xd0a08e8c493f9c94f29311604c9de1b4e8c8d4c06bd0c789af57f2d65bfec0f6");
    expect(VENUE_EVENT_TOPICS.OrderFilledV2).toBe("0xd543adfd945773f1a62f74f0ee55a5e3b9b1a28262980ba90b1a89f2ea84d8ee");
    expect(VENUE_EVENT_TOPICS.PositionsMerge).toBe(
      "0x6f13ca62553fcc2bcd2372180a43949c1e4cebba603901ede2f4e14f36b282ca",
    );
    // The NegRiskAdapter's own events and the ERC-1155 transfers, as the venue's contracts hash them (docs/VENUE.md).
    expect(VENUE_EVENT_TOPICS.NegRiskPayoutRedemption).toBe(
      "0x9140a6a270ef945260c03894b3c6b3b2695e9d5101feef0ff24fec960cfd3224",
    );
    expect(VENUE_EVENT_TOPICS.NegRiskPositionSplit).toBe(
      "0xbbed930dbfb7907ae2d60ddf78345610214f26419a0128df39b6cc3d9e5df9b0",
    );
    expect(VENUE_EVENT_TOPICS.NegRiskPositionsMerge).toBe(
      "0xba33ac50d8894676597e6e35dc09cff59854708b642cd069d21eb9c7ca072a04",
    );
    expect(VENUE_EVENT_TOPICS.TransferBatch).toBe("0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb");
    expect(VENUE_EVENT_TOPICS.TransferSingle).toBe(
      "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62",
    );
    expect(new Set(Object.values(VENUE_EVENT_TOPICS)).size).toBe(14);
  });

  it("name the emitting contracts", () => {
    expect(eventEmitters("OrderFilledV1")).toEqual([
      CONTRACTS.ctfExchangeV1.toLowerCase(),
      CONTRACTS.negRiskCtfExchangeV1.toLowerCase(),
    ]);
    // V2's layout: both V2 exchanges, the NegRisk one's first deployment, and exchange V3.
    expect(eventEmitters("OrdersMatchedV2")).toEqual([
      CONTRACTS.ctfExchangeV2.toLowerCase(),
      CONTRACTS.negRiskCtfExchangeV2.toLowerCase(),
      "0xe2222d002000ba0053cef3375333610f64600036",
      CONTRACTS.exchangeV3.toLowerCase(),
    ]);
    expect(eventEmitters("PositionsConverted")).toEqual([CONTRACTS.negRiskAdapter.toLowerCase()]);
    expect(eventEmitters("NegRiskPayoutRedemption")).toEqual([CONTRACTS.negRiskAdapter.toLowerCase()]);
    const filter = logFilterFor(["OrderFilledV2", "OrdersMatchedV2"]);
    expect(filter.address).toHaveLength(4);
    expect(filter.topics[0]).toEqual([VENUE_EVENT_TOPICS.OrderFilledV2, VENUE_EVENT_TOPICS.OrdersMatchedV2]);
  });
});

describe("encodeVenueLog / decodeVenueLog", () => {
  it("round-trip every event kind", () => {
    fc.assert(
      fc.property(venueEvent, position, (event, at) => {
        const encoded = encodeVenueLog(event);
        const decoded = decodeVenueLog({ ...encoded, ...at });
        expect(decoded).toEqual({ ...event, ...at });
      }),
      { numRuns: 400 },
    );
  });

  it("read eth_getLogs hex quantities and mixed-case addresses", () => {
    const event: VenueEvent = {
      kind: "PositionsConverted",
      address: CONTRACTS.negRiskAdapter.toLowerCase() as Hex,
      stakeholder: "0x00000000000000000000000000000000000000aa",
      marketId: `0x${"11".repeat(32)}`,
      indexSet: 5n,
      amount: 1_000_000n,
    };
    const encoded = encodeVenueLog(event);
    const decoded = decodeVenueLog({
      ...encoded,
      address: CONTRACTS.negRiskAdapter,
      blockNumber: "0x10",
      transactionHash: `0x${"AB".repeat(32)}`,
      logIndex: "0x2",
    });
    expect(decoded).toMatchObject({
      kind: "PositionsConverted",
      indexSet: 5n,
      blockNumber: 16,
      logIndex: 2,
      blockHash: null,
    });
    expect(decoded?.transactionHash).toBe(`0x${"ab".repeat(32)}`);
  });

  it("ignore logs that are not venue events, or come from another contract", () => {
    const transfer = {
      address: CONTRACTS.conditionalTokens,
      topics: [`0x${"00".repeat(32)}`],
      data: "0x",
      blockNumber: 1,
      transactionHash: `0x${"01".repeat(32)}`,
      logIndex: 0,
    };
    expect(decodeVenueLog(transfer)).toBeNull();
    const filled = encodeVenueLog({
      kind: "OrdersMatchedV2",
      version: "v2",
      address: CONTRACTS.ctfExchangeV2.toLowerCase() as Hex,
      takerOrderHash: `0x${"22".repeat(32)}`,
      takerOrderMaker: "0x00000000000000000000000000000000000000bb",
      side: 0,
      tokenId: 7n,
      makerAmountFilled: 1n,
      takerAmountFilled: 2n,
    });
    const at = { blockNumber: 1, transactionHash: `0x${"01".repeat(32)}`, logIndex: 0 };
    expect(decodeVenueLog({ ...filled, ...at, address: "0x00000000000000000000000000000000000000cc" })).toBeNull();
    // A V2 layout at a V1 exchange is not a V1 event either.
    expect(decodeVenueLog({ ...filled, ...at, address: CONTRACTS.ctfExchangeV1 })).toBeNull();
  });

  it("refuse a venue event whose data is truncated", () => {
    const encoded = encodeVenueLog({
      kind: "OrderFilledV1",
      version: "v1",
      address: CONTRACTS.ctfExchangeV1.toLowerCase() as Hex,
      orderHash: `0x${"33".repeat(32)}`,
      maker: "0x00000000000000000000000000000000000000aa",
      taker: "0x00000000000000000000000000000000000000bb",
      makerAssetId: 0n,
      takerAssetId: 9n,
      makerAmountFilled: 60n,
      takerAmountFilled: 100n,
      fee: 0n,
    });
    const broken = {
      ...encoded,
      data: encoded.data.slice(0, 66) as Hex,
      blockNumber: 1,
      transactionHash: `0x${"01".repeat(32)}`,
      logIndex: 3,
    };
    expect(() => decodeVenueLog(broken)).toThrow(VenueLogDecodeError);
  });
});
