/**
 * Alerts that come to you (issue 51), `/api/v2/alerts/*`, Premium with X-API-Key: an account's destinations
 * (alert-destinations.ts), rules (alert-rules.ts) and its delivery log and test fire (alert-deliveries.ts). Every
 * route reads and writes the primary store (what is written is read back at once). The plugin also gives the
 * process its delivery worker (src/alerts/delivery-worker.ts), started when the app is ready (with ALERTS on) and
 * stopped when it closes.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { lazySecretBox } from "../../../alerts/webhooks/secret-box.js";
import { systemResolver } from "../../../alerts/webhooks/ssrf.js";
import type { AppContext } from "../../context.js";
import { HttpError } from "../../errors.js";
import { DeliveryWorker } from "../../../alerts/delivery-worker.js";
import { alertDeliveryRoutes } from "./alert-deliveries.js";
import { alertDestinationRoutes } from "./alert-destinations.js";
import { alertRuleRoutes } from "./alert-rules.js";
import type { AlertRoutesContext } from "./alert-routes-context.js";

export const alertRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const openBox = lazySecretBox(ctx.config);
  const worker = new DeliveryWorker({
    store: ctx.primary,
    clock: ctx.platform.clock,
    logger: app.log,
    config: ctx.config,
    box: openBox,
    pubsub: ctx.platform.pubsub,
    rateLimiter: ctx.platform.rateLimiter,
  });
  if (ctx.config.alerts.enabled) {
    app.addHook("onReady", async () => worker.start());
    app.addHook("onClose", async () => worker.stop());
  }
  const alerts: AlertRoutesContext = {
    store: ctx.primary,
    clock: ctx.platform.clock,
    settings: ctx.config.alerts,
    policy: { resolve: systemResolver, allowLoopback: ctx.config.alerts.allowLoopback },
    box: openBox,
    worker,
    accountOf(request) {
      const check = request.auth.check;
      if (check?.status !== "valid") throw new HttpError(401, "Invalid API key");
      return check.account;
    },
  };
  await app.register(alertDestinationRoutes, alerts);
  await app.register(alertRuleRoutes, alerts);
  await app.register(alertDeliveryRoutes, alerts);
};
