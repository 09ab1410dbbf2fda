/** GET /api/public/v1/market/{market_id}: a market, its whale consensus and three holder rankings (Premium). */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { marketHolders, type SideRankings } from "../../../analytics/markets/market-consensus.js";
import { findMarket } from "../../../analytics/markets/market-detail.js";
import { TtlBodies } from "../../../kept/ttl-bodies.js";
import { mebibytes } from "../../../platform/bounded-map.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { sendSerialized } from "../../../kept/send-serialized.js";
import { notFound } from "../../errors.js";
import { MarketIdParams, indexOf, marketNotFound } from "./market-schemas.js";
import { PublicMarket } from "./market-schemas.js";

function sideBody(side: "yes" | "no", r: SideRankings) {
  const team = r.smart.all;
  return {
    [`${side}_team`]: r.smart.top,
    [`${side}_total_count`]: team.count,
    [`${side}_total_invested`]: team.invested,
    [`${side}_team_avg_wr`]: team.avg_wr,
    [`${side}_team_agg_pnl`]: team.agg_pnl,
    [`${side}_team_agg_pnl_pct`]: team.invested > 0 ? (100 * team.agg_pnl) / team.invested : null,
    [`${side}_team_size`]: r.size.top,
    [`${side}_size_total_count`]: r.size.all.count,
    [`${side}_size_total_invested`]: r.size.all.invested,
    [`${side}_size_avg_wr`]: r.size.all.avg_wr,
    [`${side}_size_agg_pnl`]: r.size.all.agg_pnl,
    [`${side}_team_shares`]: r.shares.top,
    [`${side}_shares_total_count`]: r.shares.shown.count,
    [`${side}_shares_avg_wr`]: r.shares.shown.avg_wr,
    [`${side}_shares_agg_pnl`]: r.shares.shown.agg_pnl,
  };
}

export const publicMarketRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const pages = new TtlBodies(
    ctx.platform.clock,
    ctx.config.markets.detailCacheSeconds,
    { maxEntries: ctx.config.markets.detailCachedBodies, maxBytes: mebibytes(ctx.config.markets.detailCachedMb) },
    ctx.config.server.gzipMinBytes,
    () => ctx.readiness.ready,
  );
  app.get(
    "/api/public/v1/market/:market_id",
    {
      config: { access: access.premiumAnyHeader },
      schema: {
        summary: "Market, whale consensus and three rankings (Premium)",
        description:
          "Smart Money teams (yes_team, no_team): Smart Money wallets (farmers never are) whose net open position at cost is YES (NO) by at least min_usd, by USD invested. " +
          "Top Size and Top Shares: every open position of the side, by USD invested and by shares. Each list holds the top 10; team and size aggregates cover the whole " +
          "population, shares aggregates the 10 rows shown. P&L figures are unrealized, at the market's current price. " +
          "Cached per market for up to MARKET_DETAIL_CACHE_SECONDS (60 s); as_of tells when it was computed.",
        tags: ["markets", "public v1"],
        params: MarketIdParams,
        response: { 200: PublicMarket, 404: { $ref: "ErrorBody#" } },
      },
    },
    async (request, reply) => {
      const m = findMarket(await indexOf(ctx), request.params.market_id);
      if (!m) throw notFound(marketNotFound(request.params.market_id));
      const minUsd = ctx.config.whales.consensusMinUsd;
      const body = await pages.get(m.condition_id, async (now) => {
        const holders = await marketHolders(ctx.store, m.condition_id, m.price_yes, minUsd);
        return reply.serialize({
          market: {
            id: m.id,
            condition_id: m.condition_id,
            slug: m.slug,
            question: m.question,
            price_yes: m.price_yes,
            price_no: m.price_no,
            category: m.category,
            volume: m.volume,
            closed: m.closed,
          },
          whales: holders.whales,
          ...sideBody("yes", holders.yes),
          ...sideBody("no", holders.no),
          min_usd: minUsd,
          as_of: now,
        }) as string;
      });
      return sendSerialized(reply, body);
    },
  );
};
