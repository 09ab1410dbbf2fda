/**
 * Insider scores (issue 52, Premium, X-API-Key): the insider alerts (/api/v2/insider-alerts), a market's informed
 * flow (/api/v2/market/{condition_id}/informed-flow) and a wallet's scored bets, paged (/api/v2/wallet/{address}/insider).
 * Each answer is kept serialized under the scores' stamp (`InsiderReads.stamp`): the Deriver rewrites the scores at
 * most every INSIDER_REFRESH_SECONDS, and a wallet's scored bets cost a read of all of them (docs/decisions.md,
 * "Insider answers are kept until the scores or the markets are written").
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { InsiderReads } from "../../../analytics/informed/insider-reads.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { notFound } from "../../errors.js";
import { WalletParams, categoryFilter, refuseContractAddresses, walletErrorResponses } from "../../params.js";
import {
  InformedFlowBody,
  InsiderAlertsBody,
  InsiderAlertsQuery,
  MarketParams,
  MinScoreQuery,
  WalletInsiderBody,
  WalletInsiderQuery,
} from "./insider-schemas.js";

const TAGS = ["insider scores"];

export const insiderRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const reads = new InsiderReads(ctx.store, () => ctx.platform.clock.now());
  const answers = ctx.stampedBodies;
  const { minScore } = ctx.config.insider;
  const premium = { access: access.premiumXApiKey };

  app.get(
    "/api/v2/insider-alerts",
    {
      config: premium,
      schema: {
        summary: "Insider alerts (Premium): bets whose insider score reaches min_score, the highest first",
        tags: TAGS,
        querystring: InsiderAlertsQuery(minScore),
        response: { 200: InsiderAlertsBody },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const filter = {
        minScore: q.min_score,
        days: q.days,
        category: categoryFilter(q.category),
        market: q.market === "" ? null : q.market,
        limit: q.limit,
      };
      const key = `insider-alerts|${filter.minScore}|${filter.days}|${filter.category}|${filter.market}|${filter.limit}`;
      return answers.sendUntil(reply, key, await reads.stamp(), () => reads.alertsUntil(filter));
    },
  );

  app.get(
    "/api/v2/market/:condition_id/informed-flow",
    {
      config: premium,
      schema: {
        summary: "A market's informed flow (Premium): which side the flagged money is on, against the price",
        tags: TAGS,
        params: MarketParams,
        querystring: MinScoreQuery(minScore),
        response: { 200: InformedFlowBody, 404: { $ref: "ErrorBody#" } },
      },
    },
    async (request, reply) => {
      const { condition_id } = request.params;
      const { min_score } = request.query;
      return answers.send(reply, `informed-flow|${condition_id}|${min_score}`, await reads.stamp(), async () => {
        const flow = await reads.marketFlow(condition_id, min_score);
        if (!flow) throw notFound("Market not found");
        return flow;
      });
    },
  );

  app.get(
    "/api/v2/wallet/:address/insider",
    {
      config: premium,
      preHandler: refuseContractAddresses,
      schema: {
        summary: "A wallet's insider scores (Premium): its scored bets with their components, a page at a time",
        tags: TAGS,
        params: WalletParams,
        querystring: WalletInsiderQuery(minScore),
        response: { 200: WalletInsiderBody, ...walletErrorResponses },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const wallet = await ctx.wallets.requireProxy(request.params.address);
      return answers.send(reply, `insider|${wallet}|${q.min_score}|${q.limit}|${q.offset}`, await reads.stamp(), () =>
        reads.wallet(wallet, q.min_score, { limit: q.limit, offset: q.offset }),
      );
    },
  );
};
