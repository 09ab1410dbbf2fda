/**
 * Schemas of the ahead-of-the-news routes (issue 52). The contract does not show them; the decision:
 * docs/decisions.md, "Ahead of the news: who traded before a territory event moved its market".
 */
import { Type } from "typebox";
import { Nullable } from "../../nullable.js";
import { ADDRESS_PATTERN, Limit } from "../../params.js";
import { Event } from "../isw/isw-schemas.js";

const SideOf = (description?: string) =>
  Type.Union([Type.Literal("YES"), Type.Literal("NO")], description ? { description } : {});
const Side = SideOf();

export const MinUsd = (fallback: number) =>
  Type.Number({
    minimum: 0,
    default: fallback,
    description: `wallets with at least this much collateral on the side the market moved to (USD; default AHEAD_MIN_USD, ${fallback})`,
  });

const Rules = {
  hours_before: Type.Number({
    description: "trades this many hours or less before the event count (AHEAD_HOURS_BEFORE)",
  }),
  hours_after: Type.Number({
    description: "the price after: the last trade within this many hours (AHEAD_HOURS_AFTER)",
  }),
  min_move: Type.Number({
    description: "the YES price move (0..1) from which the event moved the market (AHEAD_MIN_MOVE)",
  }),
  min_usd: Type.Number(),
};

const Fill = Type.Object({
  tx_hash: Type.String(),
  ts: Type.Integer(),
  outcome: Side,
  side: Type.Union([Type.Literal("BUY"), Type.Literal("SELL")]),
  settlement: Nullable(Type.String(), "MINT, MERGE or COMPLEMENTARY"),
  size: Type.Number({ description: "shares" }),
  price: Type.Number({ description: "the traded outcome's price" }),
  usd: Type.Number(),
});

const WalletAhead = {
  wallet: Type.String(),
  outcome: SideOf("the outcome its trades favoured: the one that rose"),
  shares: Type.Number({ description: "shares of that outcome (a sale of the other outcome counts as a purchase)" }),
  usd: Type.Number({ description: "their cost at that outcome's price (USD)" }),
  avg_price: Type.Number(),
  gain_usd: Type.Number({ description: "their value at the price after the event, less their cost" }),
  first_ts: Type.Integer(),
  last_ts: Type.Integer(),
  lead_hours: Type.Number({ description: "hours from its first such trade to the event" }),
  fills: Type.Array(Fill, { description: "the evidence: its fills toward the move in the window" }),
};

const MoveEvidence = {
  condition_id: Type.String(),
  market_id: Type.String(),
  market_title: Type.String(),
  slug: Nullable(Type.String()),
  price_window_start: Nullable(Type.Number(), "YES price of the last trade before the window opened"),
  price_before: Nullable(Type.Number(), "YES price of the last trade at or before the event"),
  price_after: Nullable(Type.Number(), "YES price of the last trade within hours_after of it"),
  move: Nullable(Type.Number(), "price_after - price_before"),
  moved_to: Nullable(Side, "the outcome the event moved the market toward; null when it moved less than min_move"),
};

export const EventAheadBody = Type.Object({
  event: Event,
  news_event: Type.Boolean({
    description: "whether it is of a type the signal list reads (CAPTURED, THREAT_CRITICAL, THREAT_HIGH)",
  }),
  ...Rules,
  markets: Type.Array(Type.Object({ ...MoveEvidence, wallets: Type.Array(Type.Object(WalletAhead)) }), {
    description: "the markets its slug pattern links to that traded around it",
  }),
});

export const EventAheadParams = Type.Object({ event_id: Type.Integer({ minimum: 1 }) });
export const EventAheadQuery = (minUsd: number) => Type.Object({ min_usd: MinUsd(minUsd) });

export const AheadQuery = (minUsd: number) =>
  Type.Object({
    days: Type.Integer({ minimum: 1, maximum: 365, default: 30, description: "events this recent (days)" }),
    city: Type.String({ default: "", maxLength: 80, description: "a city's name, any case; empty: every city" }),
    market: Type.String({
      default: "",
      maxLength: 200,
      description: "one market: its condition id or the venue's market id; empty: every market",
    }),
    wallet: Type.Union([Type.Literal(""), Type.String({ pattern: ADDRESS_PATTERN })], {
      default: "",
      description: "one wallet (0x and 40 hex digits); empty: every wallet",
    }),
    min_usd: MinUsd(minUsd),
    limit: Limit({ default: 50, max: 500 }),
  });

export const AheadBody = Type.Object({
  days: Type.Integer(),
  ...Rules,
  count: Type.Integer(),
  signals: Type.Array(
    Type.Object({
      event: Type.Object({
        id: Type.Integer(),
        event_type: Type.String(),
        city: Type.String(),
        subscription_label: Type.String(),
        timestamp: Type.String({ description: "ISO 8601, UTC" }),
      }),
      ...MoveEvidence,
      ...WalletAhead,
    }),
    { description: "one wallet ahead of one event in one market; the latest event first, the largest wallet first" },
  ),
});
