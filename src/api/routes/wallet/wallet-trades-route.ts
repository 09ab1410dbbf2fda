/** The raw-fills route shared by `/api/v2/wallet/{address}/trades` and `/api/public/v1/wallet/{address}/trades`. */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { walletTradesUntil } from "../../../analytics/wallet/wallet-trades.js";
import { walletFillsStamp } from "../../../analytics/wallet/wallet-stamps.js";
import type { Access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { WalletParams, walletErrorResponses } from "../../params.js";
import { TradesBody } from "./wallet-schemas.js";
import { TradesQuery } from "./wallet-query-schemas.js";

/**
 * A raw-fills route (v2 with X-API-Key, public v1 with either header): the same query and answer, kept serialized
 * per wallet and query while the wallet has no new fill (`walletFillsStamp`) and, with `since=0`, until the window's
 * start passes the oldest fill it read.
 */
export function walletTradesRoute(
  app: Parameters<FastifyPluginAsyncTypebox<AppContext>>[0],
  url: string,
  preset: Access,
  tags: string[],
  ctx: AppContext,
): void {
  const { wallets } = ctx;
  const answers = ctx.stampedBodies;
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
        querystring: TradesQuery,
        response: { 200: TradesBody, ...walletErrorResponses },
      },
    },
    async (request, reply) => {
      const wallet = await wallets.requireProxy(request.params.address);
      const q = request.query;
      const key = `trades|${wallet}|${q.limit}|${q.offset}|${q.since}|${q.before}`;
      return answers.sendUntil(reply, key, await walletFillsStamp(wallets.store, wallet), () =>
        walletTradesUntil(wallets.store, wallet, q, wallets.now()),
      );
    },
  );
}
