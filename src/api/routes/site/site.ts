/** Site figures: GET /api/v2/site-stats (cached 1 h) and GET /api/v2/hot-traders (cached 60 s). */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { HOT_LOSERS, HOT_WINNERS } from "../../../analytics/windows/site.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";

const NumberMap = Type.Record(Type.String(), Type.Number());

const SiteStats = Type.Object({
  smart_whales: Type.Integer({ description: "Smart Money wallets (farmers never count)" }),
  markets: Type.Integer({ description: "markets known" }),
  active_markets: Type.Integer({ description: "markets not closed" }),
  wallets: Type.Integer({ description: "wallets with statistics" }),
  trades: Type.Integer({
    description:
      "approximate: matches as the venue counts them (one per taker order), summed over the market statistics",
  }),
  thresholds: Type.Object(
    {
      smart: NumberMap,
      farmer: NumberMap,
      whales: NumberMap,
      ledger: NumberMap,
      home: NumberMap,
      roles: NumberMap,
    },
    {
      description:
        "the thresholds in force, by the settings' names in snake case (README: settings), e.g. smart.min_win_rate = SMART_MIN_WIN_RATE",
    },
  ),
  as_of: Type.Integer({ description: "unix seconds the figures were computed at" }),
});

const HotTrader = Type.Object({
  wallet: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  pnl_24h: Type.Number({ description: "change of total P&L over the last 24 h, USD" }),
  total_pnl: Type.Number(),
  win_rate: Type.Number({ description: "percent 0-100" }),
  is_smart: Type.Boolean(),
});

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
        response: { 200: Type.Object({ winners: Type.Array(HotTrader), losers: Type.Array(HotTrader) }) },
      },
    },
    async () => traders(),
  );
};
