/** The raw-fills route shared by `/api/v2/wallet/{address}/trades` and `/api/public/v1/wallet/{address}/trades`. */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { walletTrades } from "../../analytics/wallet-trades.js";
import type { Access } from "../access.js";
import type { AppContext } from "../context.js";
import { Offset, WalletParams, walletErrorResponses } from "../params.js";
import { IntLimit, TradesBody, TradesQuerystring } from "./wallet-schemas.js";
import type { WalletReads } from "../../analytics/wallet-reads.js";

/** A raw-fills route (v2 with X-API-Key, public v1 with either header): the same query and answer. */
export function walletTradesRoute(
  app: Parameters<FastifyPluginAsyncTypebox<AppContext>>[0],
  url: string,
  preset: Access,
  tags: string[],
  wallets: WalletReads,
): void {
  app.get(
    url,
    {
      config: { access: preset },
      schema: {
        summary: "Raw trade fills (Premium)",
        description:
          "Layer 2: the wallet's raw fills, newest first. entry_type states settlement mechanics, not trader intent.",
        tags,
        params: WalletParams,
        querystring: Type.Object({ limit: IntLimit({ default: 100, max: 500 }), offset: Offset, ...TradesQuerystring }),
        response: { 200: TradesBody, ...walletErrorResponses },
      },
    },
    async (request) => {
      const wallet = await wallets.requireProxy(request.params.address);
      return walletTrades(wallets.store, wallet, request.query, wallets.now());
    },
  );
}
