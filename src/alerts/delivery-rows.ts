/**
 * A new delivery's row, and how the producers (the fan-out of the matcher's matches, the territory alerts, the
 * consensus flips, the test fire) store them: each once per (rule, destination, event) whoever stores it again;
 * and how the pending ones of a rule or destination are cancelled.
 */
import { createHash } from "node:crypto";
import type { Insertable } from "kysely";
import type { AlertDeliveriesTable, AlertsDb } from "./tables.js";

/** The webhook-id of a delivery: one per (rule, destination, event), the same on every attempt. */
export function messageIdOf(ruleId: number, destinationId: number, eventKey: string): string {
  const digest = createHash("sha256").update(eventKey).digest("base64url").slice(0, 22);
  return `msg_${ruleId}_${destinationId}_${digest}`;
}

export function pendingDelivery(input: {
  account: string;
  ruleId: number;
  destinationId: number;
  eventKey: string;
  payload: string;
  nowMs: number;
}): Insertable<AlertDeliveriesTable> {
  return {
    account: input.account,
    rule_id: input.ruleId,
    destination_id: input.destinationId,
    event_key: input.eventKey,
    message_id: messageIdOf(input.ruleId, input.destinationId, input.eventKey),
    payload: input.payload,
    status: "pending",
    attempts: 0,
    next_attempt_at: 0,
    last_status: null,
    last_error: null,
    created_at_ms: input.nowMs,
    finished_at_ms: null,
  };
}

/** A rule's deliveries of one event: a pending row for each of the destinations given (its active ones). */
export function ruleDeliveries(
  rule: { readonly account: string; readonly id: number },
  destinations: Iterable<number>,
  event: { readonly key: string; readonly payload: string; readonly nowMs: number },
): Insertable<AlertDeliveriesTable>[] {
  return [...destinations].map((destinationId) =>
    pendingDelivery({
      account: rule.account,
      ruleId: rule.id,
      destinationId,
      eventKey: event.key,
      payload: event.payload,
      nowMs: event.nowMs,
    }),
  );
}

/** Cancels the pending deliveries of a rule or of a destination (deleted, or disabled as gone). */
export async function cancelPendingDeliveries(
  db: AlertsDb,
  of: "rule_id" | "destination_id",
  id: number,
  nowMs: number,
): Promise<void> {
  await db
    .updateTable("alert_deliveries")
    .set({ status: "cancelled", finished_at_ms: nowMs })
    .where(of, "=", id)
    .where("status", "=", "pending")
    .execute();
}

/** Stores the rows (200 a statement), skipping any already stored; returns how many were new. */
export async function insertDeliveries(
  db: AlertsDb,
  rows: readonly Insertable<AlertDeliveriesTable>[],
): Promise<number> {
  let stored = 0;
  for (let i = 0; i < rows.length; i += 200) {
    const result = await db
      .insertInto("alert_deliveries")
      .values(rows.slice(i, i + 200))
      .onConflict((oc) => oc.columns(["rule_id", "destination_id", "event_key"]).doNothing())
      .executeTakeFirst();
    stored += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return stored;
}
