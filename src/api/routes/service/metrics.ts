/**
 * GET /metrics: this process's Prometheus metrics (src/platform/metrics.ts), local-only unless METRICS=open.
 * Registered on the API and on the ingest role's health server alike; the latter has no gate, so the route
 * checks the local host itself too.
 */
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import type { Config } from "../../../config/index.js";
import { metrics, type ThreadMetrics } from "../../../platform/metrics.js";
import { access } from "../../access.js";
import { HttpError } from "../../errors.js";
import { isLocalRequest } from "../../gate.js";

export interface MetricsRouteOptions {
  readonly config: Config;
  /** The families of the process's other threads (the ingest thread of role all), added in. */
  readonly otherThreadMetrics?: () => Promise<readonly ThreadMetrics[]>;
}

export const metricsRoutes: FastifyPluginAsync<MetricsRouteOptions> = async (app, { config, otherThreadMetrics }) => {
  const exposure = config.server.metrics;
  app.get(
    "/metrics",
    { config: { access: exposure === "open" ? access.public : access.localOnly }, schema: { hide: true } },
    async (request, reply) => {
      if (exposure === "off" || (exposure === "local" && !isLocalRequest(request)))
        throw new HttpError(404, "Not Found");
      const { contentType, body } = await metrics.text(await (otherThreadMetrics?.() ?? []));
      return reply.type(contentType).send(body);
    },
  );
};

/** Counts every answer by its route pattern (`/api/v2/wallet/:address`, never the raw URL) and status. */
export function recordRequestMetrics(app: FastifyInstance): void {
  // A callback hook: an async one costs a promise and a turn of the microtask queue on every answer.
  app.addHook("onResponse", (request, reply, done) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? "unmatched",
      reply.statusCode,
      reply.elapsedTime,
    );
    done();
  });
}
