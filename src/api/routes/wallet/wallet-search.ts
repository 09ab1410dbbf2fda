/** GET /api/v2/wallet-search: wallets by 0x prefix, display name or pseudonym, over two stored sources. */
import { performance } from "node:perf_hooks";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { searchWallets } from "../../../analytics/wallet/wallet-search.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { SearchBody } from "./wallet-schemas.js";
import { SearchQuery } from "./wallet-query-schemas.js";

export const walletSearchRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.get(
    "/api/v2/wallet-search",
    {
      config: { access: access.public },
      schema: {
        summary: "Search wallets",
        description:
          "Case-insensitive: an address by 0x prefix, a display name or pseudonym by substring. An empty q returns no results. " +
          "Results are kept per query for WALLET_SEARCH_CACHE_SECONDS (30).",
        tags: ["wallet"],
        querystring: SearchQuery,
        response: { 200: SearchBody },
      },
    },
    async (request) => {
      const started = performance.now();
      const query = request.query.q.trim().toLowerCase();
      const { searchCacheSeconds } = ctx.config.insights;
      // A popular name is searched by many at once: its results are kept a short while (new profiles show after it).
      const results =
        searchCacheSeconds > 0
          ? (
              await ctx.platform.cache.getOrLoad(`wallet-search:${query}`, searchCacheSeconds * 1000, () =>
                searchWallets(ctx.store, query, ctx.config.insights),
              )
            ).value
          : await searchWallets(ctx.store, query, ctx.config.insights);
      return { results, _elapsed_ms: Math.round((performance.now() - started) * 100) / 100 };
    },
  );
};
