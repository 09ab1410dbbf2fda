/**
 * Row types of the alert tables (migrations `0032_alert_rules`, `0033_alert_matches`, `0035_territory_webhooks_as_alerts`), kept beside the code that owns them; `alertsDb`
 * gives a store's Kysely (or a transaction's) these tables too.
 */
import type { Generated, Kysely } from "kysely";
import type { Database } from "../store/schema.js";

export const DESTINATION_KINDS = ["webhook", "telegram", "discord", "slack"] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

export const RULE_KINDS = [
  "wallet_trade",
  "market_whale_trade",
  "whale_trade",
  "smart_new_market",
  "price_move",
  "territory_event",
  "consensus_flip",
  "insider_alert",
] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/**
 * How a rule's webhook destinations get its alerts: `alert`, the alerts' body (`{type: alert.<kind>, timestamp,
 * data: the alert}`); `isw`, the territory webhook's (`{type: isw.<event type>, timestamp, data: the event}`), for the
 * rules that hold a registration of POST /api/v2/isw/webhook/register (territory-registrations.ts).
 */
export type WebhookFormat = "alert" | "isw";

export type DestinationStatus = "active" | "disabled";
export type RuleStatus = "active" | "paused";
export type DeliveryStatus = "pending" | "delivered" | "failed" | "cancelled";

export interface AlertDestinationsTable {
  id: Generated<number>;
  account: string;
  name: string;
  kind: DestinationKind;
  /** What may be shown: the host of a URL, the Telegram chat; never a secret. */
  label: string;
  /** The secret parts (URLs that are credentials, the bot token, the signing secret), sealed (SecretBox) as JSON. */
  sealed: string;
  status: DestinationStatus;
  created_at: number;
  updated_at: number;
  disabled_at: number | null;
  /** Why it was disabled (the receiver answered gone): what the account is told. */
  disabled_reason: string | null;
}

export interface AlertRulesTable {
  id: Generated<number>;
  account: string;
  name: string;
  kind: RuleKind;
  /** JSON: RuleFilters (rule-kinds.ts). */
  filters: string;
  /** JSON: the destination ids, ascending. */
  destination_ids: string;
  status: RuleStatus;
  created_at: number;
  updated_at: number;
  /** Migration `0035_territory_webhooks_as_alerts`. */
  webhook_format: WebhookFormat;
}

export interface AlertDeliveriesTable {
  id: Generated<number>;
  account: string;
  /** 0 for a test fire. */
  rule_id: number;
  destination_id: number;
  /** What the alert is about: the fill's key (`test:<id>` for a test fire). One delivery per (rule, destination, event). */
  event_key: string;
  /** The webhook-id of every attempt: the same on retries, so a receiver can drop a repeat. */
  message_id: string;
  /** JSON: the alert (AlertEvent), formatted for its platform when sent. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  /** Not sent before (a retry's wait, or the lease of the process sending it). */
  next_attempt_at: number;
  last_status: number | null;
  last_error: string | null;
  /** When the matcher stored it (epoch ms): the start of the fill-to-delivery time. */
  created_at_ms: number;
  finished_at_ms: number | null;
}

/** How far a producer of alerts has read a table of events (`territory`: isw_events.id). */
export interface AlertCursorsTable {
  name: string;
  position: number;
}

/** A batch's matched fills, stored by the matcher in the batch's transaction, fanned out by a delivery worker. */
export interface AlertMatchesTable {
  id: Generated<number>;
  /** When the matcher stored it (epoch ms): its deliveries' `created_at_ms`. */
  created_at_ms: number;
  /** JSON: the matched fills (alert-matches.ts, `encodeMatches`). */
  fills: string;
}

/** What the matcher remembers across a restart (price-moves.ts, smart-markets.ts). */
export interface AlertMarksTable {
  kind: "price_alerted" | "smart_opened";
  /** The rule (price_alerted); 0 when the mark is not a rule's (smart_opened). */
  rule_id: number;
  /** The market's condition id. */
  subject: string;
  /** Unix seconds of the fill that set it. */
  at: number;
}

export type AlertTables = {
  alert_cursors: AlertCursorsTable;
  alert_marks: AlertMarksTable;
  alert_matches: AlertMatchesTable;
  alert_destinations: AlertDestinationsTable;
  alert_rules: AlertRulesTable;
  alert_deliveries: AlertDeliveriesTable;
};

export type AlertsDb = Kysely<Database & AlertTables>;

export const alertsDb = (db: Kysely<Database>): AlertsDb => db.withTables<AlertTables>();
