import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONTRACTS } from "../contracts.js";
import { encodeVenueLog, type Hex, type VenueEvent } from "./abi.js";
import { encodeLogWords } from "./words.js";

const hexOf = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => `0x${Buffer.from(b).toString("hex")}` as Hex);
const uint = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
const address = hexOf(20);
const hash = hexOf(32);
const lower = (a: string) => a.toLowerCase() as Hex;

/** Every event kind of the venue, any values the ABI allows. */
const anyEvent: fc.Arbitrary<VenueEvent> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(CONTRACTS.ctfExchangeV1, CONTRACTS.negRiskCtfExchangeV1),
      hash,
      address,
      address,
      uint,
      uint,
      uint,
      uint,
      uint,
    )
    .map(
      ([exchange, orderHash, maker, taker, makerAssetId, takerAssetId, makerAmountFilled, takerAmountFilled, fee]) =>
        ({
          kind: "OrderFilledV1",
          version: "v1",
          address: lower(exchange),
          orderHash,
          maker,
          taker,
          makerAssetId,
          takerAssetId,
          makerAmountFilled,
          takerAmountFilled,
          fee,
        }) as VenueEvent,
    ),
  fc.tuple(hash, address, address, fc.integer({ min: 0, max: 255 }), uint, uint, uint, uint, hash, hash).map(
    ([orderHash, maker, taker, side, tokenId, makerAmountFilled, takerAmountFilled, fee, builder, metadata]) =>
      ({
        kind: "OrderFilledV2",
        version: "v2",
        address: lower(CONTRACTS.ctfExchangeV2),
        orderHash,
        maker,
        taker,
        side,
        tokenId,
        makerAmountFilled,
        takerAmountFilled,
        fee,
        builder,
        metadata,
      }) as VenueEvent,
  ),
  fc.tuple(hash, address, uint, uint, uint, uint).map(
    ([takerOrderHash, takerOrderMaker, makerAssetId, takerAssetId, makerAmountFilled, takerAmountFilled]) =>
      ({
        kind: "OrdersMatchedV1",
        version: "v1",
        address: lower(CONTRACTS.ctfExchangeV1),
        takerOrderHash,
        takerOrderMaker,
        makerAssetId,
        takerAssetId,
        makerAmountFilled,
        takerAmountFilled,
      }) as VenueEvent,
  ),
  fc.tuple(hash, address, fc.integer({ min: 0, max: 255 }), uint, uint, uint).map(
    ([takerOrderHash, takerOrderMaker, side, tokenId, makerAmountFilled, takerAmountFilled]) =>
      ({
        kind: "OrdersMatchedV2",
        version: "v2",
        address: lower(CONTRACTS.negRiskCtfExchangeV2),
        takerOrderHash,
        takerOrderMaker,
        side,
        tokenId,
        makerAmountFilled,
        takerAmountFilled,
      }) as VenueEvent,
  ),
  fc.tuple(address, hash, uint, uint).map(
    ([stakeholder, marketId, indexSet, amount]) =>
      ({
        kind: "PositionsConverted",
        address: lower(CONTRACTS.negRiskAdapter),
        stakeholder,
        marketId,
        indexSet,
        amount,
      }) as VenueEvent,
  ),
  fc
    .tuple(
      fc.constantFrom("PositionSplit" as const, "PositionsMerge" as const),
      address,
      address,
      hash,
      hash,
      fc.array(uint, { maxLength: 4 }),
      uint,
    )
    .map(
      ([kind, stakeholder, collateralToken, parentCollectionId, conditionId, partition, amount]) =>
        ({
          kind,
          address: lower(CONTRACTS.conditionalTokens),
          stakeholder,
          collateralToken,
          parentCollectionId,
          conditionId,
          partition,
          amount,
        }) as VenueEvent,
    ),
  fc.tuple(address, address, hash, hash, fc.array(uint, { maxLength: 4 }), uint).map(
    ([redeemer, collateralToken, parentCollectionId, conditionId, indexSets, payout]) =>
      ({
        kind: "PayoutRedemption",
        address: lower(CONTRACTS.conditionalTokens),
        redeemer,
        collateralToken,
        parentCollectionId,
        conditionId,
        indexSets,
        payout,
      }) as VenueEvent,
  ),
  fc.tuple(hash, address, hash, uint, fc.array(uint, { maxLength: 4 })).map(
    ([conditionId, oracle, questionId, outcomeSlotCount, payoutNumerators]) =>
      ({
        kind: "ConditionResolution",
        address: lower(CONTRACTS.conditionalTokens),
        conditionId,
        oracle,
        questionId,
        outcomeSlotCount,
        payoutNumerators,
      }) as VenueEvent,
  ),
);

describe("encodeLogWords", () => {
  it("writes every venue event byte for byte as viem's encoder does", () => {
    fc.assert(
      fc.property(anyEvent, (event) => {
        expect(encodeLogWords(event)).toEqual(encodeVenueLog(event));
      }),
      { numRuns: 500 },
    );
  });

  it("leaves to viem what viem checks differently: mixed-case addresses, values out of range", () => {
    const event = {
      kind: "PositionsConverted",
      address: lower(CONTRACTS.negRiskAdapter),
      stakeholder: `0x${"a".repeat(40)}`,
      marketId: `0x${"1".repeat(64)}`,
      indexSet: 3n,
      amount: 5n,
    } as VenueEvent;
    expect(encodeLogWords(event)).not.toBeNull();
    expect(encodeLogWords({ ...event, stakeholder: `0x${"A".repeat(40)}` } as VenueEvent)).toBeNull();
    expect(encodeLogWords({ ...event, amount: 2n ** 256n } as VenueEvent)).toBeNull();
    expect(encodeLogWords({ ...event, amount: -1n } as VenueEvent)).toBeNull();
  });
});
