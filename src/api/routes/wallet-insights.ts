/**
 * Wallet insights and copy-trading aids under /api/v2/wallet/{address}: insights, closed-insights, highlights,
 * hold, alignment, related-markets, similar-traders, whale-matches, missed-opportunities, active-whale-markets.
 */
import { access, heavy } from "../access.js";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { activeWhaleMarkets, missedOpportunities, relatedMarkets, similarTraders, walletAlignment, whaleMatches } from "../../analytics/whale-matches.js";
import { closedInsights, walletHighlights, walletHold, walletInsights } from "../../analytics/wallet-insights.js";
import type { AppContext } from "../context.js";
import { refuseContractAddresses } from "../params.js";
import {
  ActiveWhaleMarkets,
  AlignmentBody,
  ClosedInsights,
  Highlights,
  Hold,
  Insights,
  MissedOpportunities,
  ProxyQuery,
  RelatedMarkets,
  SimilarTraders,
  NoQuery,
  WhaleMatches,
  walletRoute,
} from "./wallet-insight-schemas.js";

const TAGS = ["wallet insights"];
const RELATED_TTL_MS = 5 * 60_000;
const SIMILAR_TTL_MS = 10 * 60_000;
const ACTIVE_WHALES_TTL_MS = 60_000;

const LimitQuery = (defaultValue: number, max: number) =>
  Type.Object({ limit: Type.Integer({ minimum: 1, maximum: max, default: defaultValue, description: `rows to return (1..${max})` }) });

const route = walletRoute(TAGS);

export const walletInsightRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.addHook("preHandler", refuseContractAddresses);
  const wallets = ctx.wallets;
  const { store, config, platform } = ctx;
  const now = () => platform.clock.now();
  const heavyRead = heavy(access.public, config.limits.heavyReadCost);

  app.get("/api/v2/wallet/:address/insights", route("Wallet insights: categories, entry prices, hold, skill", Insights, NoQuery), async (request) =>
    walletInsights(store, await wallets.requireProxy(request.params.address)),
  );

  app.get(
    "/api/v2/wallet/:address/closed-insights",
    route("Closed-position insights: win/loss figures, biggest wins and losses", ClosedInsights, ProxyQuery),
    async (request) => closedInsights(store, await wallets.requireProxy(request.params.address, request.query.proxy), config),
  );

  app.get("/api/v2/wallet/:address/highlights", route("Winning streaks and biggest single win", Highlights, NoQuery), async (request) =>
    walletHighlights(store, await wallets.requireProxy(request.params.address), now()),
  );

  app.get("/api/v2/wallet/:address/hold", route("Typical hold", Hold, NoQuery), async (request) =>
    walletHold(store, await wallets.requireProxy(request.params.address), now(), config),
  );

  app.get(
    "/api/v2/wallet/:address/alignment",
    route("Whale alignment of the wallet's open positions", AlignmentBody, ProxyQuery),
    async (request) => walletAlignment(store, await wallets.requireProxy(request.params.address, request.query.proxy), config),
  );

  app.get("/api/v2/wallet/:address/related-markets", route("Active markets in the wallet's main categories", RelatedMarkets, NoQuery), async (request) => {
    const wallet = await wallets.requireProxy(request.params.address);
    return (await platform.cache.getOrLoad(`wallet-insights:related-markets:${wallet}`, RELATED_TTL_MS, () => relatedMarkets(store, wallet, now(), config))).value;
  });

  app.get("/api/v2/wallet/:address/similar-traders", route("Smart Money traders like this wallet", SimilarTraders, NoQuery), async (request) => {
    const wallet = await wallets.requireProxy(request.params.address);
    return (await platform.cache.getOrLoad(`wallet-insights:similar-traders:${wallet}`, SIMILAR_TTL_MS, () => similarTraders(store, wallet, config))).value;
  });

  app.get(
    "/api/v2/wallet/:address/whale-matches",
    route("Whales with the most overlapping (market, side) positions", WhaleMatches, LimitQuery(10, 100), heavyRead),
    async (request) => whaleMatches(store, await wallets.requireProxy(request.params.address), request.query.limit),
  );

  app.get(
    "/api/v2/wallet/:address/missed-opportunities",
    route("Markets matched whales won without the wallet", MissedOpportunities, LimitQuery(5, 50), heavyRead),
    async (request) => missedOpportunities(store, await wallets.requireProxy(request.params.address), request.query.limit, config),
  );

  app.get(
    "/api/v2/wallet/:address/active-whale-markets",
    route("Open markets where matched whales hold a side the wallet does not", ActiveWhaleMarkets, LimitQuery(5, 50), heavyRead),
    async (request) => {
      const wallet = await wallets.requireProxy(request.params.address);
      const all = (await platform.cache.getOrLoad(`wallet-insights:active-whale-markets:${wallet}`, ACTIVE_WHALES_TTL_MS, () => activeWhaleMarkets(store, wallet, config))).value;
      return { ...all, markets: all.markets.slice(0, request.query.limit) };
    },
  );
};
