/** The market search and lists' request and response schemas: /api/v2/markets/search, hot, category-stats, resolved. */
import { Type } from "typebox";
import { Nullable } from "../../nullable.js";
import { Limit, Offset } from "../../params.js";
import { MarketRowSchema } from "./market-schemas.js";

/** Rows the hot markets' shared copy keeps: the largest `limit` of /api/v2/markets/hot. */
export const HOT_CACHED_ROWS = 100;

/** `category` as the market search and the whale routes take it. */
export const CategoryParam = Type.String({
  default: "",
  maxLength: 40,
  description:
    "All (or empty), Crypto, Geopolitics, Sports, Politics, Economics, Tech/AI; case-insensitive, Tech and AI also mean Tech/AI. Anything else is a 422",
});

export const NonNegativeInt = (def: number, description: string) =>
  Type.Integer({ minimum: 0, default: def, description });

export const HotRow = Type.Intersect([
  MarketRowSchema,
  Type.Object({
    whale_trades: Type.Integer({ description: "fills of Smart Money wallets in the window" }),
    whale_volume: Type.Number({ description: "USD of those fills" }),
    whale_wallets: Type.Integer({ description: "distinct Smart Money wallets among them" }),
    last_whale_trade: Type.Integer({ description: "unix seconds of the newest one" }),
  }),
]);

export const ResolvedRow = Type.Object({
  id: Type.String(),
  condition_id: Type.String(),
  slug: Type.String(),
  question: Type.String(),
  category: Nullable(Type.String()),
  event_slug: Nullable(Type.String()),
  outcome: Type.Union([Type.Literal("YES"), Type.Literal("NO"), Type.Literal("PENDING"), Type.Literal("50-50")], {
    description:
      "YES or NO; with include_pending=1 also PENDING (closed, not resolved yet) and 50-50 (resolved evenly, each side paid 0.5)",
  }),
  final_price_yes: Nullable(
    Type.Number(),
    "what a YES share paid (1, 0 or 0.5); PENDING: the last YES price, null when none",
  ),
  end_date: Nullable(Type.Integer(), "unix seconds"),
  resolved_at: Nullable(
    Type.Integer(),
    "unix seconds of the resolution (chain, else the venue's close); null when PENDING",
  ),
  volume: Type.Number(),
  whales_yes: Type.Integer(),
  whales_no: Type.Integer(),
});

export const MarketSearchQuery = Type.Object({
  q: Type.String({ default: "", maxLength: 500, description: "text, venue URL, slug or condition id" }),
  category: CategoryParam,
  limit: Limit({ default: 50, max: 200 }),
  offset: Offset,
  min_volume: Type.Number({ minimum: 0, default: 0, description: "minimum volume, USD" }),
  min_whales: NonNegativeInt(0, "minimum whales_yes + whales_no"),
  min_days: NonNegativeInt(0, "minimum days until the end date (a past end date counts as 0)"),
  max_days: NonNegativeInt(365, "maximum days until the end date"),
  price_min: Type.Integer({ minimum: 0, maximum: 100, default: 0, description: "minimum YES price, percent" }),
  price_max: Type.Integer({
    minimum: 0,
    maximum: 100,
    default: 100,
    description: "maximum YES price, percent (markets without a price only match 0..100)",
  }),
  window_hours: NonNegativeInt(0, "0: off; else only markets whose end date falls within the next window_hours hours"),
  created_within_days: NonNegativeInt(0, "0: off; else only markets created within the last created_within_days days"),
});

export const MarketSearchResults = Type.Object({
  markets: Type.Array(MarketRowSchema),
  total: Type.Integer({ description: "matches before limit and offset" }),
  limit: Type.Integer(),
  offset: Type.Integer(),
  _elapsed_ms: Type.Number({ description: "server time spent, milliseconds" }),
});

export const HotMarketsQuery = Type.Object({
  minutes: Type.Integer({
    minimum: 1,
    maximum: 10_080,
    default: 60,
    description: "window, minutes (up to 7 days)",
  }),
  limit: Limit({ default: 20, max: HOT_CACHED_ROWS }),
});

export const HotMarkets = Type.Object({
  markets: Type.Array(HotRow),
  minutes: Type.Integer(),
  count: Type.Integer(),
  as_of: Type.Integer({ description: "unix seconds of the computation" }),
});

/** The category alone: the category counts, and the whale routes' big-position totals. */
export const CategoryQuery = Type.Object({ category: CategoryParam });

export const CategoryStats = Type.Object({
  category: Type.String({
    description: "All, or the category code asked for (SPORTS, GEOPOLITICS, CRYPTO, POLITICS, ECONOMICS, TECH)",
  }),
  active_quality: Type.Integer(),
  all_open: Type.Integer(),
  all_time: Type.Integer(),
  thresholds: Type.Object(
    { min_volume: Type.Number(), price_min: Type.Number(), price_max: Type.Number() },
    { description: "the thresholds active_quality used" },
  ),
  as_of: Type.Integer({ description: "unix seconds of the computation" }),
});

export const ResolvedMarketsQuery = Type.Object({
  days: Type.Integer({
    minimum: 1,
    maximum: 3650,
    default: 7,
    description: "window without slug_prefix, days",
  }),
  limit: Limit({
    default: 30,
    max: 500,
    description: "rows to return (1..500 with slug_prefix, 1..100 without)",
  }),
  slug_prefix: Type.String({ default: "", maxLength: 300 }),
  end_from: Type.String({
    default: "",
    description: "YYYY-MM-DD (UTC), inclusive lower bound of the end date",
  }),
  end_to: Type.String({ default: "", description: "YYYY-MM-DD (UTC), inclusive upper bound of the end date" }),
  offset: Offset,
  include_pending: Type.Boolean({ default: false }),
});

export const ResolvedMarkets = Type.Object({
  markets: Type.Array(ResolvedRow),
  count: Type.Integer({ description: "rows returned" }),
  total: Type.Integer({ description: "matches before limit and offset" }),
  limit: Type.Integer(),
  offset: Type.Integer(),
  has_more: Type.Boolean(),
});
