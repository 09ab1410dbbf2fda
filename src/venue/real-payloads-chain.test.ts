/**
 * The published chain logs of test/fixtures/venue-real (src/venue/testing/real-payloads.ts names them), through the
 * chain decoder (the eth_getLogs path and the word decoder, against viem's reference decoding) and attribution.
 */
import { toEventSelector } from "viem";
import { describe, expect, it } from "vitest";
import {
  SIDE_SELL,
  VENUE_EVENT_SPECS,
  VENUE_EVENT_TOPICS,
  VenueLogDecodeError,
  adapterTransfersFilter,
  decodeVenueLog,
  type DecodedVenueLog,
} from "./chain/abi.js";
import { attributeOperations } from "./chain/attribution.js";
import { decodeCanonicalLog, decodeLog, decodeRpcLog } from "./chain/decoder.js";
import { CONTRACTS, exchangeVersion, isCollateralAdapter } from "./contracts.js";
import { RpcLogShape, partitionRows } from "./shapes/index.js";
import {
  CHAIN_LOG_FILES,
  CHAIN_LOG_LACKING_FIELDS_FILES,
  CHAIN_PROBE,
  corpusJson,
  type ChainLogFile,
  type ChainLogLackingFieldsFile,
  type Json,
} from "./testing/real-payloads.js";

interface ChainLog {
  readonly address: string;
  readonly topics: string[];
  readonly data: string;
  readonly blockNumber: string;
  readonly blockHash?: string;
  readonly transactionHash: string;
  /** Absent from a log published without it (CHAIN_LOGS_LACKING_FIELDS). */
  readonly logIndex: string;
}

const word = (log: ChainLog, index: number) => BigInt(`0x${log.data.slice(2 + 64 * index, 2 + 64 * (index + 1))}`);
const topicAddress = (log: ChainLog, index: number) => `0x${(log.topics[index] as string).slice(26)}`;
const ZERO_WORD = `0x${"0".repeat(64)}`;
const USDC_E = CONTRACTS.usdcE.toLowerCase();
const CTF_ADAPTER = "0xada100874d00e3331d00f2007a9c336a65009718";
const NEG_RISK_ADAPTER_2 = CONTRACTS.negRiskCtfCollateralAdapter2.toLowerCase();

/** Single logs and the event each must decode into, with the log's own values. */
const CHAIN_LOGS: Record<ChainLogFile, (log: ChainLog) => Json> = {
  "chain-v1-orderfilled.vike-trader.json": (log) => ({
    kind: "OrderFilledV1",
    version: "v1",
    address: CONTRACTS.ctfExchangeV1.toLowerCase(),
    orderHash: log.topics[1],
    // An address with leading zero bytes.
    maker: "0x00000003a358014c7c0e227483dbe01619871000",
    taker: topicAddress(log, 3),
    // makerAssetId 0: the maker pays collateral, a BUY.
    makerAssetId: 0n,
    takerAssetId: word(log, 1),
    makerAmountFilled: 7_434_000n,
    takerAmountFilled: 17_700_000n,
    fee: 1_770_000n,
  }),
  "chain-v2-orderfilled.vike-trader.json": (log) => ({
    kind: "OrderFilledV2",
    version: "v2",
    address: CONTRACTS.ctfExchangeV2.toLowerCase(),
    orderHash: log.topics[1],
    maker: topicAddress(log, 2),
    taker: topicAddress(log, 3),
    side: SIDE_SELL,
    tokenId: word(log, 1),
    makerAmountFilled: 4_180_000n,
    takerAmountFilled: 3_929_200n,
    fee: 0n,
    builder: ZERO_WORD,
    metadata: ZERO_WORD,
  }),
  "chain-ctf-positionsplit.vike-trader.json": (log) => ({
    kind: "PositionSplit",
    stakeholder: "0x20d2309cd92b797ae7ca175ed828ed8a27fbe29d",
    // USDC.e after the V2 cutover.
    collateralToken: USDC_E,
    parentCollectionId: ZERO_WORD,
    conditionId: log.topics[3],
    partition: [1n, 2n],
    amount: 20_000_000n,
  }),
  "chain-ctf-positionsmerge-via-adapter.vike-trader.json": (log) => ({
    kind: "PositionsMerge",
    // The collateral adapter, not the wallet.
    stakeholder: CTF_ADAPTER,
    collateralToken: USDC_E,
    conditionId: log.topics[3],
    partition: [1n, 2n],
    amount: 21_120_000n,
  }),
  "chain-negrisk-positionsconverted.vike-trader.json": (log) => ({
    kind: "PositionsConverted",
    address: CONTRACTS.negRiskAdapter.toLowerCase(),
    stakeholder: NEG_RISK_ADAPTER_2,
    marketId: log.topics[2],
    indexSet: 0x400n,
    amount: 10_000_000n,
  }),
  "chain-ctf-payoutredemption.vike-trader.json": (log) => ({
    kind: "PayoutRedemption",
    redeemer: "0x5d4aba8ad45bb5eab3499a0294b42da5d1e455d3",
    collateralToken: USDC_E,
    parentCollectionId: ZERO_WORD,
    // Not indexed: the first data word.
    conditionId: `0x${word(log, 0).toString(16).padStart(64, "0")}`,
    indexSets: [1n, 2n],
    payout: 59_076_955n,
  }),
  "chain-negrisk-payoutredemption.vike-trader.json": (log) => ({
    kind: "NegRiskPayoutRedemption",
    address: CONTRACTS.negRiskAdapter.toLowerCase(),
    redeemer: topicAddress(log, 1),
    conditionId: log.topics[2],
    amounts: [0n, 11_000_000n],
    payout: 11_000_000n,
  }),
  "chain-ctf-conditionresolution.vike-trader.json": (log) => ({
    kind: "ConditionResolution",
    conditionId: log.topics[1],
    oracle: topicAddress(log, 2),
    questionId: log.topics[3],
    outcomeSlotCount: 2n,
    payoutNumerators: [1n, 0n],
  }),
};

/** Logs published without a field the decoder needs: refused, said here, the payload left as published. */
const CHAIN_LOGS_LACKING_FIELDS: Record<ChainLogLackingFieldsFile, { missing: readonly string[] }> = {
  "chain-ctf-transferbatch-negrisk-redeem.vike-trader.json": {
    missing: ["logIndex", "transactionIndex", "blockHash", "blockTimestamp"],
  },
};

/** The V2 exchanges' third event in the probe: FeeCharged(address indexed, uint256), which Pelagic does not read. */
const FEE_CHARGED = toEventSelector("FeeCharged(address,uint256)");

const chainLog = (file: string) => corpusJson(file) as ChainLog;

/** The event, checked both ways: the eth_getLogs path, and the word decoder against viem's reference decoding. */
function decodedBothWays(log: ChainLog): DecodedVenueLog | null {
  const rpc = RpcLogShape.parse(log);
  const decoded = decodeRpcLog(rpc);
  expect(decodeLog(log)).toEqual(decoded);
  expect(decodeCanonicalLog(log)).toEqual(decodeVenueLog(log));
  if (decoded) {
    expect(decoded).toMatchObject({
      address: log.address.toLowerCase(),
      blockNumber: Number(log.blockNumber),
      blockHash: log.blockHash ?? null,
      transactionHash: log.transactionHash,
      logIndex: Number(log.logIndex),
    });
  }
  return decoded;
}

describe("chain logs", () => {
  it.each(CHAIN_LOG_FILES)("%s decodes into its event with the log's own values", (file) => {
    const log = chainLog(file);
    const decoded = decodedBothWays(log);
    expect(decoded).toMatchObject(CHAIN_LOGS[file](log));
    // A real log takes the word decoder's fast path (canonical encoding).
    expect(decodeCanonicalLog(log)).not.toBeNull();
  });

  it.each(CHAIN_LOG_LACKING_FIELDS_FILES)("%s lacks fields the decoder needs and is refused", (file) => {
    const log = chainLog(file);
    for (const field of CHAIN_LOGS_LACKING_FIELDS[file]?.missing ?? []) expect(log).not.toHaveProperty(field);
    // Not an eth_getLogs log: ChainClient rejects the row...
    const { rows, rejected } = partitionRows(RpcLogShape, [log], file);
    expect(rows).toEqual([]);
    expect(rejected[0]?.issues).toEqual([{ path: "", message: expect.stringContaining("logIndex") }]);
    // ...and the decoder, given it anyway, refuses it with its own error (no place in the transaction to put it).
    expect(() => decodeLog(log)).toThrow(VenueLogDecodeError);
    expect(() => decodeVenueLog(log)).toThrow(VenueLogDecodeError);
  });

  it("the TransferBatch lacking its logIndex is the kind of transfer attribution needs: the adapter's, from the wallet", () => {
    const log = chainLog("chain-ctf-transferbatch-negrisk-redeem.vike-trader.json");
    expect(log.topics[0]).toBe(VENUE_EVENT_TOPICS.TransferBatch);
    expect(isCollateralAdapter(topicAddress(log, 1))).toBe(true);
    expect([topicAddress(log, 1), topicAddress(log, 2), topicAddress(log, 3)]).toEqual([
      NEG_RISK_ADAPTER_2,
      "0x41e7aa1b047f13ad96f26ca49602fb403c90b78d",
      NEG_RISK_ADAPTER_2,
    ]);
    // The selection that reads adapter transfers would ask for it.
    const filter = adapterTransfersFilter();
    expect(filter.address).toContain(log.address);
    expect(filter.topics[0]).toContain(log.topics[0]);
    expect(filter.topics[1]).toContain(log.topics[1]);
  });

  it("attribution over the corpus: wallets' own operations kept, the adapters' left unattributed (no transfer published)", () => {
    const events = CHAIN_LOG_FILES.map((file) => decodeLog(chainLog(file)) as DecodedVenueLog)
      .filter((e) => !e.kind.startsWith("Order"))
      .sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
    const { records, unattributed } = attributeOperations(events);
    expect(records.map((r) => r.kind).sort()).toEqual([
      "ConditionResolution",
      "NegRiskPayoutRedemption",
      "PayoutRedemption",
      "PositionSplit",
    ]);
    // The split's stakeholder is a wallet: kept as the chain says.
    expect(records.find((r) => r.kind === "PositionSplit")).toMatchObject({
      stakeholder: "0x20d2309cd92b797ae7ca175ed828ed8a27fbe29d",
    });
    // The merge through the collateral adapter and the conversion through the NegRisk collateral adapter: the
    // published logs come without their transactions' ERC-1155 transfers, so no wallet can be named.
    expect(unattributed.map((u) => [u.log.kind, u.log.transactionHash, u.reason]).sort()).toEqual([
      [
        "PositionsConverted",
        "0xdb22e48179afdd38b97cf157c90f63c9ddcd7be837a951e0d7ad2cc6ec123d2b",
        `no transfer of ${NEG_RISK_ADAPTER_2} in the transaction names the wallet`,
      ],
      [
        "PositionsMerge",
        "0x19ca1abbc7db11bab75038afe52b915efeac7ba2afac7b610ce2771ff14ea8d1",
        `no transfer of ${CTF_ADAPTER} in the transaction names the wallet`,
      ],
    ]);
  });

  it(`${CHAIN_PROBE}: the V2 exchanges' logs decode, FeeCharged is not read`, () => {
    const probe = corpusJson(CHAIN_PROBE) as Record<
      string,
      { addr: string; topic0_counts: Record<string, number>; samples: Record<string, ChainLog> }
    >;
    expect(Object.keys(probe)).toEqual(["A_docs_negrisk_v2", "B_scan_labeled_negrisk", "V2_ctf_exchange"]);
    // The V1 NegRisk exchange had no V2 event to show.
    expect(probe.B_scan_labeled_negrisk?.addr).toBe(CONTRACTS.negRiskCtfExchangeV1);
    expect(exchangeVersion(probe.B_scan_labeled_negrisk?.addr as string)).toBe("v1");
    expect(probe.B_scan_labeled_negrisk?.samples).toEqual({});
    expect([VENUE_EVENT_TOPICS.OrderFilledV2, VENUE_EVENT_TOPICS.OrdersMatchedV2]).toEqual([
      "0xd543adfd945773f1a62f74f0ee55a5e3b9b1a28262980ba90b1a89f2ea84d8ee",
      "0x174b3811690657c217184f89418266767c87e4805d09680c39fc9c031c0cab7c",
    ]);
    expect(FEE_CHARGED).toBe("0x55bb3cade9d43b798a4fe5ffdd05024b2d7870df53920673bfc7e68047cd0ab1");
    expect(VENUE_EVENT_SPECS.has(FEE_CHARGED)).toBe(false);
    for (const name of ["A_docs_negrisk_v2", "V2_ctf_exchange"]) {
      const exchange = probe[name] as NonNullable<(typeof probe)[string]>;
      // `addr` is checksummed, each log's `address` lower case.
      expect(exchangeVersion(exchange.addr)).toBe("v2");
      expect(Object.keys(exchange.samples).sort()).toEqual(Object.keys(exchange.topic0_counts).sort());
      for (const [topic0, log] of Object.entries(exchange.samples)) {
        expect(log.topics[0]).toBe(topic0);
        expect(log.address).toBe(exchange.addr.toLowerCase());
      }
      const filled = exchange.samples[VENUE_EVENT_TOPICS.OrderFilledV2] as ChainLog;
      expect(decodedBothWays(filled)).toMatchObject({
        kind: "OrderFilledV2",
        maker: topicAddress(filled, 2),
        taker: topicAddress(filled, 3),
        side: Number(word(filled, 0)),
        tokenId: word(filled, 1),
        makerAmountFilled: word(filled, 2),
        takerAmountFilled: word(filled, 3),
        fee: word(filled, 4),
      });
      // V2 OrdersMatched data: side, tokenId, makerAmount, takerAmount.
      const matched = exchange.samples[VENUE_EVENT_TOPICS.OrdersMatchedV2] as ChainLog;
      expect(decodedBothWays(matched)).toMatchObject({
        kind: "OrdersMatchedV2",
        takerOrderHash: matched.topics[1],
        takerOrderMaker: topicAddress(matched, 2),
        side: Number(word(matched, 0)),
        tokenId: word(matched, 1),
        makerAmountFilled: word(matched, 2),
        takerAmountFilled: word(matched, 3),
      });
      // FeeCharged(receiver, amount): not a venue event for the decoder.
      expect(decodedBothWays(exchange.samples[FEE_CHARGED] as ChainLog)).toBeNull();
    }
  });
});
