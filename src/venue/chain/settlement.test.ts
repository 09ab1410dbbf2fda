import { describe, expect, it } from "vitest";
import { decodeVenueLog, encodeVenueLog, type DecodedVenueLog, type Hex, type VenueEvent } from "./abi.js";
import { CONTRACTS } from "../contracts.js";
import { matchTypeOf, settleFills } from "./settlement.js";

const V1 = CONTRACTS.ctfExchangeV1.toLowerCase() as Hex;
const V2 = CONTRACTS.negRiskCtfExchangeV2.toLowerCase() as Hex;
const TAKER = "0x00000000000000000000000000000000000000a1" as Hex;
const MAKER = "0x00000000000000000000000000000000000000b2" as Hex;
const MAKER2 = "0x00000000000000000000000000000000000000c3" as Hex;
const YES = 1111n;
const NO = 2222n;
const TX = `0x${"7a".repeat(32)}` as Hex;
const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;
const ZERO32 = hash(0);
const M = 1_000_000n;

/** Encodes then decodes, so the tests exercise the same path as logs from the chain. */
function onChain(events: VenueEvent[], firstLogIndex = 10, tx: Hex = TX): DecodedVenueLog[] {
  return events.map((event, i) => {
    const decoded = decodeVenueLog({
      ...encodeVenueLog(event),
      blockNumber: 500,
      transactionHash: tx,
      logIndex: firstLogIndex + i,
    });
    if (!decoded) throw new Error("not a venue log");
    return decoded;
  });
}

function filledV1(
  address: Hex,
  orderHash: Hex,
  maker: Hex,
  taker: Hex,
  makerAssetId: bigint,
  takerAssetId: bigint,
  making: bigint,
  taking: bigint,
  fee = 0n,
): VenueEvent {
  return {
    kind: "OrderFilledV1",
    version: "v1",
    address,
    orderHash,
    maker,
    taker,
    makerAssetId,
    takerAssetId,
    makerAmountFilled: making,
    takerAmountFilled: taking,
    fee,
  };
}

function filledV2(
  address: Hex,
  orderHash: Hex,
  maker: Hex,
  taker: Hex,
  side: number,
  tokenId: bigint,
  making: bigint,
  taking: bigint,
  fee = 0n,
): VenueEvent {
  return {
    kind: "OrderFilledV2",
    version: "v2",
    address,
    orderHash,
    maker,
    taker,
    side,
    tokenId,
    makerAmountFilled: making,
    takerAmountFilled: taking,
    fee,
    builder: ZERO32,
    metadata: ZERO32,
  };
}

describe("matchTypeOf", () => {
  it("follows the exchange's MatchType rule", () => {
    expect(matchTypeOf("BUY", "BUY")).toBe("MINT");
    expect(matchTypeOf("SELL", "SELL")).toBe("MERGE");
    expect(matchTypeOf("BUY", "SELL")).toBe("COMPLEMENTARY");
    expect(matchTypeOf("SELL", "BUY")).toBe("COMPLEMENTARY");
  });
});

describe("settleFills", () => {
  it("MINT (V1): taker BUY YES 100 @0.60 against maker BUY NO 100 @0.40", () => {
    // Taker fee 100 × 0.04 × 0.6 × 0.4 = 0.96 USD; V1 charges a BUY in tokens: 0.96 / 0.60 = 1.6 YES.
    const logs = onChain([
      filledV1(V1, hash(1), MAKER, TAKER, 0n, NO, 40n * M, 100n * M),
      filledV1(V1, hash(2), TAKER, V1, 0n, YES, 60n * M, 100n * M, 1_600_000n),
      {
        kind: "OrdersMatchedV1",
        version: "v1",
        address: V1,
        takerOrderHash: hash(2),
        takerOrderMaker: TAKER,
        makerAssetId: 0n,
        takerAssetId: YES,
        makerAmountFilled: 60n * M,
        takerAmountFilled: 100n * M,
      },
    ]);
    const { fills, anomalies } = settleFills(logs);
    expect(anomalies).toEqual([]);
    expect(fills).toEqual([
      {
        txHash: TX,
        logIndex: 10,
        blockNumber: 500,
        exchange: V1,
        exchangeVersion: "v1",
        orderHash: hash(1),
        wallet: MAKER,
        role: "MAKER",
        counterparty: TAKER,
        direction: "BUY",
        tokenId: "2222",
        sizeMicro: 100_000_000,
        usdMicro: 40_000_000,
        priceMicro: 400_000,
        feeMicro: 0,
        feeAsset: "TOKEN",
        feeUsdMicro: 0,
        entryType: "MINT",
      },
      {
        txHash: TX,
        logIndex: 11,
        blockNumber: 500,
        exchange: V1,
        exchangeVersion: "v1",
        orderHash: hash(2),
        wallet: TAKER,
        role: "TAKER",
        counterparty: MAKER,
        direction: "BUY",
        tokenId: "1111",
        sizeMicro: 100_000_000,
        usdMicro: 60_000_000,
        priceMicro: 600_000,
        feeMicro: 1_600_000,
        feeAsset: "TOKEN",
        feeUsdMicro: 960_000,
        entryType: "MINT",
      },
    ]);
  });

  it("MERGE (V2): taker SELL YES 100 @0.60 against maker SELL NO 100 @0.40, side from the event", () => {
    const logs = onChain([
      filledV2(V2, hash(3), MAKER, TAKER, 1, NO, 100n * M, 40n * M),
      filledV2(V2, hash(4), TAKER, V2, 1, YES, 100n * M, 60n * M, 960_000n),
      {
        kind: "OrdersMatchedV2",
        version: "v2",
        address: V2,
        takerOrderHash: hash(4),
        takerOrderMaker: TAKER,
        side: 1,
        tokenId: YES,
        makerAmountFilled: 100n * M,
        takerAmountFilled: 60n * M,
      },
    ]);
    const { fills } = settleFills(logs);
    expect(
      fills.map((f) => [f.wallet, f.role, f.direction, f.tokenId, f.sizeMicro, f.usdMicro, f.priceMicro, f.entryType]),
    ).toEqual([
      [MAKER, "MAKER", "SELL", "2222", 100_000_000, 40_000_000, 400_000, "MERGE"],
      [TAKER, "TAKER", "SELL", "1111", 100_000_000, 60_000_000, 600_000, "MERGE"],
    ]);
    expect(fills[1]).toMatchObject({
      feeMicro: 960_000,
      feeAsset: "COLLATERAL",
      feeUsdMicro: 960_000,
      exchangeVersion: "v2",
    });
  });

  it("COMPLEMENTARY (V1): taker BUY YES 50 @0.70 against maker SELL YES; makerAssetId 0 means BUY", () => {
    const logs = onChain([
      filledV1(V1, hash(5), MAKER, TAKER, YES, 0n, 50n * M, 35n * M),
      filledV1(V1, hash(6), TAKER, V1, 0n, YES, 35n * M, 50n * M),
      {
        kind: "OrdersMatchedV1",
        version: "v1",
        address: V1,
        takerOrderHash: hash(6),
        takerOrderMaker: TAKER,
        makerAssetId: 0n,
        takerAssetId: YES,
        makerAmountFilled: 35n * M,
        takerAmountFilled: 50n * M,
      },
    ]);
    const { fills } = settleFills(logs);
    expect(
      fills.map((f) => [
        f.wallet,
        f.direction,
        f.tokenId,
        f.sizeMicro,
        f.usdMicro,
        f.priceMicro,
        f.entryType,
        f.feeAsset,
      ]),
    ).toEqual([
      [MAKER, "SELL", "1111", 50_000_000, 35_000_000, 700_000, "COMPLEMENTARY", "COLLATERAL"],
      [TAKER, "BUY", "1111", 50_000_000, 35_000_000, 700_000, "COMPLEMENTARY", "TOKEN"],
    ]);
  });

  it("V2 side field decides direction: side 0 BUY pays collateral (makerAmountFilled), side 1 SELL gives tokens", () => {
    const logs = onChain([
      filledV2(V2, hash(7), MAKER, TAKER, 0, YES, 30n * M, 50n * M),
      filledV2(V2, hash(8), TAKER, V2, 1, YES, 50n * M, 30n * M, 120_000n),
      {
        kind: "OrdersMatchedV2",
        version: "v2",
        address: V2,
        takerOrderHash: hash(8),
        takerOrderMaker: TAKER,
        side: 1,
        tokenId: YES,
        makerAmountFilled: 50n * M,
        takerAmountFilled: 30n * M,
      },
    ]);
    const { fills } = settleFills(logs);
    expect(fills.map((f) => [f.wallet, f.direction, f.sizeMicro, f.usdMicro, f.priceMicro, f.entryType])).toEqual([
      [MAKER, "BUY", 50_000_000, 30_000_000, 600_000, "COMPLEMENTARY"],
      [TAKER, "SELL", 50_000_000, 30_000_000, 600_000, "COMPLEMENTARY"],
    ]);
  });

  it("a taker against mixed makers takes the type covering most of its size and its first maker as counterparty; each maker keeps its own", () => {
    // Taker BUY YES 100: 30 from a maker selling YES (COMPLEMENTARY), 70 minted with a maker buying NO (MINT).
    const logs = onChain([
      filledV1(V1, hash(9), MAKER, TAKER, YES, 0n, 30n * M, 18n * M),
      filledV1(V1, hash(10), MAKER2, TAKER, 0n, NO, 28n * M, 70n * M),
      filledV1(V1, hash(11), TAKER, V1, 0n, YES, 60n * M, 100n * M),
      {
        kind: "OrdersMatchedV1",
        version: "v1",
        address: V1,
        takerOrderHash: hash(11),
        takerOrderMaker: TAKER,
        makerAssetId: 0n,
        takerAssetId: YES,
        makerAmountFilled: 60n * M,
        takerAmountFilled: 100n * M,
      },
    ]);
    const { fills } = settleFills(logs);
    expect(fills.map((f) => [f.wallet, f.entryType, f.counterparty])).toEqual([
      [MAKER, "COMPLEMENTARY", TAKER],
      [MAKER2, "MINT", TAKER],
      [TAKER, "MINT", MAKER],
    ]);
  });

  it("two matches in one transaction settle separately, in log order", () => {
    const logs = onChain([
      filledV1(V1, hash(12), MAKER, TAKER, 0n, NO, 40n * M, 100n * M),
      filledV1(V1, hash(13), TAKER, V1, 0n, YES, 60n * M, 100n * M),
      {
        kind: "OrdersMatchedV1",
        version: "v1",
        address: V1,
        takerOrderHash: hash(13),
        takerOrderMaker: TAKER,
        makerAssetId: 0n,
        takerAssetId: YES,
        makerAmountFilled: 60n * M,
        takerAmountFilled: 100n * M,
      },
      filledV1(V1, hash(14), MAKER2, MAKER, 0n, NO, 10n * M, 20n * M),
      filledV1(V1, hash(15), MAKER, V1, NO, 0n, 20n * M, 10n * M),
      {
        kind: "OrdersMatchedV1",
        version: "v1",
        address: V1,
        takerOrderHash: hash(15),
        takerOrderMaker: MAKER,
        makerAssetId: NO,
        takerAssetId: 0n,
        makerAmountFilled: 20n * M,
        takerAmountFilled: 10n * M,
      },
    ]);
    const { fills } = settleFills([...logs].reverse());
    expect(fills.map((f) => [f.logIndex, f.wallet, f.role, f.direction, f.entryType])).toEqual([
      [10, MAKER, "MAKER", "BUY", "MINT"],
      [11, TAKER, "TAKER", "BUY", "MINT"],
      [13, MAKER2, "MAKER", "BUY", "COMPLEMENTARY"],
      [14, MAKER, "TAKER", "SELL", "COMPLEMENTARY"],
    ]);
  });

  it("without the taker's fill, makers are still classified from OrdersMatched", () => {
    const logs = onChain([
      filledV1(V1, hash(16), MAKER, TAKER, 0n, NO, 40n * M, 100n * M),
      {
        kind: "OrdersMatchedV1",
        version: "v1",
        address: V1,
        takerOrderHash: hash(17),
        takerOrderMaker: TAKER,
        makerAssetId: 0n,
        takerAssetId: YES,
        makerAmountFilled: 60n * M,
        takerAmountFilled: 100n * M,
      },
    ]);
    const { fills } = settleFills(logs);
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({ wallet: MAKER, role: "MAKER", entryType: "MINT" });
  });

  it("incomplete logs: a lone maker fill has no derivable match type", () => {
    const logs = onChain([filledV1(V1, hash(18), MAKER, TAKER, 0n, NO, 40n * M, 100n * M)]);
    const { fills, anomalies } = settleFills(logs);
    expect(anomalies).toEqual([]);
    expect(fills[0]).toMatchObject({
      wallet: MAKER,
      role: null,
      entryType: null,
      direction: "BUY",
      counterparty: TAKER,
    });
  });

  it("reports fills it cannot read instead of guessing", () => {
    const logs = onChain([
      filledV1(V1, hash(19), MAKER, TAKER, YES, NO, 40n * M, 100n * M),
      filledV2(V2, hash(20), MAKER, TAKER, 7, YES, 1n, 1n),
      filledV2(V2, hash(21), MAKER, TAKER, 0, YES, 1n, 0n),
      filledV2(V2, hash(22), V2, TAKER, 0, YES, 1n, 1n),
    ]);
    const { fills, anomalies } = settleFills(logs);
    expect(fills).toEqual([]);
    expect(anomalies.map((a) => a.reason)).toEqual([
      "asset ids 1111/2222 name no single collateral leg",
      "unknown side 7",
      "zero size",
      "an exchange contract as the order's owner",
    ]);
  });

  it("ignores non-exchange events", () => {
    const logs = onChain([
      {
        kind: "PositionsConverted",
        address: CONTRACTS.negRiskAdapter.toLowerCase() as Hex,
        stakeholder: MAKER,
        marketId: hash(1),
        indexSet: 3n,
        amount: 5n,
      },
    ]);
    expect(settleFills(logs)).toEqual({ fills: [], anomalies: [] });
  });
});
