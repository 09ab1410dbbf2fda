/**
 * The public scorecard (issue 52): /api/v2/scorecard (the chain's state and the grades per kind and month) and
 * /api/v2/scorecard/signals (every recorded signal with its hashes and grade, for checking outside Pelagic).
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ScorecardReads } from "../../../analytics/informed/scorecard-reads.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { ScorecardBody, SignalsBody, SignalsQuery } from "./scorecard-schemas.js";
import { NoQuery } from "../wallet-insights/wallet-insight-schemas.js";

const TAGS = ["scorecard"];

export const scorecardRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const reads = new ScorecardReads(ctx.store, () => ctx.platform.clock.nowMs());

  app.get(
    "/api/v2/scorecard",
    {
      config: { access: access.public },
      schema: {
        summary: "How Pelagic's signals fared: hit rate and follow return per kind and month, and the chain's check",
        tags: TAGS,
        querystring: NoQuery,
        response: { 200: ScorecardBody },
      },
    },
    async () => reads.scorecard(),
  );

  app.get(
    "/api/v2/scorecard/signals",
    {
      config: { access: access.public },
      schema: {
        summary: "The recorded signals in chain order, with their hashes and grades",
        tags: TAGS,
        querystring: SignalsQuery,
        response: { 200: SignalsBody },
      },
    },
    async (request) => {
      const q = request.query;
      return reads.signals({ afterSeq: q.after_seq, limit: q.limit, kind: q.kind === "" ? null : q.kind });
    },
  );
};
