/** /api/v2/markets/*: search, hot markets, category counts, resolved markets. Public reads over the market index. */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import {
  categoryStats,
  hotMarketsByWhaleTrades,
  hotWindowMinutes,
  resolvedMarkets,
} from "../../../analytics/markets/markets-lists.js";
import { searchMarkets, type SearchFilters } from "../../../analytics/markets/markets-search.js";
import { TtlBodies } from "../../../kept/ttl-bodies.js";
import { mebibytes } from "../../../platform/bounded-map.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { sendSerialized } from "../../../kept/send-serialized.js";
import { validationError } from "../../errors.js";
import { categoryFilter, dayBound } from "../../params.js";
import { indexOf } from "./market-schemas.js";
import {
  CategoryStats,
  CategoryQuery,
  HOT_CACHED_ROWS,
  HotMarkets,
  HotMarketsQuery,
  MarketSearchQuery,
  MarketSearchResults,
  ResolvedMarkets,
  ResolvedMarketsQuery,
} from "./market-list-schemas.js";

export const HOT_CACHE_MS = 60_000;
const CATEGORY_STATS_CACHE_MS = 10 * 60_000;
const RESOLVED_UNPREFIXED_MAX = 100;

const ELAPSED_FIELD = '"_elapsed_ms":';
const ELAPSED_LAST = `${ELAPSED_FIELD}0}`;

/** Resolved-market lists an API process keeps serialized (distinct queries, and MiB). */
const LIST_ANSWERS_KEPT = 1_000;
const LIST_ANSWERS_MB = 16;

export const marketsRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const clock = ctx.platform.clock;
  // The market index behind search, the market lists and the market pages, loaded before the service listens.
  ctx.warmUps.add("market index", () => indexOf(ctx));
  const searchAnswers = new TtlBodies(
    clock,
    ctx.config.markets.searchCacheSeconds,
    { maxEntries: ctx.config.markets.searchCachedAnswers, maxBytes: mebibytes(ctx.config.markets.searchCachedMb) },
    ctx.config.server.gzipMinBytes,
    () => ctx.readiness.ready,
    true,
  );

  const listAnswers = new TtlBodies(
    clock,
    ctx.config.markets.indexRefreshSeconds,
    { maxEntries: LIST_ANSWERS_KEPT, maxBytes: mebibytes(LIST_ANSWERS_MB) },
    ctx.config.server.gzipMinBytes,
    () => ctx.readiness.ready,
  );

  app.get(
    "/api/v2/markets/search",
    {
      config: { access: access.public },
      schema: {
        summary: "Search markets",
        description:
          "Free text (every word must appear in the question, slug or event), a venue URL (https://polymarket.com/event/<event>/<market>, /event/<event>, /market/<slug>), " +
          "a market or event slug, or a condition id. Free text searches open markets; a URL, slug or condition id also finds closed ones. " +
          "All filters are applied server-side; `total` counts every match. Order: volume_24h desc, volume desc, id.",
        tags: ["markets"],
        querystring: MarketSearchQuery,
        response: {
          200: MarketSearchResults,
        },
      },
    },
    async (request, reply) => {
      const started = performance.now();
      const q = request.query;
      const category = categoryFilter(q.category);
      if (q.price_min > q.price_max)
        throw validationError(["query", "price_min"], "price_min must not exceed price_max");
      if (q.min_days > q.max_days) throw validationError(["query", "min_days"], "min_days must not exceed max_days");
      const index = await indexOf(ctx);
      const filters: SearchFilters = {
        q: q.q,
        category,
        limit: q.limit as number,
        offset: q.offset,
        minVolume: q.min_volume,
        minWhales: q.min_whales,
        minDays: q.min_days,
        maxDays: q.max_days,
        priceMin: q.price_min,
        priceMax: q.price_max,
        windowHours: q.window_hours,
        createdWithinDays: q.created_within_days,
      };
      // A repeated query is answered from the body computed up to MARKET_SEARCH_CACHE_SECONDS earlier (from the index
      // load and the clock of then), which ends with `_elapsed_ms` (the schema's last field): this request's. Not keyed
      // by index load: a reload would expire every answer at once, and their recomputation would queue requests.
      const head = await searchAnswers.get(JSON.stringify(filters), async (now) => {
        const text = reply.serialize({
          ...searchMarkets(index, filters, now),
          limit: filters.limit,
          offset: filters.offset,
          _elapsed_ms: 0,
        }) as string;
        if (!text.endsWith(ELAPSED_LAST))
          throw new Error("markets/search: _elapsed_ms is no longer the last field of the answer");
        return text.slice(0, -ELAPSED_LAST.length);
      });
      const elapsed = Math.round((performance.now() - started) * 1000) / 1000;
      return sendSerialized(reply, head, `${ELAPSED_FIELD}${elapsed}}`);
    },
  );

  app.get(
    "/api/v2/markets/hot",
    {
      config: { access: access.public },
      schema: {
        summary: "Hot markets",
        description:
          `Markets ranked by the number of Smart Money fills in the last \`minutes\`, then by their USD. Cached ${HOT_CACHE_MS / 1000} s. ` +
          "The window is rounded up to 5 minutes within the hour, to whole hours within the day, and to 6 hours beyond; `minutes` in the answer is the window used.",
        tags: ["markets"],
        querystring: HotMarketsQuery,
        response: {
          200: HotMarkets,
        },
      },
    },
    async (request, reply) => {
      const minutes = hotWindowMinutes(request.query.minutes);
      const limit = request.query.limit as number;
      // Kept serialized per window and limit until the shared copy it is cut from is HOT_CACHE_MS old.
      const body = await listAnswers.get(`hot|${minutes}|${limit}`, async () => {
        const { value } = await ctx.platform.cache.getOrLoad(`markets:hot:${minutes}`, HOT_CACHE_MS, async () => {
          const now = clock.now();
          return {
            markets: await hotMarketsByWhaleTrades(ctx.store, await indexOf(ctx), now, minutes, HOT_CACHED_ROWS),
            as_of: now,
          };
        });
        const markets = value.markets.slice(0, limit);
        const text = reply.serialize({ markets, minutes, count: markets.length, as_of: value.as_of }) as string;
        return { text, until: value.as_of + HOT_CACHE_MS / 1000 };
      });
      return sendSerialized(reply, body);
    },
  );

  app.get(
    "/api/v2/markets/category-stats",
    {
      config: { access: access.public },
      schema: {
        summary: "Market counts of a category",
        description:
          "active_quality: open markets before their end date with volume of at least MARKET_QUALITY_MIN_VOLUME and a YES price within " +
          "MARKET_QUALITY_PRICE_MIN..MARKET_QUALITY_PRICE_MAX; all_open: markets not closed; all_time: every stored market. Cached 10 min.",
        tags: ["markets"],
        querystring: CategoryQuery,
        response: {
          200: CategoryStats,
        },
      },
    },
    async (request) => {
      const category = categoryFilter(request.query.category);
      const m = ctx.config.markets;
      const { value } = await ctx.platform.cache.getOrLoad(
        `markets:category-stats:${category ?? "ALL"}`,
        CATEGORY_STATS_CACHE_MS,
        async () =>
          categoryStats(await indexOf(ctx), category, clock.now(), {
            minVolume: m.qualityMinVolume,
            priceMin: m.qualityPriceMin,
            priceMax: m.qualityPriceMax,
          }),
      );
      return value;
    },
  );

  app.get(
    "/api/v2/markets/resolved",
    {
      config: { access: access.public },
      schema: {
        summary: "Resolved markets",
        description:
          "With slug_prefix: every resolved market whose slug starts with it, optionally with an end date within end_from..end_to (UTC days, inclusive), " +
          "newest end date first, limit up to 500. Without: markets resolved in the last `days`, newest resolution first, limit up to 100 (422 above). " +
          "Outcomes YES and NO only, unless include_pending=1 also lists closed markets awaiting resolution (PENDING) and 50-50 resolutions.",
        tags: ["markets"],
        querystring: ResolvedMarketsQuery,
        response: {
          200: ResolvedMarkets,
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const limit = q.limit as number;
      if (!q.slug_prefix && limit > RESOLVED_UNPREFIXED_MAX) {
        throw validationError(
          ["query", "limit"],
          `Input should be less than or equal to ${RESOLVED_UNPREFIXED_MAX} without slug_prefix`,
          "less_than_equal",
        );
      }
      const endFrom = dayBound("end_from", q.end_from, false);
      const endTo = dayBound("end_to", q.end_to, true);
      if (endFrom !== null && endTo !== null && endFrom > endTo)
        throw validationError(["query", "end_from"], "end_from must not be after end_to");
      const index = await indexOf(ctx);
      const filters = {
        days: q.days,
        limit,
        offset: q.offset,
        slugPrefix: q.slug_prefix,
        endFrom,
        endTo,
        includePending: q.include_pending,
      };
      // Kept per query and copy of the index (its tables' fingerprint), until the clock moves its window.
      const key = [index.fingerprint, ...Object.values(filters)].join("|");
      const body = await listAnswers.get(key, async (now) => {
        const { until, ...result } = resolvedMarkets(index, filters, now);
        const answer = {
          ...result,
          count: result.markets.length,
          limit,
          offset: q.offset,
          has_more: q.offset + result.markets.length < result.total,
        };
        return { text: reply.serialize(answer) as string, until };
      });
      return sendSerialized(reply, body);
    },
  );
};
