/**
 * Premium whale alerts (X-API-Key): /api/v2/whale-alerts, its summary, big positions and their summary, and
 * /api/v2/whales/recent-trades. Read from the per-process copies of the smart whales' recent fills and open
 * positions (src/analytics/whales/whale-reads.ts).
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { bigPositions, bigPositionsSummary } from "../../../analytics/whales/big-positions.js";
import { findMarket } from "../../../analytics/markets/market-detail.js";
import { recentWhaleTrades, whaleAlertsSummary } from "../../../analytics/whales/whale-alert-summary.js";
import {
  sourceStamp,
  storeFeed,
  walletSet,
  whaleAlerts,
  type AlertSource,
} from "../../../analytics/whales/whale-alerts.js";
import { computedPerClockWindow } from "../../../kept/clock-window.js";
import { mebibytes } from "../../../platform/bounded-map.js";
import { access } from "../../access.js";
import { TtlBodies } from "../../../kept/ttl-bodies.js";
import type { AppContext } from "../../context.js";
import { HttpError, validationError } from "../../errors.js";
import { ADDRESS_PATTERN, categoryFilter } from "../../params.js";
import { sendSerialized } from "../../../kept/send-serialized.js";
import {
  ALERT_WALLETS_MAX,
  BigPositionsBody,
  BigPositionsQuery,
  BigPositionsSummaryBody,
  RECENT_TRADES_MAX,
  RecentTradesQuery,
  RecentWhaleTradesBody,
  WhaleAlertsBody,
  WhaleAlertsQuery,
  WhaleAlertsSummaryBody,
  WhaleAlertsSummaryQuery,
} from "./whale-alert-schemas.js";
import { CategoryQuery } from "../markets/market-list-schemas.js";

const ADDRESS = new RegExp(ADDRESS_PATTERN);
const MINUTE = 60;
/** Distinct whale-alert queries an API process keeps answers of, within one clock second. */
const ALERT_ANSWERS_KEPT = 10_000;

/** The `wallets` list: comma-separated addresses (blank items ignored), at most 50; a 422 otherwise. */
function checkWallets(wallets: string): void {
  const items = wallets
    .split(",")
    .map((w) => w.trim())
    .filter((w) => w !== "");
  if (items.length > ALERT_WALLETS_MAX)
    throw validationError(["query", "wallets"], `At most ${ALERT_WALLETS_MAX} wallets`, "too_long");
  const bad = items.find((w) => !ADDRESS.test(w));
  if (bad !== undefined)
    throw validationError(
      ["query", "wallets"],
      `Not a wallet address (0x followed by 40 hex digits): ${bad.slice(0, 60)}`,
      "string_pattern_mismatch",
    );
}

export const whaleAlertRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const premium = { config: { access: access.premiumXApiKey } } as const;
  const { whales } = ctx.config;
  const reads = ctx.whales;
  ctx.readiness.onReady(() => reads.forget());
  // The copies of the last 48 h of smart-whale fills and of their open positions, loaded before the service listens
  // (a first request waited 130-280 ms for them); they refresh themselves from then on.
  ctx.warmUps.add("smart-whale fills (48 h)", () => reads.fills.current());
  ctx.warmUps.add("smart-whale holdings", () => reads.holdings.current());
  // An answer depends on the query, the feed (the smart copy's as_of, or the store's stamp: its last fill and
  // statistics generation, in the key) and the clock, which moves the window: kept until the window's start passes
  // the oldest fill it read (whaleAlerts says when), it is what computing it again would give.
  const answers = new TtlBodies(
    ctx.platform.clock,
    ctx.config.whaleReads.alertsKeptSeconds,
    { maxEntries: ALERT_ANSWERS_KEPT, maxBytes: mebibytes(ctx.config.whaleReads.alertsCachedMb) },
    ctx.config.server.gzipMinBytes,
    () => ctx.readiness.ready,
  );

  // Big positions and their totals are the holdings copy (read again every WHALE_HOLDINGS_REFRESH_SECONDS) priced
  // by the market index: kept serialized under both, the copy's as_of and the index's fingerprint in the key.
  const sendBig = async (reply: FastifyReply, query: string, compute: () => Promise<unknown>) => {
    const [view, index] = await Promise.all([reads.holdings.current(), reads.markets()]);
    const key = `${query}|${view.asOf}|${index.fingerprint}`;
    return sendSerialized(reply, await answers.get(key, async () => reply.serialize(await compute()) as string));
  };

  app.get(
    "/api/v2/whale-alerts",
    {
      ...premium,
      schema: {
        summary: "Recent smart-whale trades (Premium)",
        description:
          "Fills of smart whales (Smart Money, never farmers; every wallet with smart_only=false) with ts in (now − minutes, now], " +
          "after after_ts and before before_ts when given, newest first. Both sides of a match are fills: a match between two whales is two alerts. " +
          "Page with before_ts = next_before_ts. Smart whales' fills come from a copy of the last 48 h brought up to date every WHALE_ALERTS_REFRESH_SECONDS (2).",
        tags: ["whales"],
        querystring: WhaleAlertsQuery,
        response: { 200: WhaleAlertsBody, 404: { $ref: "ErrorBody#" } },
      },
    },
    async (request, reply) => {
      const q = request.query;
      if (q.before_ts > 0 && q.after_ts > 0 && q.after_ts >= q.before_ts)
        throw validationError(["query", "after_ts"], "after_ts must be below before_ts");
      checkWallets(q.wallets);
      const category = categoryFilter(q.category);
      let conditionId: string | null = null;
      if (q.market_id.trim() !== "") {
        const market = findMarket(await reads.markets(), q.market_id.trim());
        if (!market) throw new HttpError(404, `Market ${q.market_id.trim().slice(0, 100)} not found`);
        conditionId = market.condition_id;
      }
      const wallets = walletSet(q.wallet, q.wallets);
      // Smart whales' fills from the copy (its as_of in the key), every wallet's from the store (its stamp in the key).
      const source: AlertSource = q.smart_only
        ? { view: await reads.fills.current() }
        : { store: await storeFeed(reads.store) };
      const query = {
        minutes: q.minutes,
        wallets,
        conditionId,
        category,
        minUsd: q.min_usd,
        smartOnly: q.smart_only,
        beforeTs: q.before_ts,
        afterTs: q.after_ts,
        limit: q.limit,
      };
      const key = [
        q.minutes,
        [...(wallets ?? [])].sort().join(","),
        conditionId,
        category,
        q.min_usd,
        q.smart_only,
        q.before_ts,
        q.after_ts,
        q.limit,
        sourceStamp(source),
      ].join("|");
      const body = await answers.get(key, async (now) => {
        const { answer, until } = await whaleAlerts(reads, query, now, source);
        return { text: reply.serialize(answer) as string, until };
      });
      return sendSerialized(reply, body);
    },
  );

  app.get(
    "/api/v2/whale-alerts/summary",
    {
      ...premium,
      schema: {
        summary: "Whale alerts summary (Premium)",
        description:
          "Smart-whale fills of at least WHALE_ALERT_SUMMARY_MIN_USD (1000) in the last `minutes` against the `minutes` before: both windows lie in " +
          "the rolling 48 h before now. Count with percent delta, volume, the biggest single trade, the most active whale.",
        tags: ["whales"],
        querystring: WhaleAlertsSummaryQuery,
        response: { 200: WhaleAlertsSummaryBody },
      },
    },
    async (request, reply) => {
      const { minutes } = request.query;
      // Both windows end at the clock: an answer serves its second, of the copy it read (its as_of in the key).
      const key = `summary|${minutes}|${sourceStamp({ view: await reads.fills.current() })}`;
      const body = await answers.get(key, async (now) => ({
        text: reply.serialize(await whaleAlertsSummary(reads, minutes, whales.alertSummaryMinUsd)) as string,
        until: now + 1,
      }));
      return sendSerialized(reply, body);
    },
  );

  app.get(
    "/api/v2/whale-alerts/big-positions",
    {
      ...premium,
      schema: {
        summary: "Big whale positions (Premium)",
        description:
          "Smart whales' open positions (the ledger's, now) with a cost basis of at least min_usd, one row per wallet and market: the side with the larger " +
          "cost basis. Largest first; priced at the market's current price. Positions are read again every WHALE_HOLDINGS_REFRESH_SECONDS (60).",
        tags: ["whales"],
        querystring: BigPositionsQuery(whales.bigPositionMinUsd),
        response: { 200: BigPositionsBody },
      },
    },
    async (request, reply) => {
      const q = request.query;
      return sendBig(reply, `big|${q.category}|${q.min_usd}|${q.limit}`, () =>
        bigPositions(reads, { minUsd: q.min_usd, category: categoryFilter(q.category), limit: q.limit }),
      );
    },
  );

  app.get(
    "/api/v2/whale-alerts/big-positions/summary",
    {
      ...premium,
      schema: {
        summary: "Big whale positions, totals (Premium)",
        description:
          "Over the big positions of at least BIG_POSITION_MIN_USD (500000): their count, held value, the largest, and the whale holding the most.",
        tags: ["whales"],
        querystring: CategoryQuery,
        response: { 200: BigPositionsSummaryBody },
      },
    },
    async (request, reply) =>
      sendBig(reply, `big-summary|${request.query.category}`, () =>
        bigPositionsSummary(reads, whales.bigPositionMinUsd, categoryFilter(request.query.category)),
      ),
  );

  app.get(
    "/api/v2/whales/recent-trades",
    {
      ...premium,
      schema: {
        summary: "Recent smart-whale trades, as a list (Premium)",
        description:
          "The newest smart-whale fills of the last `hours` of at least min_size_usd, newest first: a plain JSON list. Cached 60 s.",
        tags: ["whales"],
        querystring: RecentTradesQuery,
        response: { 200: RecentWhaleTradesBody },
      },
    },
    async (request) => {
      const q = request.query;
      const category = categoryFilter(q.category);
      const trades = await computedPerClockWindow(
        ctx.platform,
        `whales:recent-trades:${q.hours}:${q.min_size_usd}:${category ?? ""}`,
        MINUTE,
        () =>
          recentWhaleTrades(reads, { hours: q.hours, minSizeUsd: q.min_size_usd, category, limit: RECENT_TRADES_MAX }),
      );
      return trades.slice(0, q.limit);
    },
  );
};
