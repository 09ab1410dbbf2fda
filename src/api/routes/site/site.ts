/** Site figures: GET /api/v2/site-stats (cached 1 h) and GET /api/v2/hot-traders (cached 60 s). */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { HOT_LOSERS, HOT_WINNERS } from "../../../analytics/windows/site.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { HotTraders, SiteStats } from "./site-schemas.js";

export const siteRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const stats = ctx.warmUps.aggregate("site:stats");
  const traders = ctx.warmUps.aggregate("site:hot-traders");
  app.get(
    "/api/v2/site-stats",
    {
      config: { access: access.public },
      schema: {
        summary: "Site figures and the thresholds in force",
        description: "Cached 1 h.",
        tags: ["site"],
        response: { 200: SiteStats },
      },
    },
    async () => stats(),
  );

  app.get(
    "/api/v2/hot-traders",
    {
      config: { access: access.public },
      schema: {
        summary: "Biggest 24 h winners and losers",
        description: `The ${HOT_WINNERS} largest positive pnl_24h (largest first) and the ${HOT_LOSERS} largest negative (largest loss first), any wallet. Cached 60 s.`,
        tags: ["site"],
        response: { 200: HotTraders },
      },
    },
    async () => traders(),
  );
};
