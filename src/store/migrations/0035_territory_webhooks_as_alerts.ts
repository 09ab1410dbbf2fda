/**
 * Issue 51: the territory monitor's webhook registrations become alert rules. Each registration of
 * POST /api/v2/isw/webhook/register is carried over as a webhook destination (its URL and signing secret, sealed
 * together as the alerts seal theirs) and a `territory_event` rule naming it, with `webhook_format` `isw` (its
 * receiver keeps getting the territory body it was promised). Its deliveries move to `alert_deliveries` with the
 * event key the territory alerts use (`isw:<event id>`): an event already queued or sent is never queued again. The
 * secrets are opened with the webhook key (the context's `openSecrets`); a secret the key does not open is carried
 * disabled, with a reason that says to register the URL again. The old tables are dropped.
 */
import { randomBytes } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { columnTypes, type MigrationContext, type StoreKind, type StoreMigration } from "./column-types.js";

interface EndpointRow {
  id: number;
  account: string;
  url: string;
  cities: string;
  secret_box: string;
  status: string;
  created_at: number;
  disabled_at: number | null;
  disabled_reason: string | null;
}

interface DeliveryRow {
  endpoint_id: number;
  event_id: number;
  message_id: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

const NAME = "territory webhook";
const UNOPENED =
  "its signing secret could not be opened with this process's ISW_WEBHOOK_KEY when it became an alert destination: unregister the URL and register it again for a new secret";

/** The rule's filters in the alerts' one form (src/alerts/rule-kinds.ts, as it was when this migration landed). */
function territoryFilters(cities: string): string {
  return JSON.stringify({
    wallets: [],
    markets: [],
    categories: [],
    side: "both",
    min_usd: 0,
    min_points: null,
    window_minutes: null,
    cities: cities === "all" ? [] : (JSON.parse(cities) as string[]),
    min_severity: null,
  });
}

/** A carried delivery's payload: the territory alert (src/alerts/alert-event.ts) with the body the receiver was sent. */
function carriedPayload(body: string, rule: { id: number; name: string }): string {
  const { data } = JSON.parse(body) as {
    data: {
      id: number;
      city: string;
      event_type: string;
      severity: string;
      previous_severity: string | null;
      subscription_label: string;
      details: string;
      timestamp: string;
    };
  };
  return JSON.stringify({
    type: "alert.territory_event",
    rule: { ...rule, kind: "territory_event" },
    trade: null,
    territory: {
      id: data.id,
      city: data.city,
      event_type: data.event_type,
      severity: data.severity,
      previous_severity: data.previous_severity,
      subscription_label: data.subscription_label,
      details: data.details,
      created_at: Math.floor(Date.parse(data.timestamp) / 1_000),
    },
    links: { wallet: null, market: null },
    test: false,
    webhook_body: body,
  });
}

async function carryEndpoint(db: Kysely<unknown>, endpoint: EndpointRow, context: MigrationContext) {
  const box = context.openSecrets?.();
  if (!box)
    throw new Error(
      "the territory webhook registrations become alert destinations, which needs the webhook key: start pelagic (it migrates with its settings)",
    );
  let secret: string;
  let status = endpoint.status;
  let reason = endpoint.disabled_reason;
  try {
    secret = box.open(endpoint.secret_box);
  } catch {
    secret = `whsec_${randomBytes(32).toString("base64")}`;
    status = "disabled";
    reason = UNOPENED;
  }
  const url = new URL(endpoint.url);
  const disabledAt = status === "active" ? null : (endpoint.disabled_at ?? endpoint.created_at);
  const destination = await sql<{ id: number }>`
    insert into alert_destinations
      (account, name, kind, label, sealed, status, created_at, updated_at, disabled_at, disabled_reason)
    values (${endpoint.account}, ${NAME}, 'webhook', ${`${url.origin}${url.pathname}`},
      ${box.seal(JSON.stringify({ url: endpoint.url, secret }))}, ${status}, ${endpoint.created_at},
      ${endpoint.created_at}, ${disabledAt}, ${status === "active" ? null : reason})
    returning id`.execute(db);
  const destinationId = Number(destination.rows[0]!.id);
  const rule = await sql<{ id: number }>`
    insert into alert_rules
      (account, name, kind, filters, destination_ids, status, created_at, updated_at, webhook_format)
    values (${endpoint.account}, ${NAME}, 'territory_event', ${territoryFilters(endpoint.cities)},
      ${JSON.stringify([destinationId])}, 'active', ${endpoint.created_at}, ${endpoint.created_at}, 'isw')
    returning id`.execute(db);
  return { ruleId: Number(rule.rows[0]!.id), destinationId };
}

async function carryDeliveries(
  db: Kysely<unknown>,
  endpoint: EndpointRow,
  carried: { ruleId: number; destinationId: number },
) {
  const rows = await sql<DeliveryRow>`
    select * from isw_webhook_deliveries where endpoint_id = ${endpoint.id} order by id`.execute(db);
  for (const d of rows.rows) {
    const payload = carriedPayload(d.payload, { id: carried.ruleId, name: NAME });
    const finished = d.finished_at === null ? null : Number(d.finished_at) * 1_000;
    await sql`
      insert into alert_deliveries
        (account, rule_id, destination_id, event_key, message_id, payload, status, attempts, next_attempt_at,
         last_status, last_error, created_at_ms, finished_at_ms)
      values (${endpoint.account}, ${carried.ruleId}, ${carried.destinationId}, ${`isw:${d.event_id}`},
        ${d.message_id}, ${payload}, ${d.status}, ${d.attempts}, ${d.next_attempt_at}, ${d.last_status},
        ${d.last_error}, ${Number(d.created_at) * 1_000}, ${finished})`.execute(db);
  }
}

export const territoryWebhooksAsAlerts: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind, context: MigrationContext = {}) {
    const t = columnTypes(kind);
    await db.schema
      .alterTable("alert_rules")
      .addColumn("webhook_format", t.text, (c) => c.notNull().defaultTo("alert"))
      .execute();
    const endpoints = await sql<EndpointRow>`select * from isw_webhook_endpoints order by id`.execute(db);
    for (const endpoint of endpoints.rows) {
      const carried = await carryEndpoint(db, endpoint, context);
      await carryDeliveries(db, endpoint, carried);
    }
    // Alerts that never ran start at the newest event: the events before it were the old dispatcher's to send.
    // (`where true`: SQLite reads an `on conflict` after a bare `select ... from` as a join's.)
    await sql`
      insert into alert_cursors (name, position)
      select 'territory', coalesce(max(id), 0) from isw_events where true
      on conflict (name) do nothing`.execute(db);
    if (endpoints.rows.length > 0) await sql`update table_changes set n = n + 1 where name = 'alert_rules'`.execute(db);
    await db.schema.dropTable("isw_webhook_deliveries").execute();
    await db.schema.dropTable("isw_webhook_endpoints").execute();
  },
};
