/** `/api/v2/wallet/{address}/activity` (Premium): the wallet's splits, merges, redemptions, conversions and rewards. */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { walletActivity } from "../../../analytics/wallet/wallet-activity.js";
import type { Access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { WalletParams, walletErrorResponses } from "../../params.js";
import { ActivityBody } from "./wallet-schemas.js";
import { ActivityQuery } from "./wallet-query-schemas.js";

export function walletActivityRoute(
  app: Parameters<FastifyPluginAsyncTypebox<AppContext>>[0],
  url: string,
  preset: Access,
  tags: string[],
  ctx: AppContext,
): void {
  const { wallets } = ctx;
  app.get(
    url,
    {
      config: { access: preset },
      schema: {
        summary: "Splits, merges, redemptions, conversions and rewards (Premium)",
        description:
          "The wallet's own operations besides its fills, newest first: made directly or through the venue's collateral adapters, which act for the wallet (docs/VENUE.md).",
        tags,
        params: WalletParams,
        querystring: ActivityQuery,
        response: { 200: ActivityBody, ...walletErrorResponses },
      },
    },
    async (request) => {
      const wallet = await wallets.requireProxy(request.params.address);
      return walletActivity(wallets.store, wallet, request.query);
    },
  );
}
