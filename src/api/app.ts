/**
 * Builds the Fastify application: shared conventions registered once, then one plugin per path family.
 * Route schemas are TypeBox, so they validate requests, serialize responses and become the OpenAPI document.
 */
import swagger from "@fastify/swagger";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import { forgetMarketIndex } from "../analytics/markets/market-index.js";
import type { Config } from "../config/index.js";
import type { ProxyTrust } from "../config/settings.js";
import type { Logger } from "../platform/logger.js";
import { VERSION } from "../package.js";
import { appContext, type AppInput } from "./context.js";
import { registerEtags } from "./etag.js";
import { registerSyncHeader } from "./sync-header.js";
import { processSerializers, processValidators, roundingSerializers } from "./compiled-schemas.js";
import { ErrorBody, ValidationErrorBody, registerErrorHandling } from "./errors.js";
import { ContractAddressBody } from "./params.js";
import { applyQueryConventions } from "./query-conventions.js";
import { registerWireErrors, wireErrorOptions } from "./wire-errors.js";
import { SECURITY_SCHEMES, registerGate } from "./gate.js";
import { healthRoutes } from "./routes/service/health.js";
import { metricsRoutes, recordRequestMetrics } from "./routes/service/metrics.js";
import { keyRoutes } from "./routes/service/key.js";
import { marketDetailRoutes } from "./routes/markets/market-detail.js";
import { marketsRoutes } from "./routes/markets/markets.js";
import { publicMarketRoutes } from "./routes/markets/public-market.js";
import { markDefaultedParametersOptional, openapiRoutes } from "./routes/service/openapi.js";
import { walletCoreRoutes } from "./routes/wallet/wallet.js";
import { walletHistoryRoutes } from "./routes/wallet-history/wallet-history.js";
import { walletInsightRoutes } from "./routes/wallet-insights/wallet-insights.js";
import { fundingRoutes } from "./routes/informed/funding.js";
import { aheadOfNewsRoutes } from "./routes/informed/ahead-of-news.js";
import { insiderRoutes } from "./routes/informed/insiders.js";
import { scorecardRoutes } from "./routes/informed/scorecard.js";
import { walletSearchRoutes } from "./routes/wallet/wallet-search.js";
import { analyticsRoutes } from "./routes/analytics/analytics.js";
import { homeRoutes } from "./routes/site/home.js";
import { leaderboardRoutes } from "./routes/leaderboards/leaderboards.js";
import { liveRoutes } from "./routes/live/live.js";
import { siteRoutes } from "./routes/site/site.js";
import { aiAnalysisRoutes } from "./routes/ai/ai-analysis.js";
import { iswRoutes } from "./routes/isw/isw.js";
import { iswWebhookRoutes } from "./routes/isw/isw-webhooks.js";
import { alertRoutes } from "./routes/alerts/alerts.js";
import { drilldownRoutes } from "./routes/drilldowns/drilldowns.js";
import { whaleAlertRoutes } from "./routes/whales/whale-alerts.js";
import { whaleSignalRoutes } from "./routes/whales/whale-signals.js";
import { webRoutes } from "./routes/service/web.js";
import { mcpRoutes } from "./routes/mcp/mcp.js";

/**
 * Fastify's request log lines, as Pelagic writes them: nothing on arrival, and one access line per answered
 * request (method, url, status, ms) at debug, at warn when slower than `slowMs`, at error when the reply failed.
 * Fastify's default (two info lines per request) costs more CPU than a cached answer itself.
 */
class AccessLog extends LogController {
  constructor(private readonly slowMs: number) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const ms = reply.elapsedTime;
    // At the usual levels nothing is written for a quick answer: the line is built only when it will be.
    if (!error && ms <= this.slowMs && !(reply.log as Logger).isLevelEnabled("debug")) return;
    const line = { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(ms * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else if (ms > this.slowMs) reply.log.warn(line, "slow request");
    else reply.log.debug(line, "request");
  }
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count trusts the peer and the hops before it (Fastify itself refuses a
 * bare number, since a client that reaches the service directly could then name any address): use it only where
 * nothing reaches the service but through those proxies, and list the proxies' addresses otherwise.
 */
function trustProxyOption(trust: ProxyTrust): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === "number" ? (_address, hop) => hop < trust : trust;
}

/** The HTTP server's limits, proxy trust and low-level error answers, for the API and the ingest role's health server alike. */
export function httpServerOptions(server: Config["server"]) {
  return {
    trustProxy: trustProxyOption(server.trustProxy),
    bodyLimit: server.bodyLimitBytes,
    requestTimeout: server.requestTimeoutMs,
    connectionTimeout: server.connectionTimeoutMs,
    keepAliveTimeout: server.keepAliveTimeoutMs,
    // Node's server enforces the request timeout only when it is given at construction, and looks for requests
    // past it at connectionsCheckingInterval (30 s by default, which would let a slow body stay that much longer).
    http: {
      requestTimeout: server.requestTimeoutMs,
      headersTimeout: server.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(server.requestTimeoutMs / 4))),
    },
    // Every error in the contract's shape, those answered below the routes too (src/api/wire-errors.ts).
    ...wireErrorOptions(server.requestTimeoutMs),
    return503OnClosing: false,
  };
}

export async function buildApp(input: AppInput, logger: Logger): Promise<FastifyInstance> {
  const ctx = appContext(input);
  const server = ctx.config.server;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    ...httpServerOptions(server),
    logController: new AccessLog(server.slowRequestMs),
    ajv: { customOptions: { removeAdditional: false, allErrors: true, coerceTypes: "array", useDefaults: true } },
    // With ROUND_NUMBERS, every response schema's serializer rounds its numbers to what they mean first (src/api/rounding.ts).
    // Compiled once per process, for every app it builds (src/api/compiled-schemas.ts).
    schemaController: {
      compilersFactory: {
        buildValidator: processValidators,
        buildSerializer: server.roundNumbers ? roundingSerializers : processSerializers,
      },
    },
  });

  // Nothing computed from a store still filling is kept; what was kept before it filled is dropped.
  ctx.platform.cache.admitWhen(() => ctx.readiness.ready);
  ctx.readiness.onReady(() => forgetMarketIndex(ctx.store));
  ctx.readiness.start();
  // The root's preClose hooks run first of every close hook (the plugins' onClose hooks, which write what they hold,
  // come after): the background reads end before anything closes, and before whoever built the app closes the store.
  app.addHook("preClose", async () => ctx.background.close(server.closeBackgroundWaitMs, logger));
  // Subscribed before the app answers anything: a key revoked from then on is refused from the next request.
  const stopKeyChanges = await ctx.keyChecks.listen(ctx.platform.pubsub);
  app.addHook("onClose", async () => {
    await stopKeyChanges().catch(() => undefined);
  });
  // The service computes, before it listens, what a first request would otherwise wait for, and again once the
  // store is ready if it was not (after the plugins' own readiness listeners dropped what they held): src/api/warm-up.ts.
  app.decorate("warmUp", async () => {
    // Every plugin loaded first: some warm-ups read what only a ready app has (the OpenAPI document).
    await app.ready();
    const ready = ctx.readiness.ready;
    await ctx.warmUps.runAll(logger);
    if (!ready) ctx.readiness.onReady(() => ctx.background.run("warm-ups", () => ctx.warmUps.runAll(logger)));
  });

  registerErrorHandling(app, server);
  registerWireErrors(app);
  recordRequestMetrics(app);
  applyQueryConventions(app);
  registerEtags(app);
  registerGate(app, ctx);
  registerSyncHeader(app, ctx);
  app.addSchema(ErrorBody);
  app.addSchema(ValidationErrorBody);
  app.addSchema(ContractAddressBody);

  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Pelagic",
        version: "2.0.0",
        description:
          `Whale analytics for prediction markets (service ${VERSION}). ` +
          "Errors: 404 {detail}, 422 HTTPValidationError, 401/403/429 {detail}. " +
          "Every response carries X-RateLimit-Limit and X-RateLimit-Remaining; batch calls add X-RateLimit-Consumed; " +
          "429 carries Retry-After: 60.",
      },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transformObject: (document) =>
      markDefaultedParametersOptional("openapiObject" in document ? document.openapiObject : document.swaggerObject),
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}` },
  });

  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  await typed.register(healthRoutes, ctx);
  await typed.register(metricsRoutes, ctx);
  await typed.register(openapiRoutes, ctx);
  await typed.register(keyRoutes, ctx);
  await typed.register(marketsRoutes, ctx);
  await typed.register(marketDetailRoutes, ctx);
  await typed.register(publicMarketRoutes, ctx);
  await typed.register(walletCoreRoutes, ctx);
  await typed.register(walletInsightRoutes, ctx);
  await typed.register(fundingRoutes, ctx);
  await typed.register(insiderRoutes, ctx);
  await typed.register(aheadOfNewsRoutes, ctx);
  await typed.register(scorecardRoutes, ctx);
  await typed.register(walletHistoryRoutes, ctx);
  await typed.register(walletSearchRoutes, ctx);
  await typed.register(leaderboardRoutes, ctx);
  await typed.register(siteRoutes, ctx);
  await typed.register(homeRoutes, ctx);
  await typed.register(analyticsRoutes, ctx);
  await typed.register(liveRoutes, ctx);
  await typed.register(aiAnalysisRoutes, ctx);
  await typed.register(iswRoutes, ctx);
  await typed.register(iswWebhookRoutes, ctx);
  await typed.register(alertRoutes, ctx);
  await typed.register(drilldownRoutes, ctx);
  await typed.register(whaleAlertRoutes, ctx);
  await typed.register(whaleSignalRoutes, ctx);
  await typed.register(mcpRoutes, ctx);
  await typed.register(webRoutes, ctx);
  return app;
}
