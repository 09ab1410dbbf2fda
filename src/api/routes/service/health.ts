/** GET /api/v1/health: liveness, store and platform kinds, per-source ingest lag, and readiness. */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { readReadiness, readWaitingWork, type StoreReadiness } from "../../../analytics/reads/readiness.js";
import { VERSION } from "../../../package.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { isLocalRequest } from "../../gate.js";
import { WALLET_SYNC_SOURCE } from "../../../store/checkpoints.js";
import { type ERROR_CLASSES, Health } from "./service-schemas.js";

type ErrorClass = (typeof ERROR_CLASSES)[number];

/** The kind of an ingest error, from the text the pipelines record (the text itself stays in the log). */
export function errorClass(message: string): ErrorClass {
  if (/ENOTFOUND|EAI_AGAIN/.test(message)) return "dns";
  if (/ECONNREFUSED/.test(message)) return "refused";
  if (/timed? ?out|timeout|ETIMEDOUT|aborted/i.test(message)) return "timeout";
  if (/unavailable after/.test(message)) return "venue_unavailable";
  if (/HTTP 5\d\d/.test(message)) return "venue_http_5xx";
  if (/HTTP 4\d\d/.test(message)) return "venue_http_4xx";
  if (/unexpected payload shape/.test(message)) return "venue_shape";
  if (/JSON-RPC error/.test(message)) return "rpc_error";
  if (/ECONN|ENOTFOUND|EAI_AGAIN|EPIPE|fetch failed|socket|network/i.test(message)) return "network";
  if (/SQLITE|database|relation|constraint|deadlock|connection terminated|too many clients/i.test(message))
    return "store";
  if (/ row \d+|record|malformed|invalid|expected/i.test(message)) return "malformed_record";
  return "other";
}

/** What to do about an error of each kind that is the operator's to fix; null where retrying is all there is. */
const HINTS: Partial<Record<ErrorClass, string>> = {
  dns: "The venue's host name does not resolve from this machine: no network, or a wrong VENUE_*_URL. Offline, `npm run demo` serves a simulated venue.",
  refused:
    "Nothing listens at the venue's address: a wrong VENUE_*_URL, or the (simulated) venue is not running. Offline, `npm run demo` serves a simulated venue.",
  timeout: "The venue did not answer in time: a slow or filtered network, or VENUE_TIMEOUT_MS too short.",
  network:
    "The connection to the venue failed: check this machine's network. Offline, `npm run demo` serves a simulated venue.",
  venue_http_4xx: "The venue refused the request: a wrong VENUE_*_URL, or an API the venue changed.",
  store: "The store failed: check DATA_DIR's disk, or the PostgreSQL server (DATABASE_URL).",
};

/** The hint for the last error of a source, by its kind. */
export function errorHint(message: string): string | null {
  return HINTS[errorClass(message)] ?? null;
}

export const healthRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.get(
    "/api/v1/health",
    {
      config: { access: access.public },
      schema: {
        summary: "Health check",
        tags: ["health"],
        response: { 200: Health, 503: Health },
      },
    },
    async (request, reply) => {
      const local = isLocalRequest(request);
      const now = ctx.platform.clock.now();
      const base = {
        version: VERSION,
        store: ctx.store.kind,
        platform: ctx.platform.kind,
        role: ctx.config.server.role,
        uptime_seconds: Math.max(0, now - ctx.startedAt),
      };
      let reading: StoreReadiness;
      let waiting: Readonly<Record<string, number>>;
      try {
        await Promise.all([ctx.store.ping(), ctx.platform.ping()]);
        reading = await readReadiness(ctx.store, ctx.expectedSources);
        waiting = await readWaitingWork(ctx.store);
      } catch {
        return reply.code(503).send({ ...base, status: "unavailable", ready: false, sources: [] });
      }
      // What this answer says, the process's caches act on before any later request.
      ctx.readiness.observe(reading.ready);
      const { checkpoints, ready } = reading;
      const byName = new Map(checkpoints.map((c) => [c.source, c]));
      // Wherever an ingest runs, it syncs wallets too: that source is listed before its first sync.
      const ingestSources = ctx.expectedSources.length > 0 ? [...ctx.expectedSources, WALLET_SYNC_SOURCE] : [];
      const names = [...new Set([...ingestSources, ...byName.keys()])].sort();
      const sources = names.map((source) => {
        const c = byName.get(source);
        const done = c?.first_sync_done === 1;
        return {
          source,
          status: !c ? ("waiting" as const) : done ? ("following" as const) : ("syncing" as const),
          first_sync_done: done,
          lag_seconds: c && c.cursor !== "" ? Math.max(0, now - c.updated_at) : null,
          errors: c?.errors ?? 0,
          waiting: waiting[source] ?? 0,
          last_error_class: c?.last_error ? errorClass(c.last_error) : null,
          last_error_hint: c?.last_error ? errorHint(c.last_error) : null,
          last_error: local ? (c?.last_error ?? null) : null,
        };
      });
      return { ...base, status: "ok" as const, ready, sources };
    },
  );
};
