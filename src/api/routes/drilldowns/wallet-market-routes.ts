/**
 * A wallet in one market (Premium): its fills there (`/wallet/{address}/market-trades`) and its trades summed per
 * side now or at a past instant (`/wallet/{address}/market-summary/{condition_id}`), under /api/v2 (X-API-Key) and
 * /api/public/v1 (either header).
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { walletMarketSummary, walletMarketTrades } from "../../../analytics/wallet/wallet-market.js";
import { walletMarketFillsStamp } from "../../../analytics/wallet/wallet-stamps.js";
import { access, type Access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { validationError } from "../../errors.js";
import { WalletParams, refuseContractAddresses, walletErrorResponses } from "../../params.js";
import {
  MarketSummaryBody,
  MarketSummaryQuery,
  PublicWalletMarketTradesQuery,
  WalletMarketParams,
  WalletMarketTradesBody,
  WalletMarketTradesQuery,
} from "./drilldown-schemas.js";
import { indexedMarket } from "../markets/market-schemas.js";

export const walletMarketRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.addHook("preHandler", refuseContractAddresses);
  const { store, wallets } = ctx;
  const answers = ctx.stampedBodies;

  const tradesRoute = (url: string, preset: Access, tags: string[], query: typeof WalletMarketTradesQuery) =>
    app.get(
      url,
      {
        config: { access: preset },
        schema: {
          summary: "A wallet's fills in one market (Premium)",
          description:
            "The wallet's raw fills in the market, newest first (timestamp, then id), with timestamps in (after, before). " +
            "Page with next_before and next_before_id. Served from the fills index (wallet, condition_id, ts): a busy wallet costs what it traded in this market.",
          tags,
          params: WalletParams,
          querystring: query,
          response: { 200: WalletMarketTradesBody, ...walletErrorResponses },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const after = q.after;
        if (after >= q.before)
          throw validationError(["query", "after"], `after (${after}) must be below before (${q.before})`);
        const wallet = await wallets.proxyOf(request.params.address);
        const market = (await indexedMarket(ctx, q.market)).condition_id;
        // Kept under the wallet's fills in the market (any new one there, late ones included, retires the page).
        const stamp = await walletMarketFillsStamp(store, wallet, market, 0);
        const key = `market-trades|${wallet}|${market}|${q.before}|${q.before_id}|${after}|${q.limit}`;
        return answers.send(reply, key, stamp, async () => {
          const page = await walletMarketTrades(store, wallet, {
            conditionId: market,
            before: q.before,
            beforeId: q.before_id,
            after,
            limit: q.limit,
          });
          return { wallet, market, ...page };
        });
      },
    );
  tradesRoute("/api/v2/wallet/:address/market-trades", access.premiumXApiKey, ["wallet"], WalletMarketTradesQuery);
  tradesRoute(
    "/api/public/v1/wallet/:address/market-trades",
    access.premiumAnyHeader,
    ["public v1"],
    PublicWalletMarketTradesQuery,
  );

  const summaryRoute = (url: string, preset: Access, tags: string[]) =>
    app.get(
      url,
      {
        config: { access: preset },
        schema: {
          summary: "A wallet's position in one market, per side, now or at a past instant (Premium)",
          description:
            "The wallet's trades in the market summed per side (YES, NO): tokens and USD bought and sold, net, count, first and last trade, and the average entry price " +
            "by the venue's average-cost method. at=0: every trade so far; at=<unix s>: rebuilt from the trades up to that instant (inclusive). " +
            "Splits, merges, conversions and redemptions are not trades.",
          tags,
          params: WalletMarketParams,
          querystring: MarketSummaryQuery,
          response: { 200: MarketSummaryBody, ...walletErrorResponses },
        },
      },
      async (request, reply) => {
        const wallet = await wallets.proxyOf(request.params.address);
        const market = (await indexedMarket(ctx, request.params.condition_id)).condition_id;
        const { at } = request.query;
        // Kept under the fills it sums (any fill stored there up to `at`, late ones included, retires it): a past
        // instant's answer is computed once, not per request.
        const stamp = await walletMarketFillsStamp(store, wallet, market, at);
        return answers.send(reply, `market-summary|${wallet}|${market}|${at}`, stamp, () =>
          walletMarketSummary(store, wallet, market, at),
        );
      },
    );
  summaryRoute("/api/v2/wallet/:address/market-summary/:condition_id", access.premiumXApiKey, ["wallet"]);
  summaryRoute("/api/public/v1/wallet/:address/market-summary/:condition_id", access.premiumAnyHeader, ["public v1"]);
};
