/**
 * Home page: whale moves, hot markets, top whales of the week, category rotation (cached 60 s or 5 min), and
 * the homepage presence (POST /api/v2/home/ping, GET /api/v2/home/watching). /home/community-lookups lives with
 * the wallet lookups.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Nullable } from "../../nullable.js";
import { HOT_MARKETS, TOP_WHALES, WHALE_MOVES } from "../../../analytics/windows/home.js";
import { CATEGORIES } from "../../../venue/categories.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { SessionHeaders, presenceMember } from "../../presence-member.js";

const PRESENCE_SET = "home";

const Category = Type.Enum(CATEGORIES);

const WhaleMove = Type.Object({
  wallet: Type.String(),
  name: Nullable(Type.String()),
  market_id: Nullable(Type.String()),
  condition_id: Type.String(),
  question: Nullable(Type.String()),
  category: Nullable(Category),
  outcome: Type.Enum(["YES", "NO"], { description: "the token traded" }),
  side: Type.Enum(["BUY", "SELL"], { description: "direction from the whale's point of view" }),
  price: Type.Number({ description: "price of the token traded, 0..1" }),
  usd: Type.Number({ description: "USD notional of the fill" }),
  ts: Type.Integer(),
  tx_hash: Type.String(),
  entry_type: Nullable(
    Type.Enum(["MINT", "MERGE", "COMPLEMENTARY"]),
    "settlement of the match; null when unclassified",
  ),
});

const HotMarket = Type.Object({
  market_id: Type.String(),
  condition_id: Type.String(),
  question: Type.String(),
  slug: Type.String(),
  category: Nullable(Category),
  price_yes: Nullable(Type.Number()),
  volume_24h: Type.Number({ description: "USD traded over the last 24 h (one side per match)" }),
  whales_yes: Type.Integer(),
  whales_no: Type.Integer(),
  sparkline: Type.Array(Type.Number(), {
    description: "YES price at the end of each of the last 24 hours, oldest first (last fill, carried forward)",
  }),
});

const TopWhale = Type.Object({
  wallet: Type.String(),
  name: Nullable(Type.String()),
  realized_pnl_7d: Type.Number({
    description: "net realized P&L (after fees), USD, of the positions closed in the last 7 days",
  }),
  closed_positions_7d: Type.Integer(),
  total_pnl: Type.Number(),
  win_rate: Type.Number(),
  profit_factor: Type.Number(),
});

const Rotation = Type.Object({
  category: Category,
  volume_24h: Type.Number({ description: "USD over the last 24 h" }),
  volume_prev_24h: Type.Number({ description: "USD over the 24 h before" }),
  delta_usd: Type.Number(),
  delta_pct: Nullable(Type.Number(), "percent change; null when the previous 24 h had none"),
  share_pct: Type.Number({ description: "share of the last 24 h's categorised volume, percent" }),
});

const Watching = Type.Object({ watching: Type.Integer({ description: "live homepage sessions" }) });

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
        response: { 200: Type.Object({ moves: Type.Array(WhaleMove), hours: Type.Integer(), min_usd: Type.Number() }) },
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
        response: { 200: Type.Object({ markets: Type.Array(HotMarket) }) },
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
        response: { 200: Type.Object({ whales: Type.Array(TopWhale), days: Type.Integer() }) },
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
        response: { 200: Type.Object({ categories: Type.Array(Rotation) }) },
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
        response: {
          200: Type.Object({ ok: Type.Literal(true), watching: Type.Integer(), ttl_seconds: Type.Integer() }),
        },
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
