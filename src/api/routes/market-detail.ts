/** /api/v2/market/{market_id}[/trades|/lookup|/breakdown] and /api/v2/pm/{market_id}: one market, public reads. */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { marketHolders } from "../../analytics/markets/market-consensus.js";
import {
  dailyPriceHistory,
  settlementBreakdown,
  eventGroup,
  lookupRecord,
  recentWhaleTrades,
  venueUrl,
} from "../../analytics/markets/market-detail.js";
import { marketRow } from "../../analytics/markets/markets-search.js";
import { TtlBodies } from "../../kept/ttl-bodies.js";
import { mebibytes } from "../../platform/bounded-map.js";
import { access } from "../access.js";
import type { AppContext } from "../context.js";
import { marketTradesStamp } from "../../analytics/wallet/wallet-stamps.js";
import { Nullable } from "../nullable.js";
import { sendSerialized } from "../../kept/send-serialized.js";
import { Limit } from "../params.js";
import {
  HolderRowSchema,
  MarketIdParams,
  MarketRowSchema,
  WhalesSchema,
  indexOf,
  indexedMarket,
} from "./market-schemas.js";

const NotFound = { $ref: "ErrorBody#" } as const;
const LOOKUP_OPEN_MS = 60_000;
const LOOKUP_CLOSED_MS = 3_600_000;
const HOUR_MS = 3_600_000;

const Side = Type.Union([Type.Literal("YES"), Type.Literal("NO")]);

const MarketDetail = Type.Object({
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

const Lookup = Type.Object({
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

const Breakdown = Type.Object({
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

export const marketDetailRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const clock = ctx.platform.clock;
  const answers = ctx.stampedBodies;
  const pages = new TtlBodies(
    clock,
    ctx.config.markets.detailCacheSeconds,
    { maxEntries: ctx.config.markets.detailCachedBodies, maxBytes: mebibytes(ctx.config.markets.detailCachedMb) },
    ctx.config.server.gzipMinBytes,
    () => ctx.readiness.ready,
  );
  const find = (marketId: string) => indexedMarket(ctx, marketId);

  app.get(
    "/api/v2/market/:market_id",
    {
      config: { access: access.public },
      schema: {
        summary: "Market: prices, whale consensus, top traders, event group",
        description:
          "Cached per market for up to MARKET_DETAIL_CACHE_SECONDS (60 s); as_of tells when it was computed.",
        tags: ["markets"],
        params: MarketIdParams,
        response: { 200: MarketDetail, 404: NotFound },
      },
    },
    async (request, reply) => {
      const m = await find(request.params.market_id);
      const body = await pages.get(m.condition_id, async (now) => {
        const holders = await marketHolders(ctx.store, m.condition_id, m.price_yes, ctx.config.whales.consensusMinUsd);
        return reply.serialize({
          market: {
            ...marketRow(m, now),
            event_title: m.event_title,
            group_item_title: m.group_item_title,
            resolution: m.resolution,
          },
          prices: { yes: m.price_yes, no: m.price_no },
          consensus: {
            whales: holders.whales,
            yes_invested: holders.yes.smart.all.invested,
            no_invested: holders.no.smart.all.invested,
            yes_team: holders.yes.smart.top,
            no_team: holders.no.smart.top,
            min_usd: ctx.config.whales.consensusMinUsd,
          },
          top_traders: { yes: holders.yes.size.top, no: holders.no.size.top },
          event_group: eventGroup(await indexOf(ctx), m, now),
          as_of: now,
        }) as string;
      });
      return sendSerialized(reply, body);
    },
  );

  app.get(
    "/api/v2/market/:market_id/trades",
    {
      config: { access: access.public },
      schema: {
        summary: "Recent smart-whale trades and daily price history",
        description:
          "trades: the newest fills of Smart Money wallets in the market. price_history: one point per UTC day with trades, from the stored fills (taker sides).",
        tags: ["markets"],
        params: MarketIdParams,
        querystring: Type.Object({ limit: Limit({ default: 50, max: 500 }) }),
        response: {
          200: Type.Object({
            market_id: Type.String(),
            condition_id: Type.String(),
            count: Type.Integer(),
            trades: Type.Array(WhaleTradeSchema),
            price_history: Type.Array(PricePointSchema, { description: "oldest first" }),
          }),
          404: NotFound,
        },
      },
    },
    async (request, reply) => {
      const m = await find(request.params.market_id);
      const limit = request.query.limit as number;
      // Kept serialized under the market's latest fill and its daily prices: a new fill, or its daily prices
      // written by the Deriver, retire it. The history is one indexed read of the Deriver's daily sums.
      return answers.send(
        reply,
        `market-trades|${m.condition_id}|${limit}`,
        await marketTradesStamp(ctx.store, m.condition_id),
        async () => {
          const trades = await recentWhaleTrades(ctx.store, m.condition_id, limit);
          const history = await dailyPriceHistory(ctx.store, m.condition_id);
          return {
            market_id: m.id,
            condition_id: m.condition_id,
            count: trades.length,
            trades,
            price_history: history,
          };
        },
      );
    },
  );

  app.get(
    "/api/v2/market/:market_id/lookup",
    {
      config: { access: access.public },
      schema: {
        summary: "Resolve a market id",
        description:
          "Lightweight resolve; cached 60 s for open and 3600 s for closed markets. 404 for an unknown or malformed id.",
        tags: ["markets"],
        params: MarketIdParams,
        response: { 200: Lookup, 404: NotFound },
      },
    },
    async (request, reply) => {
      const key = `market:lookup:${request.params.market_id}`;
      let value = await ctx.platform.cache.get<ReturnType<typeof lookupRecord>>(key);
      if (!value) {
        value = lookupRecord(await find(request.params.market_id));
        await ctx.platform.cache.set(key, value, value.closed ? LOOKUP_CLOSED_MS : LOOKUP_OPEN_MS);
      }
      void reply.header(
        "cache-control",
        `public, max-age=${(value.closed ? LOOKUP_CLOSED_MS : LOOKUP_OPEN_MS) / 1000}`,
      );
      return value;
    },
  );

  app.get(
    "/api/v2/market/:market_id/breakdown",
    {
      config: { access: access.public },
      schema: {
        summary: "Volume by settlement: MINT, MERGE, COMPLEMENTARY",
        description:
          "Counted as the market's trades are (one per match, the taker's side), by the Deriver as it stores the fills (market_stats): one row read.",
        tags: ["markets"],
        params: MarketIdParams,
        response: { 200: Breakdown, 404: NotFound },
      },
    },
    async (request) => {
      const m = await find(request.params.market_id);
      const { as_of, ...counted } = await settlementBreakdown(ctx.store, m.condition_id);
      return { market_id: m.id, condition_id: m.condition_id, ...counted, as_of: as_of ?? clock.now() };
    },
  );

  app.get(
    "/api/v2/pm/:market_id",
    {
      config: { access: access.public },
      schema: {
        summary: "Redirect to the market on the venue",
        description:
          "302 to <VENUE_MARKET_URL>/event/<event_slug>/<market_slug>, or /market/<slug> for a market without an event. Cached 1 h. 404 when unknown.",
        tags: ["markets"],
        params: MarketIdParams,
        response: { 302: Type.Null({ description: "Location: the venue URL" }), 404: NotFound },
      },
    },
    async (request, reply) => {
      const { value: location } = await ctx.platform.cache.getOrLoad(
        `market:pm:${request.params.market_id}`,
        HOUR_MS,
        async () => venueUrl(ctx.config.venue.marketUrl, await find(request.params.market_id)),
      );
      return reply.header("cache-control", "public, max-age=3600").redirect(location, 302);
    },
  );
};
