/**
 * An account's delivery log (its recent deliveries with status, attempts, next retry and the receiver's last
 * answer) and the test fire: a sample alert queued for one destination, which the route then sends at once.
 */
import type { Selectable } from "kysely";
import type { Store } from "../store/database.js";
import { alertLinks, type AlertEvent } from "./alert-event.js";
import { pendingDelivery } from "./delivery-rows.js";
import { alertsDb, type AlertDeliveriesTable, type DeliveryStatus } from "./tables.js";

export type DeliveryRow = Selectable<AlertDeliveriesTable>;

export async function listDeliveries(
  store: Store,
  account: string,
  filter: { limit: number; status?: DeliveryStatus; rule_id?: number; destination_id?: number },
): Promise<DeliveryRow[]> {
  let query = alertsDb(store.db).selectFrom("alert_deliveries").selectAll().where("account", "=", account);
  if (filter.status) query = query.where("status", "=", filter.status);
  if (filter.rule_id !== undefined) query = query.where("rule_id", "=", filter.rule_id);
  if (filter.destination_id !== undefined) query = query.where("destination_id", "=", filter.destination_id);
  return query.orderBy("id", "desc").limit(filter.limit).execute();
}

export async function readDelivery(store: Store, account: string, id: number): Promise<DeliveryRow | undefined> {
  return alertsDb(store.db)
    .selectFrom("alert_deliveries")
    .selectAll()
    .where("account", "=", account)
    .where("id", "=", id)
    .executeTakeFirst();
}

/** A sample trade, said to be one: what a test fire sends. */
export function sampleAlert(dashboardUrl: string): AlertEvent {
  const wallet = `0x${"5a".repeat(20)}`;
  return {
    type: "alert.test",
    rule: null,
    trade: {
      wallet,
      side: "BUY",
      outcome: "YES",
      shares: 1_000,
      price: 0.62,
      usd: 620,
      condition_id: `0x${"0".repeat(64)}`,
      market_id: null,
      market_question: "Test alert from Pelagic: this destination works",
      category: null,
      tx_hash: `0x${"0".repeat(64)}`,
      ts: 0,
    },
    links: alertLinks(dashboardUrl, wallet, null),
    test: true,
  };
}

/** Queues a test fire for the account's destination; returns the delivery's id. */
export async function queueTestFire(
  store: Store,
  input: { account: string; destinationId: number; nowMs: number; dashboardUrl: string },
): Promise<number> {
  const eventKey = `test:${input.nowMs}:${Math.random().toString(36).slice(2, 10)}`;
  const sample = sampleAlert(input.dashboardUrl);
  const event = { ...sample, trade: { ...sample.trade, ts: Math.floor(input.nowMs / 1_000) } };
  const { id } = await alertsDb(store.db)
    .insertInto("alert_deliveries")
    .values(
      pendingDelivery({
        account: input.account,
        ruleId: 0,
        destinationId: input.destinationId,
        eventKey,
        payload: JSON.stringify(event),
        nowMs: input.nowMs,
      }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(id);
}
