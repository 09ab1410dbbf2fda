/**
 * Ahead of the news (issue 52, Premium, X-API-Key): the wallets that traded toward a territory event's move before
 * it (/api/v2/ahead-of-news) and one event's linked markets with their evidence
 * (/api/v2/isw/events/{event_id}/ahead-of-news).
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { AheadOfNewsReads } from "../../../analytics/informed/ahead-reads.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { notFound } from "../../errors.js";
import { AheadBody, AheadQuery, EventAheadBody, EventAheadParams, EventAheadQuery } from "./ahead-schemas.js";

const TAGS = ["ahead of the news"];

export const aheadOfNewsRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const reads = new AheadOfNewsReads(ctx.store, ctx.config, () => ctx.platform.clock.now());
  const { minUsd } = ctx.config.aheadOfNews;
  const premium = { access: access.premiumXApiKey };

  app.get(
    "/api/v2/ahead-of-news",
    {
      config: premium,
      schema: {
        summary:
          "Ahead of the news (Premium): wallets that traded toward a territory event's move in the hours before it",
        tags: TAGS,
        querystring: AheadQuery(minUsd),
        response: { 200: AheadBody },
      },
    },
    async (request) => {
      const q = request.query;
      return reads.signals({
        days: q.days,
        city: q.city === "" ? null : q.city,
        market: q.market === "" ? null : q.market,
        wallet: q.wallet === "" ? null : q.wallet.toLowerCase(),
        minUsd: q.min_usd,
        limit: q.limit,
      });
    },
  );

  app.get(
    "/api/v2/isw/events/:event_id/ahead-of-news",
    {
      config: premium,
      schema: {
        summary: "One territory event's linked markets (Premium): how each moved, and who traded toward it before",
        tags: TAGS,
        params: EventAheadParams,
        querystring: EventAheadQuery(minUsd),
        response: { 200: EventAheadBody, 404: { $ref: "ErrorBody#" } },
      },
    },
    async (request) => {
      const found = await reads.event(request.params.event_id, request.query.min_usd);
      if (!found) throw notFound("Event not found");
      return found;
    },
  );
};
