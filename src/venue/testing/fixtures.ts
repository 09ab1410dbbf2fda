/** Test support: payloads in the venue's shapes, as recorded responses look. */
import type { GammaEvent, GammaMarket } from "../shapes/gamma.js";

export function gammaMarket(id: number, overrides: Partial<GammaMarket> = {}): GammaMarket {
  return {
    id: String(id),
    question: `Will thing ${id} happen?`,
    conditionId: `0x${id.toString(16).padStart(64, "0")}`,
    slug: `will-thing-${id}-happen`,
    endDate: "2026-09-30T12:00:00Z",
    startDate: "2026-01-02T00:00:00Z",
    description: "Resolves YES if it happens.",
    liquidity: "15234.5521",
    outcomes: '["Yes", "No"]',
    outcomePrices: '["0.62", "0.38"]',
    clobTokenIds: `["${1000 + id}", "${2000 + id}"]`,
    volume: "32257.445115",
    volumeNum: 32257.445115,
    volume24hr: 1200.5,
    active: true,
    closed: false,
    negRisk: false,
    negRiskMarketID: "",
    negRiskOther: false,
    groupItemTitle: "",
    feesEnabled: true,
    feeType: "taker",
    feeSchedule: { exponent: 1, rate: 0.04, takerOnly: true, rebateRate: 0 },
    events: [
      {
        id: "900",
        slug: "thing-event",
        title: "Thing event",
        tags: [{ id: "2", label: "Politics", slug: "politics" }],
      },
    ],
    tags: [{ id: "2", label: "Politics", slug: "politics" }],
    bestBid: 0.61,
    bestAsk: 0.63,
    lastTradePrice: 0.62,
    spread: 0.02,
    image: "",
    icon: "",
    version: "v2",
    ...overrides,
  };
}

export function gammaEvent(id: number, markets: GammaMarket[], overrides: Partial<GammaEvent> = {}): GammaEvent {
  return {
    id: String(id),
    slug: `event-${id}`,
    title: `Event ${id}`,
    active: true,
    closed: false,
    negRisk: markets.length > 1,
    negRiskMarketID: markets.length > 1 ? `0x${"e".repeat(64)}` : "",
    enableNegRisk: markets.length > 1,
    negRiskAugmented: false,
    openInterest: 5000.25,
    volume: 123456.78,
    tags: [{ id: "100", label: "Geopolitics", slug: "geopolitics" }],
    markets,
    ...overrides,
  };
}
