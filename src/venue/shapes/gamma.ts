/** Gamma API payloads (the venue's Gamma API): markets, events, the events keyset page. */
import { Type, type Static } from "typebox";
import { Hex32, JsonStringArray, Maybe, NumericString, defineShape } from "./shape.js";

export const GammaTagSchema = Type.Object({
  id: Type.Union([Type.String(), Type.Integer()]),
  label: Maybe(Type.String()),
  slug: Maybe(Type.String()),
});

export const GammaFeeScheduleSchema = Type.Object({
  rate: Type.Number({ minimum: 0 }),
  exponent: Maybe(Type.Number()),
  takerOnly: Maybe(Type.Boolean()),
  rebateRate: Maybe(Type.Number()),
});

/** Amounts that Gamma writes as numbers in some places and as numeric strings in others. */
const LooseAmount = Type.Union([Type.Number(), NumericString]);

const eventFields = {
  id: Type.String({ pattern: "^[0-9]+$" }),
  slug: Type.String(),
  title: Maybe(Type.String()),
  ticker: Maybe(Type.String()),
  description: Maybe(Type.String()),
  category: Maybe(Type.String()),
  startDate: Maybe(Type.String()),
  endDate: Maybe(Type.String()),
  active: Maybe(Type.Boolean()),
  closed: Maybe(Type.Boolean()),
  archived: Maybe(Type.Boolean()),
  negRisk: Maybe(Type.Boolean()),
  negRiskMarketID: Maybe(Type.String()),
  enableNegRisk: Maybe(Type.Boolean()),
  negRiskAugmented: Maybe(Type.Boolean()),
  openInterest: Maybe(LooseAmount),
  volume: Maybe(LooseAmount),
  liquidity: Maybe(LooseAmount),
  volume24hr: Maybe(Type.Number()),
  tags: Maybe(Type.Array(GammaTagSchema)),
  series: Maybe(Type.Array(Type.Unknown())),
};

/** An event as embedded in a market's `events[]` (without its own markets). */
export const GammaEventSummarySchema = Type.Object(eventFields);

export const GammaMarketSchema = Type.Object({
  id: Type.String({ pattern: "^[0-9]+$" }),
  question: Type.String(),
  conditionId: Hex32,
  slug: Type.String(),
  outcomes: JsonStringArray("outcome labels"),
  outcomePrices: JsonStringArray("outcome prices", /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/),
  clobTokenIds: Maybe(JsonStringArray("outcome token ids", /^[0-9]{1,78}$/)),
  active: Type.Boolean(),
  closed: Type.Boolean(),
  endDate: Maybe(Type.String()),
  startDate: Maybe(Type.String()),
  closedTime: Maybe(Type.String()),
  description: Maybe(Type.String()),
  category: Maybe(Type.String()),
  liquidity: Maybe(NumericString),
  volume: Maybe(NumericString),
  volumeNum: Maybe(Type.Number()),
  volume24hr: Maybe(Type.Number()),
  volume1wk: Maybe(Type.Number()),
  volume1mo: Maybe(Type.Number()),
  volume1yr: Maybe(Type.Number()),
  umaResolutionStatus: Maybe(Type.String()),
  negRisk: Maybe(Type.Boolean()),
  negRiskMarketID: Maybe(Type.String()),
  negRiskRequestID: Maybe(Type.String()),
  negRiskOther: Maybe(Type.Boolean()),
  groupItemTitle: Maybe(Type.String()),
  makerBaseFee: Maybe(Type.Number()),
  takerBaseFee: Maybe(Type.Number()),
  feesEnabled: Maybe(Type.Boolean()),
  feeType: Maybe(Type.String()),
  feeSchedule: Maybe(GammaFeeScheduleSchema),
  events: Maybe(Type.Array(GammaEventSummarySchema)),
  tags: Maybe(Type.Array(GammaTagSchema)),
  bestBid: Maybe(Type.Number()),
  bestAsk: Maybe(Type.Number()),
  lastTradePrice: Maybe(Type.Number()),
  spread: Maybe(Type.Number()),
  image: Maybe(Type.String()),
  icon: Maybe(Type.String()),
  version: Maybe(Type.Union([Type.Literal("v1"), Type.Literal("v2")])),
});

export const GammaEventSchema = Type.Object({
  ...eventFields,
  markets: Maybe(Type.Array(GammaMarketSchema)),
});

/** `/events/keyset`: a page of events and the cursor of the next one (absent, null or empty on the last page). */
export const GammaEventsKeysetPageSchema = Type.Object({
  events: Type.Array(GammaEventSchema),
  next_cursor: Maybe(Type.String()),
});

/** The keyset page's envelope alone: the client checks its events one by one, so one bad event does not sink a page. */
export const GammaEventsKeysetEnvelopeSchema = Type.Object({
  events: Type.Array(Type.Unknown()),
  next_cursor: Maybe(Type.String()),
});

/** `/markets` and `/events` answer plain arrays. */
export const GammaMarketsPayloadSchema = Type.Array(GammaMarketSchema);
export const GammaEventsPayloadSchema = Type.Array(GammaEventSchema);

export type GammaTag = Static<typeof GammaTagSchema>;
export type GammaFeeSchedule = Static<typeof GammaFeeScheduleSchema>;
export type GammaEventSummary = Static<typeof GammaEventSummarySchema>;
export type GammaMarket = Static<typeof GammaMarketSchema>;
export type GammaEvent = Static<typeof GammaEventSchema>;
export type GammaEventsKeysetPage = Static<typeof GammaEventsKeysetPageSchema>;

export const GammaMarketShape = defineShape("gamma market", GammaMarketSchema);
export const GammaEventShape = defineShape("gamma event", GammaEventSchema);
export const GammaEventsKeysetPageShape = defineShape("gamma events keyset page", GammaEventsKeysetPageSchema);
export const GammaEventsKeysetEnvelopeShape = defineShape("gamma events keyset page", GammaEventsKeysetEnvelopeSchema);
