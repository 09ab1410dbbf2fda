/** Market rows and lookups shared by the market route families, and the schemas of one market and of the public v1 market. */
import { CATEGORY_CODES_TEXT } from "../../../venue/categories.js";
import { Type } from "typebox";
import { Nullable } from "../../nullable.js";
import type { AppContext } from "../../context.js";
import { marketIndex } from "../../../analytics/markets/market-index.js";
import { findMarket } from "../../../analytics/markets/market-detail.js";
import { notFound } from "../../errors.js";
import { LimitQuery } from "../../params.js";
import type { TSchema } from "typebox";

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

// One market (/api/v2/market/{market_id} and its parts).

const Side = Type.Union([Type.Literal("YES"), Type.Literal("NO")]);

export const MarketDetail = Type.Object({
  market: Type.Intersect([
    MarketRowSchema,
    Type.Object({
      event_title: Nullable(Type.String()),
      group_item_title: Nullable(Type.String()),
      resolution: Nullable(Type.String(), "YES, NO or 50-50 once resolved"),
    }),
  ]),
  prices: Type.Object({ yes: Nullable(Type.Number()), no: Nullable(Type.Number()) }),
  consensus: Type.Object(
    {
      whales: WhalesSchema,
      yes_invested: Type.Number({ description: "USD at cost of the YES team's YES positions" }),
      no_invested: Type.Number({ description: "USD at cost of the NO team's NO positions" }),
      yes_team: Type.Array(HolderRowSchema, { description: "top 10 of the YES team by USD invested" }),
      no_team: Type.Array(HolderRowSchema, { description: "top 10 of the NO team by USD invested" }),
      min_usd: Type.Number({
        description: "net position at cost a whale needs to stand on a team (CONSENSUS_MIN_USD)",
      }),
    },
    {
      description:
        "Whale consensus from open positions: a Smart Money wallet is on the YES (NO) team when its net position at cost is YES (NO) by at least min_usd",
    },
  ),
  top_traders: Type.Object(
    { yes: Type.Array(HolderRowSchema), no: Type.Array(HolderRowSchema) },
    { description: "top 10 open positions of each side by USD invested, whoever holds them" },
  ),
  event_group: Nullable(
    Type.Object({
      event_id: Type.String(),
      event_slug: Nullable(Type.String()),
      title: Nullable(Type.String()),
      neg_risk: Type.Boolean(),
      markets: Type.Array(
        Type.Intersect([
          MarketRowSchema,
          Type.Object({ group_item_title: Nullable(Type.String()), resolution: Nullable(Type.String()) }),
        ]),
        {
          description: "every market of the event, this one included, by YES price desc",
        },
      ),
    }),
    "the market's event and its sibling markets; null when the market has no event",
  ),
  as_of: Type.Integer({ description: "unix seconds" }),
});

const WhaleTradeSchema = Type.Object({
  timestamp: Type.Integer(),
  wallet: Type.String(),
  name: Nullable(Type.String()),
  direction: Type.Union([Type.Literal("BUY"), Type.Literal("SELL")], {
    description: "the conditional-token operation of the wallet's fill",
  }),
  side: Side,
  price: Type.Number({ description: "price of the traded token, 0..1" }),
  shares: Type.Number(),
  usd_amount: Type.Number(),
  entry_type: Nullable(Type.String(), "MINT, MERGE, COMPLEMENTARY or null (settlement mechanics, not intent)"),
  role: Nullable(Type.String(), "maker or taker; null when the source does not say"),
  tx_hash: Type.String(),
});

const PricePointSchema = Type.Object({
  t: Type.Integer({ description: "unix seconds of the UTC day's start" }),
  date: Type.String({ description: "YYYY-MM-DD" }),
  vwap_yes: Type.Number({
    description: "share-weighted average YES price of the day's trades (a NO trade at p counts as YES at 1 - p)",
  }),
  close_yes: Type.Number({ description: "YES price of the day's last trade" }),
  trades: Type.Integer(),
  volume: Type.Number({ description: "USD" }),
});

export const Lookup = Type.Object({
  id: Type.String(),
  condition_id: Type.String(),
  slug: Type.String(),
  question: Type.String(),
  prices: Type.Object({ yes: Nullable(Type.Number()), no: Nullable(Type.Number()) }),
  closed: Type.Boolean(),
  end_date: Nullable(Type.Integer(), "unix seconds"),
  image_url: Nullable(Type.String()),
  event_id: Nullable(Type.String()),
  event_slug: Nullable(Type.String()),
  neg_risk: Type.Boolean(),
  is_negrisk: Type.Boolean({ description: "same as neg_risk" }),
});

const EntryStats = Type.Object({
  usd: Type.Number(),
  count: Type.Integer(),
  share_pct: Type.Number({ description: "percent of the market's USD" }),
  count_share_pct: Type.Number({ description: "percent of the market's trades" }),
});

export const Breakdown = Type.Object({
  market_id: Type.String(),
  condition_id: Type.String(),
  total_usd: Type.Number(),
  total_count: Type.Integer(),
  breakdown: Type.Object(
    { MINT: EntryStats, MERGE: EntryStats, COMPLEMENTARY: EntryStats, UNCLASSIFIED: EntryStats },
    {
      description:
        "trades (one per match, the taker's side) by settlement; UNCLASSIFIED: legacy V1 trades whose match type is unknown",
    },
  ),
  as_of: Type.Integer({
    description: "unix seconds at which the Deriver last counted the market's trades (now, for a market without any)",
  }),
});

export const MarketTrades = Type.Object({
  market_id: Type.String(),
  condition_id: Type.String(),
  count: Type.Integer(),
  trades: Type.Array(WhaleTradeSchema),
  price_history: Type.Array(PricePointSchema, { description: "oldest first" }),
});

export const MarketTradesQuery = LimitQuery({ default: 50, max: 500 });

export const VenueRedirect = Type.Null({ description: "Location: the venue URL" });

export const n = (description: string) => Type.Number({ description });
export const wr = (description: string) => Nullable(Type.Number(), description);

function sideFields(side: "yes" | "no"): Record<string, TSchema> {
  const S = side.toUpperCase();
  return {
    [`${side}_team`]: Type.Array(HolderRowSchema, {
      description: `Smart Money on the ${S} team, top 10 by USD invested`,
    }),
    [`${side}_total_count`]: Type.Integer({ description: `Smart Money wallets on the ${S} team` }),
    [`${side}_total_invested`]: n(`USD at cost of the whole ${S} team`),
    [`${side}_team_avg_wr`]: wr(`mean win rate (percent) of the whole ${S} team`),
    [`${side}_team_agg_pnl`]: n(`summed unrealized P&L of the whole ${S} team in this market`),
    [`${side}_team_agg_pnl_pct`]: wr(`100 * ${side}_team_agg_pnl / ${side}_total_invested`),
    [`${side}_team_size`]: Type.Array(HolderRowSchema, { description: `every ${S} holder, top 10 by USD invested` }),
    [`${side}_size_total_count`]: Type.Integer({ description: `wallets holding ${S}` }),
    [`${side}_size_total_invested`]: n(`USD at cost of every ${S} position`),
    [`${side}_size_avg_wr`]: wr(`mean win rate of every ${S} holder`),
    [`${side}_size_agg_pnl`]: n(`summed unrealized P&L of every ${S} holder`),
    [`${side}_team_shares`]: Type.Array(HolderRowSchema, { description: `every ${S} holder, top 10 by shares` }),
    [`${side}_shares_total_count`]: Type.Integer({ description: `rows in ${side}_team_shares` }),
    [`${side}_shares_avg_wr`]: wr(`mean win rate of the top 10 ${S} holders by shares`),
    [`${side}_shares_agg_pnl`]: n(`summed unrealized P&L of the top 10 ${S} holders by shares`),
  };
}

export const PublicMarket = Type.Object({
  market: Type.Object({
    id: Type.String(),
    condition_id: Type.String(),
    slug: Type.String(),
    question: Type.String(),
    price_yes: Nullable(Type.Number()),
    price_no: Nullable(Type.Number()),
    category: Nullable(Type.String(), CATEGORY_CODES_TEXT),
    volume: Type.Number({ description: "USD" }),
    closed: Type.Boolean(),
  }),
  whales: WhalesSchema,
  ...sideFields("yes"),
  ...sideFields("no"),
  min_usd: n("net position at cost a Smart Money wallet needs to stand on a team (CONSENSUS_MIN_USD)"),
  as_of: Type.Integer({ description: "unix seconds" }),
});
