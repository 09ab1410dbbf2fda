/**
 * Home page: whale moves, hot markets, top whales of the week, category rotation (cached 60 s or 5 min), and
 * the homepage presence (POST /api/v2/home/ping, GET /api/v2/home/watching). /home/community-lookups lives with
 * the wallet lookups.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { HOT_MARKETS, TOP_WHALES, WHALE_MOVES } from "../../../analytics/windows/home.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { SessionHeaders, presenceMember } from "../../presence-member.js";
import { CategoryRotation, HomePing, HotMarkets, TopWhales, Watching, WhaleMoves } from "./site-schemas.js";

const PRESENCE_SET = "home";

export const homeRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { boards } = ctx.config;
  const whaleMovesNow = ctx.warmUps.aggregate("home:whale-moves");
  const hotMarketsNow = ctx.warmUps.aggregate("home:hot-markets");
  const topWhalesNow = ctx.warmUps.aggregate("home:top-whales");
  const rotationNow = ctx.warmUps.aggregate("home:category-rotation");
  const read = { config: { access: access.public } } as const;

  app.get(
    "/api/v2/home/whale-moves",
    {
      ...read,
      schema: {
        summary: "Biggest recent smart-whale trades",
        description: `Top ${WHALE_MOVES} fills of Smart Money wallets over the last HOME_WHALE_MOVE_HOURS (6) with at least HOME_WHALE_MOVE_MIN_USD (50000), largest first. Cached 60 s.`,
        tags: ["home"],
        response: { 200: WhaleMoves },
      },
    },
    async () => ({
      moves: await whaleMovesNow(),
      hours: boards.whaleMoveHours,
      min_usd: boards.whaleMoveMinUsd,
    }),
  );

  app.get(
    "/api/v2/home/hot-markets",
    {
      ...read,
      schema: {
        summary: "Hottest active markets",
        description: `Top ${HOT_MARKETS} open markets by 24 h volume, with an hourly YES price sparkline. Cached 60 s.`,
        tags: ["home"],
        response: { 200: HotMarkets },
      },
    },
    async () => ({ markets: await hotMarketsNow() }),
  );

  app.get(
    "/api/v2/home/top-whales-7d",
    {
      ...read,
      schema: {
        summary: "Top smart whales of the week",
        description: `Top ${TOP_WHALES} Smart Money wallets (farmers never) by net realized P&L of the positions closed in the last HOME_TOP_WHALES_DAYS (7). Cached 5 min.`,
        tags: ["home"],
        response: { 200: TopWhales },
      },
    },
    async () => ({
      whales: await topWhalesNow(),
      days: boards.topWhalesDays,
    }),
  );

  app.get(
    "/api/v2/home/category-rotation",
    {
      ...read,
      schema: {
        summary: "Category volume rotation",
        description:
          "Per category (all six), market volume of the last 24 h against the 24 h before, largest gain first. Cached 5 min.",
        tags: ["home"],
        response: { 200: CategoryRotation },
      },
    },
    async () => ({ categories: await rotationNow() }),
  );

  app.post(
    "/api/v2/home/ping",
    {
      ...read,
      schema: {
        summary: "Register a homepage session",
        description:
          "Keeps the caller present for PRESENCE_HOME_SECONDS (30). The session is the X-Service-Session header, else the client IP (a header never counts as an IP).",
        tags: ["home"],
        headers: SessionHeaders,
        response: { 200: HomePing },
      },
    },
    async (request) => {
      const ttl = ctx.config.limits.homePresenceSeconds;
      await ctx.platform.presence.touch(PRESENCE_SET, presenceMember(request), ttl * 1000);
      return { ok: true as const, watching: await ctx.platform.presence.count(PRESENCE_SET), ttl_seconds: ttl };
    },
  );

  app.get(
    "/api/v2/home/watching",
    { ...read, schema: { summary: "Live homepage sessions", tags: ["home"], response: { 200: Watching } } },
    async () => ({ watching: await ctx.platform.presence.count(PRESENCE_SET) }),
  );
};
