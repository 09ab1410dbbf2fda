/**
 * The published Gamma payloads of test/fixtures/venue-real (src/venue/testing/real-payloads.ts names them), each
 * through the Gamma shapes and normalizers: every market record made from its payload's own values.
 */
import { describe, expect, it } from "vitest";
import {
  GammaEventShape,
  GammaMarketShape,
  normalizeGammaEvent,
  normalizeGammaMarket,
  partitionRows,
  type GammaMarket,
  type MarketRecord,
} from "./shapes/index.js";
import {
  GAMMA_EVENT_FILES,
  GAMMA_MARKET_FILES,
  asObject,
  asRows,
  corpusJson,
  expectMicro,
  type GammaEventFile,
  type GammaMarketFile,
  type Json,
} from "./testing/real-payloads.js";

/** Gamma `/markets` objects, with what their record must say (values copied from the payload). */
const GAMMA_MARKETS: Record<GammaMarketFile, Partial<MarketRecord>> = {
  "gamma-market.nautilus-btc-updown-5m.json": {
    id: "1557558",
    outcomeLabels: ["Up", "Down"],
    yesPriceMicro: 505_000,
    noPriceMicro: 495_000,
    closed: false,
    resolution: null,
    negRisk: false,
    // feesEnabled with a feeType but no feeSchedule (only makerBaseFee/takerBaseFee 1000): no rate is stated.
    feesEnabled: true,
    feeSchedule: null,
    feeRate: null,
    // `volume` "9.999997" and `liquidity` "20328.3747" are numeric strings.
    volumeMicro: 9_999_997,
    liquidityMicro: 20_328_374_700,
    eventId: "260654",
    eventSlug: "btc-updown-5m-1773307200",
    version: null,
  },
  "gamma-market-resolved.nautilus-ceasefire.json": {
    id: "1812085",
    closed: true,
    // No umaResolutionStatus field at all, prices 1/0: settled YES.
    umaResolutionStatus: null,
    resolution: "YES",
    closedTime: Date.UTC(2026, 4, 9, 2, 7, 1) / 1000,
    liquidityMicro: null,
    volumeMicro: 192_817_490_449,
    feesEnabled: false,
    feeRate: 0,
    eventId: null,
  },
  "gamma-market-feeschedule-resolved.nautilus-sports.json": {
    id: "1878152",
    outcomeLabels: ["FaZe", "illwill"],
    closed: true,
    // "resolved" although umaResolutionStatuses says ["proposed"]: the singular field rules.
    umaResolutionStatus: "resolved",
    resolution: "YES",
    closedTime: Date.UTC(2026, 3, 5, 19, 37, 33) / 1000,
    feeSchedule: { rate: 0.03, exponent: 1, takerOnly: true, rebateRate: 0.25 },
    feeRate: 0.03,
    groupItemTitle: "Match Winner",
    eventId: "346898",
  },
  "gamma-market-negrisk-feeschedule.nautilus-newsom.json": {
    id: "559652",
    yesPriceMicro: 232_500,
    noPriceMicro: 767_500,
    closed: false,
    resolution: null,
    negRisk: true,
    negRiskMarketId: "0x2c3d7e0eee6f058be3006baabf0d54a07da254ba47fe6e3e095e7990c7814700",
    negRiskRequestId: "0x3763120bc45adb952c842119daf7978d5010523bd5a7f1fa42331964b815efec",
    groupItemTitle: "Gavin Newsom",
    feeRate: 0.04,
    eventId: "30829",
    eventSlug: "democratic-presidential-nominee-2028",
  },
};

/** What every market record must carry over from its own payload. */
function expectMarketFromPayload(raw: GammaMarket, record: MarketRecord): void {
  expect(record.id).toBe(raw.id);
  expect(record.conditionId).toBe(raw.conditionId.toLowerCase());
  expect(record.question).toBe(raw.question);
  // clobTokenIds, outcomes and outcomePrices are JSON arrays inside strings.
  expect(typeof raw.clobTokenIds).toBe("string");
  expect([record.yesTokenId, record.noTokenId]).toEqual(JSON.parse(raw.clobTokenIds as string));
  expect(record.outcomeLabels).toEqual(JSON.parse(raw.outcomes));
  const prices = JSON.parse(raw.outcomePrices) as string[];
  expect([record.yesPriceMicro, record.noPriceMicro]).toEqual(prices.map((p) => Math.round(Number(p) * 1_000_000)));
  expect(record.negRisk).toBe(raw.negRisk ?? false);
  expect(record.negRiskMarketId).toBe(raw.negRiskMarketID || null);
  expect(record.active).toBe(raw.active);
  expect(record.closed).toBe(raw.closed);
  if (!raw.closed) expect(record.resolution).toBeNull();
  if (raw.volume !== undefined && raw.volume !== null) expectMicro(record.volumeMicro, raw.volume);
}

function normalizedMarket(raw: GammaMarket): MarketRecord {
  const result = normalizeGammaMarket(raw);
  if (!result.ok) throw new Error(result.reason);
  return result.record;
}

/** Gamma event payloads: `/events` (an array) or one event object. */
const GAMMA_EVENTS: Record<
  GammaEventFile,
  { list: boolean; event: Json; resolutions: Record<string, "YES" | "NO" | null>; negRiskMarketId: string | null }
> = {
  "gamma-events.nautilus-negrisk-dem-nominee-2028.json": {
    list: true,
    event: {
      id: "30829",
      slug: "democratic-presidential-nominee-2028",
      negRisk: true,
      enableNegRisk: true,
      negRiskAugmented: true,
      // Event-level openInterest 0 and volume 799823812.487094 are numbers (market-level volumes are strings).
      openInterestMicro: 0,
      volumeMicro: 799_823_812_487_094,
      marketIds: ["559657", "559659"],
    },
    resolutions: { "559657": null, "559659": null },
    negRiskMarketId: "0x2c3d7e0eee6f058be3006baabf0d54a07da254ba47fe6e3e095e7990c7814700",
  },
  "gamma-event.pscanner-microstrategy.json": {
    list: false,
    event: {
      id: "16167",
      slug: "microstrategy-sell-any-bitcoin-in-2025",
      negRisk: false,
      // openInterest 484305.77524800005 (float noise), rounded to the micro-unit.
      openInterestMicro: 484_305_775_248,
      marketIds: ["516926", "824952", "692250", "692258"],
    },
    // Resolved markets (prices ["0", "1"], umaResolutionStatus "resolved", no liquidity) beside open ones.
    resolutions: { "516926": "NO", "824952": null, "692250": "NO", "692258": null },
    negRiskMarketId: null,
  },
};

describe("Gamma payloads", () => {
  it.each(GAMMA_MARKET_FILES)("%s parses as a Gamma market and normalizes from its own values", (file) => {
    const payload = corpusJson(file);
    expect(GammaMarketShape.issues(payload)).toEqual([]);
    const raw = GammaMarketShape.parse(payload, file);
    const record = normalizedMarket(raw);
    expectMarketFromPayload(raw, record);
    expect(record).toMatchObject(GAMMA_MARKETS[file] as Partial<MarketRecord>);
    expect(record.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("the ceasefire market is resolved without any umaResolutionStatus field", () => {
    const raw = asObject(corpusJson("gamma-market-resolved.nautilus-ceasefire.json"));
    expect("umaResolutionStatus" in raw).toBe(false);
    expect(raw.umaResolutionStatuses).toBe("[]");
    expect(raw.closedTime).toBe("2026-05-09 02:07:01+00");
  });

  it.each(GAMMA_EVENT_FILES)("%s parses as Gamma events and normalizes with its markets", (file) => {
    const expected = GAMMA_EVENTS[file];
    const payload = corpusJson(file);
    expect(Array.isArray(payload)).toBe(expected.list);
    const { rows, rejected } = partitionRows(GammaEventShape, expected.list ? payload : [payload], file);
    expect(rejected).toEqual([]);
    expect(rows).toHaveLength(1);
    const raw = rows[0] as (typeof rows)[number];
    const normalized = normalizeGammaEvent(raw);
    expect(normalized.rejectedMarkets).toEqual([]);
    expect(normalized.event).toMatchObject(expected.event);
    expect(normalized.markets.map((m) => m.id)).toEqual((raw.markets ?? []).map((m) => m.id));
    for (const [i, market] of normalized.markets.entries()) {
      expectMarketFromPayload((raw.markets ?? [])[i] as GammaMarket, market);
      expect(market.eventId).toBe(raw.id);
      expect(market.resolution).toBe(expected.resolutions[market.id]);
      expect(market.negRiskMarketId).toBe(expected.negRiskMarketId);
    }
  });

  it("event-level amounts are numbers and market-level ones strings in the NegRisk event, both read", () => {
    const event = asRows(corpusJson("gamma-events.nautilus-negrisk-dem-nominee-2028.json"))[0] as Json;
    const market = asRows(event.markets)[0] as Json;
    expect([typeof event.volume, typeof event.liquidity, typeof market.volume, typeof market.liquidity]).toEqual([
      "number",
      "number",
      "string",
      "string",
    ]);
    const normalized = normalizeGammaEvent(GammaEventShape.parse(event));
    expectMicro(normalized.event.volumeMicro, event.volume);
    expectMicro(normalized.markets[0]?.liquidityMicro ?? null, market.liquidity);
  });
});
