/**
 * `GET /api/v2/alerts/deliveries` (the account's delivery log, newest first) and
 * `POST /api/v2/alerts/destinations/{destination_id}/test` (a sample alert sent to the destination now; the answer
 * is the delivery as recorded: delivered, or failed with the receiver's status and the error). Premium, X-API-Key.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { readDestination } from "../../../alerts/destinations.js";
import { listDeliveries, queueTestFire, readDelivery, type DeliveryRow } from "../../../alerts/delivery-log.js";
import { access } from "../../access.js";
import { notFound } from "../../errors.js";
import type { AlertRoutesContext } from "./alert-routes-context.js";
import { DeliveriesQuery, DeliveryBody, DeliveryListBody, DestinationParams, NoQuery } from "./alert-schemas.js";

const TAGS = ["alerts"];

function deliveryBody(row: DeliveryRow) {
  return {
    id: Number(row.id),
    rule_id: Number(row.rule_id) === 0 ? null : Number(row.rule_id),
    destination_id: Number(row.destination_id),
    event_key: row.event_key,
    status: row.status,
    attempts: Number(row.attempts),
    next_attempt_at: row.status === "pending" ? Number(row.next_attempt_at) : null,
    last_status: row.last_status === null ? null : Number(row.last_status),
    last_error: row.last_error,
    created_at_ms: Number(row.created_at_ms),
    finished_at_ms: row.finished_at_ms === null ? null : Number(row.finished_at_ms),
    alert: JSON.parse(row.payload) as Record<string, unknown>,
  };
}

export const alertDeliveryRoutes: FastifyPluginAsyncTypebox<AlertRoutesContext> = async (app, alerts) => {
  const { store, clock, settings, accountOf } = alerts;

  app.get(
    "/api/v2/alerts/deliveries",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "The account's alert delivery log",
        description:
          "Recent deliveries, newest first: status, attempts, when the next retry is due, the receiver's last status and error. " +
          "A destination that answered gone shows its last delivery failed, and is listed disabled with the reason.",
        tags: TAGS,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryListBody },
      },
    },
    async (request) => {
      const { limit, ...filter } = request.query;
      const rows = await listDeliveries(store, accountOf(request), {
        ...filter,
        limit: Math.min(limit, settings.deliveriesListed),
      });
      return { deliveries: rows.map(deliveryBody), count: rows.length };
    },
  );

  app.post(
    "/api/v2/alerts/destinations/:destination_id/test",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "Send a sample alert to a destination now",
        description:
          "One attempt, no retries; the answer is the delivery as recorded (also in the log). A destination that answers gone is disabled, as by a real alert.",
        tags: TAGS,
        params: DestinationParams,
        querystring: NoQuery,
        response: { 200: DeliveryBody },
      },
    },
    async (request) => {
      const account = accountOf(request);
      const destinationId = request.params.destination_id;
      if (!(await readDestination(store, account, destinationId)))
        throw notFound(`No alert destination ${destinationId} in this account`);
      const id = await queueTestFire(store, {
        account,
        destinationId,
        nowMs: clock.nowMs(),
        dashboardUrl: settings.dashboardUrl,
      });
      await alerts.worker.deliverNow(id);
      return deliveryBody((await readDelivery(store, account, id))!);
    },
  );
};
