/** Free aggregate analytics: /api/analytics/{smart-money-flow, whale-clusters, top-movers, whale-volume-24h}. */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { CLUSTERS_MAX, WINDOW_AGGREGATES } from "../../../analytics/windows/window-aggregates.js";
import { mebibytes } from "../../../platform/bounded-map.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { ClockWindowBodies } from "../../../kept/clock-window-bodies.js";
import {
  WhaleClusters,
  WhaleClustersQuery,
  SmartMoneyFlow,
  TopMovers,
  TopMoversQuery,
  WhaleVolume24h,
} from "./analytics-schemas.js";

/** The whale clusters' answers kept serialized: one per `limit` of the current window, at most. */
const CLUSTER_ANSWERS_MB = 16;

export const analyticsRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const read = { config: { access: access.public } } as const;
  const { boards } = ctx.config;
  const flow = ctx.warmUps.aggregate("analytics:flow");
  const movers = ctx.warmUps.aggregate("analytics:movers");
  const volume24h = ctx.warmUps.aggregate("analytics:volume-24h");
  // Every smart whale's open positions grouped once per window (computed before the service listens and at each
  // window's boundary), and each `limit`'s answer serialized once per window: a request sends kept bytes.
  const clusters = ctx.warmUps.aggregate("analytics:clusters");
  const clusterAnswers = new ClockWindowBodies(ctx.keeping, WINDOW_AGGREGATES["analytics:clusters"].windowSeconds, {
    maxEntries: CLUSTERS_MAX,
    maxBytes: mebibytes(CLUSTER_ANSWERS_MB),
  });

  app.get(
    "/api/analytics/smart-money-flow",
    {
      ...read,
      schema: {
        summary: "Smart-money flow by category",
        description:
          "Per category (all six), smart-whale volume of the last 24 h against the 24 h before; largest volume first. Cached 5 min.",
        tags: ["analytics"],
        response: { 200: SmartMoneyFlow },
      },
    },
    async () => ({ flow: await flow() }),
  );

  app.get(
    "/api/analytics/whale-clusters",
    {
      ...read,
      schema: {
        summary: "Markets where whales stand together",
        description:
          "Markets where at least CLUSTER_MIN_WHALES (3) smart whales hold a net open position of at least CONSENSUS_MIN_USD (100) on the same side; " +
          "most whales first, then largest combined_usd. Cached 5 min.",
        tags: ["analytics"],
        querystring: WhaleClustersQuery,
        response: { 200: WhaleClusters },
      },
    },
    async (request, reply) => {
      const { limit } = request.query;
      return clusterAnswers.send(reply, `${limit}`, async () => ({ clusters: (await clusters()).slice(0, limit) }));
    },
  );

  app.get(
    "/api/analytics/top-movers",
    {
      ...read,
      schema: {
        summary: "Biggest P&L gains",
        description:
          "Wallets (never farmers) with the largest rise of their ledger P&L over the last TOP_MOVERS_DAYS (7), from the daily P&L points. Cached 5 min.",
        tags: ["analytics"],
        querystring: TopMoversQuery,
        response: { 200: TopMovers },
      },
    },
    async (request) => {
      const all = await movers();
      return { winners: all.slice(0, request.query.limit), days: boards.topMoversDays };
    },
  );

  app.get(
    "/api/analytics/whale-volume-24h",
    {
      ...read,
      schema: {
        summary: "Hourly smart-whale volume, YES and NO",
        description: "24 items, oldest first: the clock hours ending with the current (partial) one. Cached 60 s.",
        tags: ["analytics"],
        response: { 200: WhaleVolume24h },
      },
    },
    async () => ({ series: await volume24h() }),
  );
};
