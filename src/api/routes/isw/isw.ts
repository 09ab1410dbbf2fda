/**
 * The territory monitor's reads: status (cached ISW_STATUS_CACHE_SECONDS, the last good answer served while the
 * store fails), counts by threat level, and events, under /api/v2/isw and /api/public/v1/isw (free), and their
 * Premium mirrors under .../isw/premium (same payloads; Bearer on /api/v2, either header on /api/public/v1).
 * What they read is what the probe of the ingesting process stored (src/isw/).
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { layerShapes } from "../../../isw/layer-shapes.js";
import { listEvents, summaryOf, territoryStatus, type TerritoryStatus } from "../../../isw/read-model.js";
import type { ThreatLevel } from "../../../isw/threat.js";
import { MemoryCacheBackend, TtlCache } from "../../../platform/cache.js";
import { access, type Access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { EventsBody, EventsQuery, LayersBody, StatusBody, StatusSummaryBody } from "./isw-schemas.js";

interface Family {
  readonly prefix: string;
  readonly access: Access;
  readonly note: string;
}

const FAMILIES: readonly Family[] = [
  { prefix: "/api/v2/isw", access: access.public, note: "" },
  {
    prefix: "/api/public/v1/isw",
    access: access.public,
    note: " The key-oriented twin of /api/v2/isw (free; a key, when sent, draws from its budget).",
  },
  {
    prefix: "/api/v2/isw/premium",
    access: access.premiumBearer,
    note: " Premium mirror of /api/v2/isw, same payload; Authorization: Bearer.",
  },
  {
    prefix: "/api/public/v1/isw/premium",
    access: access.premiumAnyHeader,
    note: " Premium mirror of /api/v2/isw, same payload; Bearer or X-API-Key.",
  },
];

export const iswRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const clock = ctx.platform.clock;
  // A cache of this process's own: the status does not wait for the whale data's readiness, as the shared cache does.
  const cache = new TtlCache(
    new MemoryCacheBackend(clock, { maxEntries: 4, maxBytes: 64 << 20 }),
    clock,
    ctx.config.platform.cacheStaleSeconds * 1000,
  );
  const status = async (): Promise<TerritoryStatus & { stale: boolean }> => {
    const { value, stale } = await cache.getOrLoad("isw:status", ctx.config.isw.statusCacheSeconds * 1000, () =>
      territoryStatus(ctx.store, clock.now()),
    );
    return { ...value, stale };
  };

  for (const family of FAMILIES) {
    app.route({
      method: family.prefix === "/api/v2/isw" ? ["GET", "HEAD"] : "GET",
      url: `${family.prefix}/status`,
      config: { access: family.access },
      schema: {
        summary: "Territory monitor status",
        description:
          "Every monitored city with its subscriptions: threat level, coverage or point shading, closest distance, and the venue market " +
          `its slug pattern links to. Cached ${ctx.config.isw.statusCacheSeconds} s; while the store fails, the last good answer (stale: true).${family.note}`,
        tags: ["territory"],
        response: { 200: StatusBody },
      },
      handler: status,
    });

    app.get(
      `${family.prefix}/events`,
      {
        config: { access: family.access },
        schema: {
          summary: "Territory events",
          description: `Events of the last \`hours\`, newest first; min_severity keeps those at or above it.${family.note}`,
          tags: ["territory"],
          querystring: EventsQuery,
          response: { 200: EventsBody },
        },
      },
      async (request) => {
        const q = request.query;
        return listEvents(
          ctx.store,
          {
            hours: q.hours as number,
            city: q.city as string,
            limit: q.limit as number,
            subscriptionId: q.subscription_id as number,
            checkType: q.check_type,
            minSeverity: q.min_severity as ThreatLevel | undefined,
          },
          clock.now(),
        );
      },
    );
  }

  app.get(
    "/api/v2/isw/status-summary",
    {
      config: { access: access.public },
      schema: {
        summary: "Territory counts by threat level",
        description:
          "The status's summary, and each city counted once at its worst level (from the same cached status).",
        tags: ["territory"],
        response: { 200: StatusSummaryBody },
      },
    },
    async () => {
      const current = await status();
      return { ...summaryOf(current), stale: current.stale };
    },
  );

  app.get(
    "/api/v2/isw/layers",
    {
      config: { access: access.public },
      schema: {
        summary: "The shaded layers, for drawing",
        description:
          "Each layer's newest stored version (the shading the status measured), cut to the watched cities' box and coarsened " +
          `to a grid, as GeoJSON polygon coordinates: for a map, not for measuring. Cached ${ctx.config.isw.statusCacheSeconds} s.`,
        tags: ["territory"],
        response: { 200: LayersBody },
      },
    },
    async () =>
      (await cache.getOrLoad("isw:layers", ctx.config.isw.statusCacheSeconds * 1000, () => layerShapes(ctx.store)))
        .value,
  );
};
