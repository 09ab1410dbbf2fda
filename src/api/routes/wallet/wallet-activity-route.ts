/** `/api/v2/wallet/{address}/activity` (Premium): the wallet's splits, merges, redemptions, conversions and rewards. */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { ACTIVITY_TYPES, walletActivity } from "../../../analytics/wallet/wallet-activity.js";
import type { Access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { Nullable } from "../../nullable.js";
import { Offset, WalletParams, walletErrorResponses } from "../../params.js";
import { IntLimit } from "./wallet-schemas.js";

const ActivityType = Type.Union(
  ACTIVITY_TYPES.map((t) => Type.Literal(t)),
  { description: "SPLIT, MERGE, REDEEM and CONVERSION are on-chain operations; REWARD and the rebates the venue's" },
);

const ActivityBody = Type.Object(
  {
    address: Type.String(),
    count: Type.Integer(),
    has_more: Type.Boolean(),
    activity: Type.Array(
      Type.Object({
        type: ActivityType,
        condition_id: Nullable(Type.String(), "the market's condition; null for a conversion and an income row"),
        market_id: Nullable(Type.String(), "the market's id, once the store lists it"),
        title: Nullable(Type.String(), "the market's question"),
        size: Type.Number({
          description:
            "shares: of each outcome for a split or merge, of NO given up per question for a conversion; a redemption's payout",
        }),
        usd_amount: Type.Number({ description: "collateral in or out (a conversion's: received)" }),
        index_set: Nullable(
          Type.String(),
          "REDEEM: the sides redeemed (1 YES, 2 NO, 3 both); CONVERSION: bit i set for question i's NO given up",
        ),
        neg_risk_market_id: Nullable(Type.String(), "CONVERSION: the NegRisk market"),
        fee_shares: Nullable(Type.Number(), "CONVERSION: shares the adapter keeps per NO given up"),
        timestamp: Type.Integer({ description: "unix seconds" }),
        transaction_hash: Type.String(),
      }),
    ),
  },
  { description: "The wallet's operations besides its fills, newest first" },
);

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
        querystring: Type.Object({
          limit: IntLimit({ default: 100, max: 500 }),
          offset: Offset,
          type: Type.Optional(ActivityType),
        }),
        response: { 200: ActivityBody, ...walletErrorResponses },
      },
    },
    async (request) => {
      const wallet = await wallets.requireProxy(request.params.address);
      return walletActivity(wallets.store, wallet, request.query);
    },
  );
}
