/**
 * POST /api/v2/isw/webhook/register and DELETE /api/v2/isw/webhook/unregister (Premium, X-API-Key): territory
 * events pushed to a URL, per account. A registration is an alert rule and its webhook destination
 * (src/alerts/territory-registrations.ts), delivered by the alerts' delivery worker. A URL must resolve to public
 * addresses only (src/alerts/webhooks/ssrf.ts; checked again at every connection). The signing secret is shown
 * once, in the 201 of the first registration of a URL, and stored encrypted.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import {
  citiesText,
  parseCities,
  registerTerritoryWebhook,
  unregisterTerritoryWebhook,
} from "../../../alerts/territory-registrations.js";
import { lazySecretBox } from "../../../alerts/webhooks/secret-box.js";
import { checkedAddress, hostOf, parseWebhookUrl, systemResolver } from "../../../alerts/webhooks/ssrf.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { HttpError, validationError } from "../../errors.js";
import { RegistrationBody, UnregistrationBody, WebhookBody, WebhookQuery } from "./isw-schemas.js";

function accountOf(request: FastifyRequest): string {
  const check = request.auth.check;
  if (check?.status !== "valid") throw new HttpError(401, "Invalid API key");
  return check.account;
}

function urlOf(text: string): URL {
  try {
    return parseWebhookUrl(text.trim());
  } catch (error) {
    throw validationError(["body", "url"], `URL refused: ${(error as Error).message}`, "url_refused");
  }
}

export const iswWebhookRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const store = ctx.primary;
  const clock = ctx.platform.clock;
  const openBox = lazySecretBox(ctx.config);
  const policy = { resolve: systemResolver, allowLoopback: ctx.config.alerts.allowLoopback };

  // Domain errors (unknown cities, a refused URL, the account's limits) are answered by their code: src/api/errors.ts.
  const cities = (text: string) => parseCities(store, text);

  app.post(
    "/api/v2/isw/webhook/register",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "Register a URL for territory events",
        description:
          "Events are POSTed as Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature `v1,<base64 HMAC-SHA256 of id.timestamp.body>` " +
          "keyed by the secret), body {type, timestamp, data: the event as /isw/events lists it}; retried on failure, disabled on 410. " +
          "The URL must resolve to public addresses only. 201 with the secret for a new URL; 200 (secret null) when the account's URL was registered: its cities are replaced and it is enabled again. " +
          "A registration is an alert rule (kind territory_event, webhook_format isw; `id`) and its webhook destination, listed with the account's alerts under /api/v2/alerts/ with their delivery log.",
        tags: ["territory"],
        querystring: WebhookQuery,
        body: WebhookBody,
        response: { 200: RegistrationBody, 201: RegistrationBody },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const url = urlOf(request.body.url);
      await checkedAddress(hostOf(url), policy);
      const selection = await cities(request.body.cities as string);
      const registration = await registerTerritoryWebhook(store, {
        account,
        url,
        cities: selection,
        box: openBox(),
        now: clock.now(),
        config: ctx.config,
      });
      reply.code(registration.status === "registered" ? 201 : 200);
      return { ...registration, cities: citiesText(registration.cities), request: request.query.request ?? null };
    },
  );

  app.delete(
    "/api/v2/isw/webhook/unregister",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "Unregister a URL, or some of its cities",
        description:
          "Same body as register: cities=all (the default) removes the registration and cancels its pending deliveries; a list removes those cities. 404 when the account has no such URL.",
        tags: ["territory"],
        querystring: WebhookQuery,
        body: WebhookBody,
        response: { 200: UnregistrationBody },
      },
    },
    async (request) => {
      const account = accountOf(request);
      const url = urlOf(request.body.url);
      const selection = await cities(request.body.cities as string);
      const result = await unregisterTerritoryWebhook(store, {
        account,
        url,
        cities: selection,
        box: openBox(),
        now: clock.now(),
        config: ctx.config,
      });
      if (!result) throw new HttpError(404, "No webhook is registered for this URL by this account");
      return {
        status: result.status,
        url: url.toString(),
        cities: citiesText(result.cities),
        request: request.query.request ?? null,
      };
    },
  );
};
