import { describe, expect, it } from "vitest";
import { assessWallet } from "./assess.js";
import { checkFarmer, farmerMetrics, washRing, type FarmerMetrics } from "./farmer.js";
import { replay } from "./state.js";
import { summarizeWallet } from "./summary.js";
import { T0, buy, defaultLedgerConfig, market, micro, reward, sell, split } from "./testing/events.js";

const config = defaultLedgerConfig();
const W = "0xcccc000000000000000000000000000000000003";

const honest: FarmerMetrics = {
  avgBuyPrice: 0.55,
  fills: 1_000,
  avgFillUsd: 250,
  incomeUsd: 0,
  tradingPnlUsd: 5_000,
  volumeUsd: 250_000,
  marketsHeld: 40,
  bothSidesMarketShare: 0.05,
  mintMergeVolumeShare: 0.8,
  splitMergeVolumeShare: 0,
  washRingVolumeShare: 0.01,
};

describe("the farmer test", () => {
  it("spares an ordinary trader (MINT-heavy volume alone is normal: most fills are MINTs)", () => {
    expect(checkFarmer(honest, config.farmer)).toEqual({ isFarmer: false, test: null, failed: [], reasons: [] });
  });

  it("favourite farming: volume-weighted average buy price above 0.95", () => {
    // 100 @ 0.97 + 100 @ 0.96 -> 193 / 200 = 0.965
    const state = replay([buy(W, "m1", 0, 100, 0.97), buy(W, "m2", 0, 100, 0.96)]);
    const metrics = farmerMetrics(summarizeWallet(state, W, T0, config.ledger)!, config.farmer);
    expect(metrics.avgBuyPrice).toBeCloseTo(0.965, 12);
    expect(checkFarmer(metrics, config.farmer).test).toBe("favourite_farming");
    expect(checkFarmer({ ...honest, avgBuyPrice: 0.95 }, config.farmer).isFarmer).toBe(false);
  });

  it("reward/volume farming: more than 500,000 fills averaging under 20 USD", () => {
    expect(checkFarmer({ ...honest, fills: 500_001, avgFillUsd: 19.99 }, config.farmer).test).toBe(
      "reward_volume_farming",
    );
    expect(checkFarmer({ ...honest, fills: 500_000, avgFillUsd: 5 }, config.farmer).isFarmer).toBe(false);
    expect(checkFarmer({ ...honest, fills: 900_000, avgFillUsd: 20 }, config.farmer).isFarmer).toBe(false);
  });

  it("reward/volume farming: rewards and rebates beyond the trading P&L", () => {
    expect(checkFarmer({ ...honest, incomeUsd: 6_000, tradingPnlUsd: 5_000 }, config.farmer).test).toBe(
      "reward_volume_farming",
    );
    expect(checkFarmer({ ...honest, incomeUsd: 100, tradingPnlUsd: -50 }, config.farmer).test).toBe(
      "reward_volume_farming",
    );
    expect(checkFarmer({ ...honest, incomeUsd: 10, tradingPnlUsd: -50 }, config.farmer).isFarmer).toBe(false);
  });

  it("two-sided farming: at least 40% of markets held on both sides at once", () => {
    expect(checkFarmer({ ...honest, bothSidesMarketShare: 0.4 }, config.farmer).test).toBe("two_sided_farming");
    expect(checkFarmer({ ...honest, bothSidesMarketShare: 0.39 }, config.farmer).isFarmer).toBe(false);
    // a sample of fewer than 10 held markets says nothing: one hedged market of one is not farming
    expect(checkFarmer({ ...honest, marketsHeld: 9, bothSidesMarketShare: 1 }, config.farmer).isFarmer).toBe(false);
    expect(checkFarmer({ ...honest, marketsHeld: 10, bothSidesMarketShare: 0.4 }, config.farmer).test).toBe(
      "two_sided_farming",
    );
    // from the ledger: a split holds both sides (m1), m2 one side only -> 1 of 2 markets = 50%
    const state = replay([split(W, "m1", 10), buy(W, "m2", 0, 10, 0.5)]);
    expect(farmerMetrics(summarizeWallet(state, W, T0, config.ledger)!, config.farmer).bothSidesMarketShare).toBe(0.5);
  });

  it("two-sided farming counts a market only when both sides were held in balance (the smaller at least 40% of the larger)", () => {
    // m1: YES 100, then NO 10 (10%), sold: a stray fill on the other side. m2: YES 100, then NO 30 + 30 (60%): a hedge.
    const events = [
      buy(W, "m1", 0, 100, 0.5),
      buy(W, "m1", 1, 10, 0.5, { ts: T0 + 1 }),
      sell(W, "m1", 1, 10, 0.5, { ts: T0 + 2 }),
      buy(W, "m2", 0, 100, 0.5),
      buy(W, "m2", 1, 30, 0.5, { ts: T0 + 1 }),
      buy(W, "m2", 1, 30, 0.5, { ts: T0 + 2 }),
    ];
    const summary = summarizeWallet(replay(events), W, T0 + 2, config.ledger)!;
    expect(summary.marketHedges.sort()).toEqual([0.1, 0.6]);
    expect(farmerMetrics(summary, config.farmer).bothSidesMarketShare).toBe(0.5);
    expect(farmerMetrics(summary, { twoSidedMinBalance: 0.7 }).bothSidesMarketShare).toBe(0);
    // a balance of 0 counts any moment both sides were held, however lopsided
    expect(farmerMetrics(summary, { twoSidedMinBalance: 0 }).bothSidesMarketShare).toBe(1);
  });

  it("two-sided farming: own splits and merges above 60% of volume with |P&L| under 0.5% of volume", () => {
    // volume 10,000: P&L 40 is 0.4% -> caught; 60 is 0.6% -> spared
    const mm = { ...honest, splitMergeVolumeShare: 0.7, volumeUsd: 10_000 };
    expect(checkFarmer({ ...mm, tradingPnlUsd: 40 }, config.farmer).test).toBe("two_sided_farming");
    expect(checkFarmer({ ...mm, tradingPnlUsd: 60 }, config.farmer).isFarmer).toBe(false);
    expect(checkFarmer({ ...mm, splitMergeVolumeShare: 0.6, tradingPnlUsd: 0 }, config.farmer).isFarmer).toBe(false);
    // fewer than 10 held markets: a few fills netting near zero are no sample
    expect(checkFarmer({ ...mm, marketsHeld: 9, tradingPnlUsd: 0 }, config.farmer).isFarmer).toBe(false);
  });

  it("two-sided farming reads the wallet's own splits and merges, not fills that settled as MINT or MERGE", () => {
    // An ordinary buyer in 10 markets whose every fill settled as MINT (two buyers), P&L 0: not a farmer.
    const markets = Array.from({ length: 10 }, (_, i) => `m${i}`);
    const buyer = replay(markets.map((m) => buy(W, m, 0, 100, 0.5, { entryType: "MINT" })));
    const buyerMetrics = farmerMetrics(summarizeWallet(buyer, W, T0, config.ledger)!, config.farmer);
    expect(buyerMetrics).toMatchObject({ mintMergeVolumeShare: 1, splitMergeVolumeShare: 0, tradingPnlUsd: 0 });
    expect(checkFarmer(buyerMetrics, config.farmer).isFarmer).toBe(false);
    // A wallet that splits 100 USD in each market, sells the NO side at 0.50 and merges nothing: splits 1,000 USD
    // against 500 USD of fills -> 200% of volume, P&L 0 -> two-sided farming, with its figures in the reason.
    const splitter = replay(markets.flatMap((m) => [split(W, m, 100), sell(W, m, 1, 100, 0.5, { ts: T0 + 1 })]));
    const metrics = farmerMetrics(summarizeWallet(splitter, W, T0 + 1, config.ledger)!, config.farmer);
    expect(metrics).toMatchObject({ splitMergeVolumeShare: 2, volumeUsd: 500, tradingPnlUsd: 0, marketsHeld: 10 });
    const verdict = checkFarmer({ ...metrics, bothSidesMarketShare: 0 }, config.farmer);
    expect(verdict.test).toBe("two_sided_farming");
    expect(verdict.reasons).toEqual(["own splits and merges 200% of volume with P&L 0 USD"]);
  });

  it("wash trading: at least 20% of volume round-tripped with a small ring", () => {
    expect(checkFarmer({ ...honest, washRingVolumeShare: 0.2 }, config.farmer).test).toBe("wash_trading");
    expect(checkFarmer({ ...honest, washRingVolumeShare: null }, config.farmer).isFarmer).toBe(false);
  });

  it("names the first test failed and lists them all", () => {
    const verdict = checkFarmer({ ...honest, avgBuyPrice: 0.99, washRingVolumeShare: 0.5 }, config.farmer);
    expect(verdict.test).toBe("favourite_farming");
    expect(verdict.failed).toEqual(["favourite_farming", "wash_trading"]);
    expect(verdict.reasons).toHaveLength(2);
  });

  it("feeds the assessment: a farmer is never Smart Money", () => {
    const state = replay([buy(W, "m1", 0, 1000, 0.98), reward(W, 1)], [market("m1", { priceYes: 0.99 })]);
    const assessment = assessWallet(state, W, { now: T0 + 1 }, config)!;
    expect(assessment.farmer.test).toBe("favourite_farming");
    expect(assessment.isSmart).toBe(false);
  });
});

describe("washRing", () => {
  const leg = (counterparty: string, side: "BUY" | "SELL", shares: number, price: number, tokenId = "t") => ({
    counterparty,
    tokenId,
    side,
    size: micro(shares),
    usd: micro(shares * price),
  });
  // A: bought 100 @ 0.50, sold 100 @ 0.52 -> 100 matched, 50 + 52 = 102 USD
  // B: bought 50 @ 0.40, sold 20 @ 0.50 -> 20 matched, 8 + 10 = 18 USD; C only bought -> 0; D other token only sold -> 0
  const fills = [
    leg("A", "BUY", 100, 0.5),
    leg("A", "SELL", 100, 0.52),
    leg("B", "BUY", 50, 0.4),
    leg("B", "SELL", 20, 0.5),
    leg("C", "BUY", 500, 0.5),
    leg("D", "SELL", 10, 0.5, "u"),
  ];

  it("measures the net-zero volume with the ring", () => {
    const ring = washRing(fills, micro(1_000), config.farmer);
    expect(ring.counterparties).toEqual(["A", "B"]);
    expect(ring.share).toBeCloseTo(0.12, 12); // 120 / 1000
    expect(washRing(fills, micro(500), config.farmer).share).toBeCloseTo(0.24, 12);
  });

  it("keeps only the largest few counterparties", () => {
    const ring = washRing(fills, micro(1_000), { washRingMaxCounterparties: 1 });
    expect(ring).toEqual({ share: 0.102, counterparties: ["A"] });
  });

  it("finds no ring in one-way trading", () => {
    expect(washRing([leg("A", "SELL", 10, 0.5), leg("B", "BUY", 10, 0.5)], micro(100), config.farmer).share).toBe(0);
  });
});
