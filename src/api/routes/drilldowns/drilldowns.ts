/**
 * The Premium drill-downs of issue 25, registered as one (each plugin keeps its own hooks): a whale's history and
 * backtest, a wallet's trades and summary in one market, a market's whale trades.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { AppContext } from "../../context.js";
import { marketWhaleTradeRoutes } from "./market-whale-trades.js";
import { walletMarketRoutes } from "./wallet-market-routes.js";
import { whaleHistoryRoutes } from "./whale-history.js";

export const drilldownRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  await app.register(whaleHistoryRoutes, ctx);
  await app.register(walletMarketRoutes, ctx);
  await app.register(marketWhaleTradeRoutes, ctx);
};
