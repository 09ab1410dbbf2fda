/**
 * Premium whale signals: whale flips and conviction clusters, under /api/v2 (X-API-Key) and /api/public/v1 (either
 * header). Flips are kept for the clock hour, clusters for 5 minutes, in the platform's cache (shared by every API
 * process when scaled).
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { whaleFlips } from "../../../analytics/whales/whale-flips.js";
import { WINDOW_AGGREGATES } from "../../../analytics/windows/window-aggregates.js";
import { computedPerClockWindow } from "../../../kept/clock-window.js";
import { mebibytes } from "../../../platform/bounded-map.js";
import { access, type Access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { ClockWindowBodies } from "../../../kept/clock-window-bodies.js";
import {
  ConvictionClustersBody,
  ConvictionClustersQuery,
  WhaleFlipsBody,
  WhaleFlipsQuery,
} from "./whale-alert-schemas.js";

const HOUR = 3_600;
const PUBLIC_FLIP_DAYS_MAX = 14;
const DEFAULT_FLIP_DAYS = 7;
const PUBLIC_DEFAULT_FLIP_DAYS = 1;
const CLUSTER_ANSWERS = 1_000;
const CLUSTER_ANSWERS_MB = 16;

export const whaleSignalRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { whales, derive } = ctx.config;
  const reads = ctx.whales;
  const flipRules = { minTeamUsd: whales.consensusMinUsd, minSwingUsd: whales.flipMinSwingUsd };
  const minWhalesMax = Math.max(100, whales.clusterMinWhales);
  // Flips (per days back, each kept for the clock hour) and clusters (every 5 minutes) are computed before the service
  // listens and at each window's boundary, for the days the two families default to: a first request waited 230-540 ms.
  const flipsFor = (back: number) =>
    computedPerClockWindow(ctx.platform, `whale-flips:${back}`, HOUR, () => whaleFlips(reads, back, flipRules));
  for (const back of new Set([DEFAULT_FLIP_DAYS, PUBLIC_DEFAULT_FLIP_DAYS]))
    ctx.warmUps.add(`whale flips (${back} days)`, () => flipsFor(back), HOUR);
  const allClusters = ctx.warmUps.aggregate("conviction-clusters");
  // Each (min_whales, limit)'s answer serialized once per 5-minute window, for both families (one body schema).
  const clusterAnswers = new ClockWindowBodies(ctx.keeping, WINDOW_AGGREGATES["conviction-clusters"].windowSeconds, {
    maxEntries: CLUSTER_ANSWERS,
    maxBytes: mebibytes(CLUSTER_ANSWERS_MB),
  });

  const flipsRoute = (url: string, preset: Access, tags: string[], days: { default: number; max: number }) =>
    app.get(
      url,
      {
        config: { access: preset },
        schema: {
          summary: "Whale flips (Premium)",
          description:
            "Smart whales (never farmers) whose net position in a market (YES cost − NO cost) stood on one team (at least CONSENSUS_MIN_USD) at the daily " +
            "position snapshot of comparison_date and stands on the other now, with old + new at least FLIP_MIN_SWING_USD (200000). comparison_date is the " +
            "latest snapshot at or before `days` before today (UTC), never today's. From an hourly precomputed cache: each answer is kept for the clock hour.",
          tags,
          querystring: WhaleFlipsQuery(days),
          response: { 200: WhaleFlipsBody },
        },
      },
      async (request) => {
        const { days: back, limit } = request.query;
        const answer = await flipsFor(back);
        return {
          ...answer,
          flips: answer.flips.slice(0, limit),
          count: Math.min(limit, answer.flips.length),
          total: answer.flips.length,
          min_swing_usd: whales.flipMinSwingUsd,
        };
      },
    );

  const clustersRoute = (url: string, preset: Access, tags: string[]) =>
    app.get(
      url,
      {
        config: { access: preset },
        schema: {
          summary: "Conviction clusters (Premium)",
          description:
            "Within one event, at least min_whales smart whales (never farmers) each standing on the same side (a net position of at least CONSENSUS_MIN_USD) " +
            "of at least CLUSTER_MIN_MARKETS (2) of its markets. Most whales first, then most capital. Cached 5 min.",
          tags,
          querystring: ConvictionClustersQuery(whales.clusterMinWhales, minWhalesMax),
          response: { 200: ConvictionClustersBody },
        },
      },
      async (request, reply) => {
        const { min_whales: minWhales, limit } = request.query;
        return clusterAnswers.send(reply, `${minWhales}|${limit}`, async () => {
          const all = await allClusters();
          const clusters = all.clusters.filter((c) => c.whale_count >= minWhales).slice(0, limit);
          return {
            clusters,
            count: clusters.length,
            min_whales: minWhales,
            min_markets: whales.clusterMinMarkets,
            as_of: all.as_of,
          };
        });
      },
    );

  flipsRoute("/api/v2/whale-flips", access.premiumXApiKey, ["whales"], {
    default: DEFAULT_FLIP_DAYS,
    max: derive.snapshotDays,
  });
  flipsRoute("/api/public/v1/whale-flips", access.premiumAnyHeader, ["whales", "public v1"], {
    default: PUBLIC_DEFAULT_FLIP_DAYS,
    max: PUBLIC_FLIP_DAYS_MAX,
  });
  clustersRoute("/api/v2/conviction-clusters", access.premiumXApiKey, ["whales"]);
  clustersRoute("/api/public/v1/conviction-clusters", access.premiumAnyHeader, ["whales", "public v1"]);
};
