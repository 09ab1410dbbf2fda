/** Response schemas and lookups shared by the market route families (search and lists, one market, public v1 market, drill-downs). */
import { CATEGORY_CODES_TEXT } from "../../venue/categories.js";
import { Type } from "typebox";
import { Nullable } from "../nullable.js";
import type { AppContext } from "../context.js";
import { marketIndex } from "../../analytics/markets/market-index.js";
import { findMarket } from "../../analytics/markets/market-detail.js";
import { notFound } from "../errors.js";

export const MarketRowSchema = Type.Object({
  id: Type.String({ description: "the venue's market id" }),
  condition_id: Type.String({ description: "condition id, 0x and 64 hex digits" }),
  slug: Type.String(),
  question: Type.String(),
  category: Nullable(Type.String(), CATEGORY_CODES_TEXT),
  event_id: Nullable(Type.String()),
  event_slug: Nullable(Type.String()),
  price_yes: Nullable(Type.Number(), "YES price 0..1; null when the venue has none"),
  price_no: Nullable(Type.Number(), "NO price 0..1"),
  volume: Type.Number({
    description: "USD: the venue's lifetime volume when it reports one, else the volume of stored fills (taker sides)",
  }),
  volume_24h: Type.Number({ description: "USD over the last 24 h, same sources" }),
  liquidity: Type.Number({ description: "USD, as the venue reports it" }),
  trades: Type.Integer({ description: "stored trades (one per match)" }),
  whales_yes: Type.Integer({ description: "Smart Money wallets net YES by at least CONSENSUS_MIN_USD at cost" }),
  whales_no: Type.Integer({ description: "Smart Money wallets net NO by at least CONSENSUS_MIN_USD at cost" }),
  whales_total: Type.Integer(),
  end_date: Nullable(Type.Integer(), "unix seconds"),
  created_at: Nullable(Type.Integer(), "unix seconds"),
  days_left: Nullable(Type.Number(), "days until the end date, 0 once past"),
  closed: Type.Boolean(),
  neg_risk: Type.Boolean(),
  image_url: Nullable(Type.String()),
});

export const marketNotFound = (marketId: string) => `Market ${marketId} not found`;

/** The store's market index with this deployment's refresh window. */
export function indexOf(ctx: AppContext) {
  return marketIndex(ctx.store, ctx.platform.clock, ctx.config.markets.indexRefreshSeconds, ctx.background);
}

/** A stored market by any of its ids (`findMarket`), from the market index; 404 when none has it. */
export async function indexedMarket(ctx: AppContext, marketId: string) {
  const market = findMarket(await indexOf(ctx), marketId);
  if (!market) throw notFound(marketNotFound(marketId));
  return market;
}

export const MarketIdParams = Type.Object({
  market_id: Type.String({
    description:
      "the venue's numeric market id, the condition id (0x and 64 hex digits, any case) or the market slug; anything else is a 404",
  }),
});

export const HolderRowSchema = Type.Object({
  wallet: Type.String({ description: "wallet address, lower case" }),
  name: Nullable(Type.String(), "display name, else pseudonym"),
  side: Type.Union([Type.Literal("YES"), Type.Literal("NO")]),
  shares: Type.Number({ description: "shares held on this side" }),
  avg_price: Type.Number({ description: "average entry price of the position, 0..1" }),
  cost: Type.Number({ description: "USD invested at cost: shares * avg_price" }),
  pnl: Nullable(
    Type.Number(),
    "unrealized P&L at the current price: shares * (price - avg_price); null without a price",
  ),
  pnl_pct: Nullable(Type.Number(), "100 * pnl / cost"),
  win_rate: Nullable(Type.Number(), "the wallet's win rate, percent; null when it has no statistics"),
  global_pnl: Nullable(Type.Number(), "the wallet's total P&L, USD"),
  is_smart: Type.Boolean({ description: "Smart Money (never a farmer)" }),
});

export const WhalesSchema = Type.Object({
  yes: Type.Integer({ description: "Smart Money wallets on the YES team" }),
  no: Type.Integer({ description: "Smart Money wallets on the NO team" }),
  total: Type.Integer(),
  yes_pct: Nullable(Type.Number(), "100 * yes / (yes + no); null when no whale holds the market"),
});
