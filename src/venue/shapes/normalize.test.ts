import { describe, expect, it } from "vitest";
import { categoryFromTags } from "../categories.js";
import { gammaEvent, gammaMarket } from "../testing/fixtures.js";
import type { DataActivityRow, DataPositionRow, DataTradeRow } from "./data-api.js";
import { normalizeGammaEvent, normalizeGammaMarket, resolutionOf, type MarketRecord } from "./normalize-gamma.js";
import {
  activityRecordOf,
  fillFromDataTrade,
  fillFromRtdsTrade,
  holderRecordsOf,
  leaderboardRecordOf,
  positionRecordOf,
  walletProfileOf,
} from "./normalize-wallet-data.js";

const WALLET = "0x56687BF447DB6FFA42FFE2204A05EDAA20F55839";
const CONDITION = `0x${"AB".repeat(32)}`;
const TX = `0x${"CD".repeat(32)}`;

function market(overrides: Parameters<typeof gammaMarket>[1] = {}): MarketRecord {
  const result = normalizeGammaMarket(gammaMarket(7, overrides));
  if (!result.ok) throw new Error(result.reason);
  return result.record;
}

describe("normalizeGammaMarket", () => {
  it("turns a Gamma market into Pelagic's record", () => {
    expect(market()).toEqual({
      id: "7",
      conditionId: `0x${"7".padStart(64, "0")}`,
      question: "Will thing 7 happen?",
      slug: "will-thing-7-happen",
      outcomeLabels: ["Yes", "No"],
      yesTokenId: "1007",
      noTokenId: "2007",
      yesPriceMicro: 620_000,
      noPriceMicro: 380_000,
      active: true,
      closed: false,
      startTime: Date.UTC(2026, 0, 2) / 1000,
      endTime: Date.UTC(2026, 8, 30, 12) / 1000,
      closedTime: null,
      umaResolutionStatus: null,
      resolution: null,
      negRisk: false,
      negRiskMarketId: null,
      negRiskRequestId: null,
      negRiskOther: false,
      groupItemTitle: null,
      feesEnabled: true,
      feeRate: 0.04,
      feeSchedule: { rate: 0.04, exponent: 1, takerOnly: true, rebateRate: 0 },
      category: "POLITICS",
      tagSlugs: ["politics"],
      eventId: "900",
      eventSlug: "thing-event",
      volumeMicro: 32_257_445_115,
      volume24hrMicro: 1_200_500_000,
      liquidityMicro: 15_234_552_100,
      bestBidMicro: 610_000,
      bestAskMicro: 630_000,
      lastTradePriceMicro: 620_000,
      version: "v2",
    });
  });

  it("reads resolutions: YES, NO, 50-50, and closed-but-pending", () => {
    const closed = (outcomePrices: string, umaResolutionStatus?: string) =>
      market({ closed: true, outcomePrices, umaResolutionStatus, closedTime: "2026-09-24 14:02:16+00" });
    expect(closed('["1", "0"]', "resolved")).toMatchObject({
      resolution: "YES",
      closedTime: Date.UTC(2026, 8, 24, 14, 2, 16) / 1000,
    });
    expect(closed('["0", "1"]', "resolved").resolution).toBe("NO");
    expect(closed('["0.5", "0.5"]', "resolved").resolution).toBe("50-50");
    expect(closed('["1", "0"]', "proposed").resolution).toBeNull();
    expect(closed('["0.97", "0.03"]').resolution).toBeNull();
    expect(closed('["1", "0"]').resolution).toBe("YES");
    expect(market({ outcomePrices: '["1", "0"]', umaResolutionStatus: "resolved" }).resolution).toBeNull();
    expect(resolutionOf(true, "resolved", null)).toBeNull();
  });

  it("fee rate: the schedule's, 0 when fees are off, null when unstated", () => {
    expect(market({ feesEnabled: false }).feeRate).toBe(0);
    expect(market({ feeSchedule: undefined, feesEnabled: undefined }).feeRate).toBeNull();
    expect(market({ feeSchedule: { rate: 0.07 } }).feeSchedule).toEqual({
      rate: 0.07,
      exponent: 1,
      takerOnly: true,
      rebateRate: 0,
    });
  });

  it("NegRisk fields and an event's category when the market has no tags", () => {
    const record = market({
      negRisk: true,
      negRiskMarketID: "0xabc",
      negRiskRequestID: "0xdef",
      groupItemTitle: "Kyiv",
      tags: [],
      events: [{ id: "5", slug: "cities", tags: [{ id: 1, slug: "ukraine-map", label: "Ukraine Map" }] }],
    });
    expect(record).toMatchObject({
      negRisk: true,
      negRiskMarketId: "0xabc",
      negRiskRequestId: "0xdef",
      groupItemTitle: "Kyiv",
      category: "GEOPOLITICS",
      eventId: "5",
      tagSlugs: ["ukraine-map"],
    });
  });

  it("refuses markets it cannot represent, saying why", () => {
    const bad = (overrides: Parameters<typeof gammaMarket>[1]) => normalizeGammaMarket(gammaMarket(3, overrides));
    expect(bad({ outcomes: '["A", "B", "C"]' })).toEqual({
      ok: false,
      reason: 'market 3: outcomes is not a pair: ["A", "B", "C"]',
    });
    expect(bad({ clobTokenIds: undefined })).toMatchObject({
      ok: false,
      reason: "market 3: clobTokenIds is not a pair",
    });
    expect(bad({ outcomePrices: '["0.5"]' }).ok).toBe(false);
    expect(bad({ volume: "1e30" })).toMatchObject({ ok: false, reason: expect.stringContaining("out of range") });
    expect(market({ outcomePrices: "[]" })).toMatchObject({ yesPriceMicro: null, noPriceMicro: null });
  });
});

describe("normalizeGammaEvent", () => {
  it("normalizes the event and its markets, setting aside the ones it cannot read", () => {
    const event = gammaEvent(42, [gammaMarket(1, { tags: [] }), gammaMarket(2, { outcomes: '["A"]' })]);
    const { event: record, markets, rejectedMarkets } = normalizeGammaEvent(event);
    expect(record).toMatchObject({
      id: "42",
      slug: "event-42",
      title: "Event 42",
      category: "GEOPOLITICS",
      negRisk: true,
      enableNegRisk: true,
      openInterestMicro: 5_000_250_000,
      volumeMicro: 123_456_780_000,
      marketIds: ["1", "2"],
    });
    expect(markets.map((m) => [m.id, m.eventId, m.category])).toEqual([["1", "42", "GEOPOLITICS"]]);
    expect(rejectedMarkets).toEqual([{ id: "2", reason: 'market 2: outcomes is not a pair: ["A"]' }]);
  });
});

describe("categoryFromTags", () => {
  it("maps tags to the six categories, the most specific winning", () => {
    expect(categoryFromTags([{ slug: "politics" }, { slug: "ukraine" }])).toBe("GEOPOLITICS");
    expect(categoryFromTags([{ slug: "politics" }])).toBe("POLITICS");
    expect(categoryFromTags([{ label: "Bitcoin" }])).toBe("CRYPTO");
    expect(categoryFromTags([{ slug: "nba" }, { slug: "politics" }])).toBe("SPORTS");
    expect(categoryFromTags([{ slug: "ai" }])).toBe("TECH");
    expect(categoryFromTags([{ slug: "fed-rates" }])).toBe("ECONOMICS");
    expect(categoryFromTags([], "Sports")).toBe("SPORTS");
    expect(categoryFromTags([{ slug: "weather" }])).toBeNull();
  });
});

const trade: DataTradeRow = {
  proxyWallet: WALLET,
  side: "SELL",
  asset: "1007",
  conditionId: CONDITION,
  size: 0.043,
  price: 0.0005,
  timestamp: 1_770_000_000,
  outcomeIndex: 1,
  transactionHash: TX,
  title: "Q",
  slug: "q",
  eventSlug: "",
  outcome: "No",
  name: "",
  pseudonym: "Calm-Heron",
};

describe("wallet data normalizers", () => {
  it("a Data API trade row becomes a fill in micro-units, computed exactly", () => {
    expect(fillFromDataTrade(trade)).toEqual({
      source: "data-api",
      txHash: TX.toLowerCase(),
      wallet: WALLET.toLowerCase(),
      conditionId: CONDITION.toLowerCase(),
      tokenId: "1007",
      outcomeIndex: 1,
      outcomeSide: "NO",
      outcomeLabel: "No",
      direction: "SELL",
      sizeMicro: 43_000,
      priceMicro: 500,
      usdMicro: 22,
      feeMicro: null,
      timestamp: 1_770_000_000,
      title: "Q",
      slug: "q",
      eventSlug: null,
    });
    expect(walletProfileOf(trade)).toEqual({
      wallet: WALLET.toLowerCase(),
      name: null,
      pseudonym: "Calm-Heron",
      bio: null,
      profileImage: null,
    });
  });

  it("an RTDS trade keeps its fee", () => {
    const fill = fillFromRtdsTrade({ ...trade, side: "BUY", outcomeIndex: 0, size: 100, price: 0.97, fee: 0.0291 });
    expect(fill).toMatchObject({
      source: "rtds",
      direction: "BUY",
      outcomeSide: "YES",
      sizeMicro: 100_000_000,
      usdMicro: 97_000_000,
      feeMicro: 29_100,
    });
  });

  it("activity rows: TRADE in full, REDEEM and REWARD without the fields they leave empty", () => {
    const base: DataActivityRow = {
      proxyWallet: WALLET,
      timestamp: 1,
      type: "TRADE",
      conditionId: CONDITION,
      size: 10,
      usdcSize: 6.5,
      transactionHash: TX,
      price: 0.65,
      asset: "1007",
      side: "BUY",
      outcomeIndex: 0,
    };
    expect(activityRecordOf(base)).toMatchObject({
      type: "TRADE",
      tokenId: "1007",
      direction: "BUY",
      outcomeSide: "YES",
      sizeMicro: 10_000_000,
      usdcSizeMicro: 6_500_000,
      priceMicro: 650_000,
    });
    expect(
      activityRecordOf({ ...base, type: "REDEEM", asset: "", side: "", price: 0, outcomeIndex: 999 }),
    ).toMatchObject({
      type: "REDEEM",
      conditionId: CONDITION.toLowerCase(),
      tokenId: null,
      direction: null,
      outcomeIndex: null,
      outcomeSide: null,
      priceMicro: null,
    });
    expect(
      activityRecordOf({ ...base, type: "REWARD", conditionId: "", asset: "", side: "", price: 0, outcomeIndex: 999 })
        .conditionId,
    ).toBeNull();
  });

  it("positions keep the venue's own P&L figures in micro-units", () => {
    const row: DataPositionRow = {
      proxyWallet: WALLET,
      asset: "2007",
      conditionId: CONDITION,
      size: 250,
      avgPrice: 0.4,
      initialValue: 100,
      currentValue: 0,
      cashPnl: -100,
      percentPnl: -100,
      totalBought: 250,
      realizedPnl: 0,
      percentRealizedPnl: 0,
      curPrice: 0,
      redeemable: true,
      mergeable: false,
      outcomeIndex: 1,
      eventId: 77,
      oppositeAsset: "1007",
    };
    expect(positionRecordOf(row)).toMatchObject({
      wallet: WALLET.toLowerCase(),
      tokenId: "2007",
      outcomeSide: "NO",
      sizeMicro: 250_000_000,
      avgPriceMicro: 400_000,
      initialValueMicro: 100_000_000,
      currentValueMicro: 0,
      cashPnlMicro: -100_000_000,
      redeemable: true,
      eventId: "77",
      oppositeTokenId: "1007",
      negativeRisk: null,
    });
  });

  it("holders and leaderboard rows", () => {
    expect(
      holderRecordsOf([
        { token: "9", holders: [{ proxyWallet: WALLET, asset: "9", amount: 12.5, outcomeIndex: 0, name: "big" }] },
      ]),
    ).toEqual([
      {
        tokenId: "9",
        wallet: WALLET.toLowerCase(),
        amountMicro: 12_500_000,
        outcomeIndex: 0,
        profile: { wallet: WALLET.toLowerCase(), name: "big", pseudonym: null, bio: null, profileImage: null },
      },
    ]);
    expect(
      leaderboardRecordOf({
        rank: "3",
        proxyWallet: WALLET,
        userName: "u",
        vol: 1000.5,
        pnl: -20,
        profileImage: "",
        xUsername: "x",
        verifiedBadge: true,
      }),
    ).toEqual({
      rank: 3,
      wallet: WALLET.toLowerCase(),
      userName: "u",
      volumeMicro: 1_000_500_000,
      pnlMicro: -20_000_000,
      profileImage: null,
      xUsername: "x",
      verifiedBadge: true,
    });
  });
});
