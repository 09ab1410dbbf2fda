/** /api/v2/market/{market_id}[/trades|/lookup|/breakdown] and /api/v2/pm/{market_id}: one market, public reads. */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { marketHolders } from "../../../analytics/markets/market-consensus.js";
import {
  dailyPriceHistory,
  settlementBreakdown,
  eventGroup,
  lookupRecord,
  recentWhaleTrades,
  venueUrl,
} from "../../../analytics/markets/market-detail.js";
import { marketRow } from "../../../analytics/markets/markets-search.js";
import { TtlBodies } from "../../../kept/ttl-bodies.js";
import { mebibytes } from "../../../platform/bounded-map.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { marketTradesStamp } from "../../../analytics/wallet/wallet-stamps.js";
import { sendSerialized } from "../../../kept/send-serialized.js";
import {
  Breakdown,
  Lookup,
  MarketDetail,
  MarketTrades,
  MarketTradesQuery,
  VenueRedirect,
  MarketIdParams,
  indexOf,
  indexedMarket,
} from "./market-schemas.js";

const NotFound = { $ref: "ErrorBody#" } as const;
const LOOKUP_OPEN_MS = 60_000;
const LOOKUP_CLOSED_MS = 3_600_000;
const HOUR_MS = 3_600_000;

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
        querystring: MarketTradesQuery,
        response: {
          200: MarketTrades,
          404: NotFound,
        },
      },
    },
    async (request, reply) => {
      const m = await find(request.params.market_id);
      const limit = request.query.limit as number;
      // Kept serialized under the market's latest fill, its daily prices and the Smart Money set's generation: a
      // new fill, its daily prices written by the Deriver, or a wallet joining or leaving Smart Money retire it.
      // The history is one indexed read of the Deriver's daily sums.
      const [fills, smart] = await Promise.all([
        marketTradesStamp(ctx.store, m.condition_id),
        ctx.smartStamp.current(),
      ]);
      return answers.send(reply, `market-trades|${m.condition_id}|${limit}`, `${fills}|${smart}`, async () => {
        const trades = await recentWhaleTrades(ctx.store, m.condition_id, limit);
        const history = await dailyPriceHistory(ctx.store, m.condition_id);
        return {
          market_id: m.id,
          condition_id: m.condition_id,
          count: trades.length,
          trades,
          price_history: history,
        };
      });
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
        response: { 302: VenueRedirect, 404: NotFound },
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
