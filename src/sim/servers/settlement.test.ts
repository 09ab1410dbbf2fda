import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adapterTransfersFilter,
  decodeVenueLog,
  logFilterFor,
  type DecodedVenueLog,
  type VenueEventKind,
} from "../../venue/chain/abi.js";
import { attributeOperations, isOperationLog } from "../../venue/chain/attribution.js";
import { settleFills } from "../../venue/chain/settlement.js";
import { divRound } from "../../venue/units.js";
import { Rng } from "../world/random.js";
import { blockAt, takerFeeMicro, V2_CUTOVER_TS, notionalMicro } from "../world/index.js";
import { v1BuyFeeTokens } from "./chain-logs.js";
import { truthFills, truthOperations, truthResolutions } from "./ground-truth.js";
import { CONTRACTS, NEG_RISK_GET_FEE_BIPS_SELECTOR } from "../../venue/contracts.js";
import { SMALL_WORLD, clientsFor, closeVenues, rpc, smallVenue } from "./testing/venues.js";
import type { SimVenue } from "./index.js";

const ALL_KINDS: VenueEventKind[] = [
  "OrderFilledV1",
  "OrdersMatchedV1",
  "OrderFilledV2",
  "OrdersMatchedV2",
  "PositionsConverted",
  "PositionSplit",
  "PositionsMerge",
  "PayoutRedemption",
  "NegRiskPositionSplit",
  "NegRiskPositionsMerge",
  "NegRiskPayoutRedemption",
  "ConditionResolution",
];

let venue: SimVenue;
let logs: DecodedVenueLog[];
let chunks = 0;

beforeAll(async () => {
  venue = await smallVenue({ worldOptions: { ...SMALL_WORLD, fills: 5_000 }, rpc: { maxLogs: 2_000 } });
  const { chain } = clientsFor(venue);
  const head = await chain.blockNumber();
  logs = [];
  for await (const chunk of chain.logs({
    ...logFilterFor(ALL_KINDS),
    also: [adapterTransfersFilter()],
    fromBlock: blockAt(venue.world.start),
    toBlock: head,
  })) {
    chunks++;
    for (const raw of chunk.logs) logs.push(decodeVenueLog(raw)!);
  }
});
afterAll(closeVenues);

describe("V1/V2 settlement round trip", () => {
  it("settles every served exchange log back to the world's fills exactly", () => {
    const { fills, anomalies } = settleFills(logs);
    expect(anomalies).toEqual([]);
    const truth = [...truthFills(venue.world)];
    expect(truth.some((f) => f.exchangeVersion === "v1") && truth.some((f) => f.exchangeVersion === "v2")).toBe(true);
    // The token-denominated V1 BUY fee is exercised.
    expect(fills.some((f) => f.exchangeVersion === "v1" && f.feeAsset === "TOKEN" && f.feeMicro > 0)).toBe(true);
    expect(
      fills.map((f) => ({
        txHash: f.txHash,
        logIndex: f.logIndex,
        blockNumber: f.blockNumber,
        wallet: f.wallet,
        counterparty: f.counterparty,
        role: f.role,
        orderHash: f.orderHash,
        exchange: f.exchange,
        exchangeVersion: f.exchangeVersion,
        tokenId: f.tokenId,
        side: f.direction,
        sizeMicro: f.sizeMicro,
        usdMicro: f.usdMicro,
        priceMicro: f.priceMicro,
        feeUsdMicro: f.feeUsdMicro,
        entryType: f.entryType,
      })),
    ).toEqual(truth.map(({ ts: _ts, conditionId: _c, outcomeIndex: _o, ...rest }) => rest));
  });

  it("pages the whole history in range-halved chunks", () => {
    expect(chunks).toBeGreaterThan(3);
    expect(
      logs.some((l) => l.blockNumber < blockAt(V2_CUTOVER_TS)) &&
        logs.some((l) => l.blockNumber >= blockAt(V2_CUTOVER_TS)),
    ).toBe(true);
  });

  it("serves every wallet operation as events that name its wallet, directly or through an adapter's transfer", () => {
    const attributed = attributeOperations(logs.filter((l) => !l.kind.startsWith("Order")));
    expect(attributed.unattributed).toEqual([]);
    const ops = attributed.records.filter(isOperationLog);
    const truth = [...truthOperations(venue.world)];
    expect(ops.map((l) => [l.transactionHash, l.logIndex])).toEqual(truth.map((o) => [o.txHash, o.logIndex]));
    // Both generations of the exchanges' adapters and the NegRiskAdapter act in this world, and trade mechanics too.
    const callers = new Set(logs.filter(isOperationLog).map((l) => ("redeemer" in l ? l.redeemer : l.stakeholder)));
    for (const contract of [CONTRACTS.negRiskAdapter, CONTRACTS.ctfCollateralAdapter, CONTRACTS.ctfCollateralAdapter2])
      expect(callers.has(contract.toLowerCase() as never), contract).toBe(true);
    for (const [k, log] of ops.entries()) {
      const t = truth[k]!;
      if (log.kind === "NegRiskPayoutRedemption") {
        expect([log.redeemer, log.conditionId, log.payout, log.amounts]).toEqual([
          t.wallet,
          t.conditionId,
          BigInt(t.payoutMicro),
          [BigInt(t.amountMicro), BigInt(t.amount2Micro)],
        ]);
      } else if (log.kind === "NegRiskPositionSplit" || log.kind === "NegRiskPositionsMerge")
        expect([log.kind, log.stakeholder, log.conditionId, log.amount]).toEqual([
          t.type === "SPLIT" ? "NegRiskPositionSplit" : "NegRiskPositionsMerge",
          t.wallet,
          t.conditionId,
          BigInt(t.amountMicro),
        ]);
      else if (log.kind === "PayoutRedemption") {
        const indexSets = log.indexSets.reduce((all, set) => all | set, 0n);
        expect([log.redeemer, log.conditionId, log.payout, indexSets]).toEqual([
          t.wallet,
          t.conditionId,
          BigInt(t.payoutMicro),
          BigInt(t.indexSet),
        ]);
      } else if (log.kind === "PositionsConverted")
        expect([log.stakeholder, log.marketId, log.indexSet, log.amount]).toEqual([
          t.wallet,
          t.negRiskMarketId,
          BigInt(t.indexSet),
          BigInt(t.amountMicro),
        ]);
      // The ConditionalTokens' collateral is USDC.e in both generations (the V2 adapters unwrap pUSD first).
      else
        expect([log.kind, log.stakeholder, log.conditionId, log.amount, log.collateralToken]).toEqual([
          t.type === "SPLIT" ? "PositionSplit" : "PositionsMerge",
          t.wallet,
          t.conditionId,
          BigInt(t.amountMicro),
          CONTRACTS.usdcE.toLowerCase(),
        ]);
    }
    const resolutions = logs.filter((l) => l.kind === "ConditionResolution");
    expect(resolutions.length).toBeGreaterThan(0);
    const expected = [...truthResolutions(venue.world)];
    expect(
      resolutions.map((l) => (l.kind === "ConditionResolution" ? [l.conditionId, l.payoutNumerators.join("/")] : [])),
    ).toEqual(
      expected.map((r) => [r.conditionId, r.resolution === "YES" ? "1/0" : r.resolution === "NO" ? "0/1" : "1/1"]),
    );
  });
});

describe("eth_call", () => {
  // Seed 2 has NegRisk markets with and without a conversion fee.
  let feeVenue: SimVenue;
  beforeAll(async () => {
    feeVenue = await smallVenue({ worldOptions: { ...SMALL_WORLD, seed: 2, fills: 2_000 } });
  });
  const call = (to: string, data: string) => rpc(feeVenue, "eth_call", [{ to, data }, "latest"]);
  const word = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

  it("answers NegRiskAdapter.getFeeBips(marketId) with each NegRisk market's conversion fee, 0 for a market it does not know", async () => {
    const events = feeVenue.world.events.filter((e) => e.negRiskMarketId);
    expect(events.some((e) => e.convertFeeBips > 0) && events.some((e) => e.convertFeeBips === 0)).toBe(true);
    for (const event of events) {
      expect(
        await call(CONTRACTS.negRiskAdapter, NEG_RISK_GET_FEE_BIPS_SELECTOR + event.negRiskMarketId!.slice(2)),
      ).toMatchObject({ result: word(event.convertFeeBips) });
    }
    expect(
      await call(CONTRACTS.negRiskAdapter.toLowerCase(), NEG_RISK_GET_FEE_BIPS_SELECTOR + "ab".repeat(32)),
    ).toMatchObject({ result: word(0) });
  });

  it("reverts any other call", async () => {
    const marketId = "ab".repeat(32);
    expect((await call(CONTRACTS.ctfExchangeV2, NEG_RISK_GET_FEE_BIPS_SELECTOR + marketId)).error?.message).toBe(
      "execution reverted",
    );
    expect((await call(CONTRACTS.negRiskAdapter, "0x12345678" + marketId)).error?.message).toBe("execution reverted");
  });
});

describe("v1BuyFeeTokens", () => {
  it("always settles back to the collateral fee, for any lot size, tick price and rate", () => {
    const rng = Rng.derive([1, 2], "fee-check");
    for (let k = 0; k < 20_000; k++) {
      const size = rng.intBetween(1, 2_000_000) * 10_000;
      const price = rng.intBetween(1, 99) * 10_000;
      const fee = takerFeeMicro(size, price, rng.pick([300, 400, 500, 700]));
      const usd = notionalMicro(size, price);
      expect(Number(divRound(v1BuyFeeTokens(fee, size, usd) * BigInt(usd), BigInt(size)))).toBe(fee);
    }
  });
});
