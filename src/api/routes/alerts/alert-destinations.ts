/**
 * `/api/v2/alerts/destinations[/{destination_id}]` (Premium, X-API-Key): where an account's alerts go. A webhook's
 * signing secret is shown once, in the 201; the other secrets (a bot token, a Discord or Slack URL) are never shown.
 * A destination that answered gone is listed `disabled` with its reason until PATCH `enabled: true`.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import {
  createDestination,
  deleteDestination,
  listDestinations,
  readDestination,
  updateDestination,
  type DestinationRow,
} from "../../../alerts/destinations.js";
import { access } from "../../access.js";
import { notFound } from "../../errors.js";
import type { AlertRoutesContext } from "./alert-routes-context.js";
import {
  CreatedDestinationBody,
  DeletedBody,
  DestinationBody,
  DestinationCreateBody,
  DestinationListBody,
  DestinationParams,
  DestinationPatchBody,
  NoQuery,
} from "./alert-schemas.js";

const TAGS = ["alerts"];

export function destinationBody(row: DestinationRow) {
  const { id, name, kind, label, status, disabled_at, disabled_reason, created_at, updated_at } = row;
  return { id, name, kind, label, status, disabled_at, disabled_reason, created_at, updated_at };
}

export const alertDestinationRoutes: FastifyPluginAsyncTypebox<AlertRoutesContext> = async (app, alerts) => {
  const { store, clock, settings, accountOf } = alerts;
  const missing = (id: number) => notFound(`No alert destination ${id} in this account`);

  app.post(
    "/api/v2/alerts/destinations",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "Add an alert destination",
        description:
          "A signed webhook (url), a Telegram chat (bot_token, chat_id), a Discord webhook or a Slack incoming webhook (url). " +
          "URLs must resolve to public addresses only. 201 with the webhook's signing secret, shown this once. " +
          "At most ALERTS_DESTINATIONS_PER_ACCOUNT per account.",
        tags: TAGS,
        querystring: NoQuery,
        body: DestinationCreateBody,
        response: { 201: CreatedDestinationBody },
      },
    },
    async (request, reply) => {
      const created = await createDestination(
        store,
        { account: accountOf(request), destination: request.body, box: alerts.box(), now: clock.now(), settings },
        alerts.policy,
      );
      reply.code(201);
      return { ...destinationBody(created.row), secret: created.secret };
    },
  );

  app.get(
    "/api/v2/alerts/destinations",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "The account's alert destinations",
        tags: TAGS,
        querystring: NoQuery,
        response: { 200: DestinationListBody },
      },
    },
    async (request) => {
      const rows = await listDestinations(store, accountOf(request));
      return { destinations: rows.map(destinationBody), count: rows.length };
    },
  );

  app.get(
    "/api/v2/alerts/destinations/:destination_id",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "One alert destination",
        description: "Its status says whether it was disabled, and why (the receiver answered gone).",
        tags: TAGS,
        params: DestinationParams,
        querystring: NoQuery,
        response: { 200: DestinationBody },
      },
    },
    async (request) => {
      const id = request.params.destination_id;
      const row = await readDestination(store, accountOf(request), id);
      if (!row) throw missing(id);
      return destinationBody(row);
    },
  );

  app.patch(
    "/api/v2/alerts/destinations/:destination_id",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "Rename an alert destination, or enable it again",
        tags: TAGS,
        params: DestinationParams,
        querystring: NoQuery,
        body: DestinationPatchBody,
        response: { 200: DestinationBody },
      },
    },
    async (request) => {
      const id = request.params.destination_id;
      const row = await updateDestination(store, accountOf(request), id, request.body, clock.now());
      if (!row) throw missing(id);
      return destinationBody(row);
    },
  );

  app.delete(
    "/api/v2/alerts/destinations/:destination_id",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "Delete an alert destination",
        description: "422 while a rule sends to it; its pending deliveries are cancelled.",
        tags: TAGS,
        params: DestinationParams,
        querystring: NoQuery,
        response: { 200: DeletedBody },
      },
    },
    async (request) => {
      const id = request.params.destination_id;
      if (!(await deleteDestination(store, accountOf(request), id, clock.nowMs()))) throw missing(id);
      return { status: "deleted" as const, id };
    },
  );
};
