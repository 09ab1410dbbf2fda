/**
 * A market's whale trades (Premium): `/api/v2/market/{condition_id}/whale-trades` (X-API-Key) and its public v1 twin
 * (either header), paged by keyset, stopped with a 503 past WHALE_TRADES_TIMEOUT_MS. A read asked again (same market,
 * page, filters and Smart Money set) is answered from the serialized answer for WHALE_TRADES_CACHE_SECONDS.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { marketWhaleTrades } from "../../../analytics/markets/market-whale-trades.js";
import { mebibytes } from "../../../platform/bounded-map.js";
import { TtlBodies } from "../../../kept/ttl-bodies.js";
import { sendSerialized } from "../../../kept/send-serialized.js";
import { access, type Access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { validationError } from "../../errors.js";
import {
  MarketWhaleTradesBody,
  MarketWhaleTradesQuery,
  Params,
  PublicMarketWhaleTradesQuery,
} from "./drilldown-schemas.js";
import { indexedMarket } from "../markets/market-schemas.js";

export const marketWhaleTradeRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { store, config } = ctx;
  const limits = {
    timeoutMs: config.drilldowns.whaleTradesTimeoutMs,
    retryAfterSeconds: config.drilldowns.whaleTradesRetryAfterSeconds,
  };
  const bounds = {
    maxEntries: config.drilldowns.whaleTradesCachedAnswers,
    maxBytes: mebibytes(config.drilldowns.whaleTradesCachedMb),
  };
  // Both families answer the same body for the same read: one cache serves them.
  const answers = new TtlBodies(
    ctx.platform.clock,
    config.drilldowns.whaleTradesCacheSeconds,
    bounds,
    config.server.gzipMinBytes,
    () => ctx.readiness.ready,
  );

  const route = (url: string, preset: Access, tags: string[], query: typeof MarketWhaleTradesQuery) =>
    app.get(
      url,
      {
        config: { access: preset },
        schema: {
          summary: "A market's whale trades (Premium)",
          description:
            "Trades of the market whose maker or taker is a smart whale, newest first (timestamp, then id). One trade is one maker order filled against one taker order; " +
            "side, direction, price and usd_amount are the maker order's, and min_usd applies to usd_amount. Without before_id, timestamp <= before; with it, rows strictly " +
            `before (before, before_id): page with next_before and next_before_id. A read longer than ${config.drilldowns.whaleTradesTimeoutMs} ms answers 503 with Retry-After.`,
          tags,
          params: Params,
          querystring: query,
          response: { 200: MarketWhaleTradesBody, 404: { $ref: "ErrorBody#" }, 503: { $ref: "ErrorBody#" } },
        },
      },
      async (request, reply) => {
        const q = request.query;
        if (q.before_id > 0 && q.before === 0)
          throw validationError(
            ["query", "before_id"],
            "before_id continues a page inside before's second: it needs before",
          );
        const market = (await indexedMarket(ctx, request.params.condition_id)).condition_id;
        const smartGeneration = await ctx.smartStamp.current();
        const key = [market, q.before, q.before_id, q.min_usd, q.limit, q.wallets, smartGeneration].join(":");
        const body = await answers.get(key, async (now) => {
          const query = {
            conditionId: market,
            before: q.before,
            beforeId: q.before_id,
            minUsd: q.min_usd,
            limit: q.limit,
            wallets: q.wallets,
          };
          return reply.serialize({
            ...(await marketWhaleTrades(store, query, limits)),
            as_of: now,
          }) as string;
        });
        return sendSerialized(reply, body);
      },
    );
  route("/api/v2/market/:condition_id/whale-trades", access.premiumXApiKey, ["markets"], MarketWhaleTradesQuery);
  route(
    "/api/public/v1/market/:condition_id/whale-trades",
    access.premiumAnyHeader,
    ["public v1"],
    PublicMarketWhaleTradesQuery,
  );
};
