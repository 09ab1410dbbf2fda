/**
 * The territory monitor's events as alerts (`territory_event` rules), in the process that runs the monitor: every
 * ALERTS_TERRITORY_POLL_MS, in one transaction, the events stored since the cursor (`alert_cursors.territory`)
 * are matched against the active rules (their cities, none: all; their least severity) and a delivery stored per
 * (rule, destination, event), and the cursor moved past them: an event is alerted once, whatever stops where. A rule that holds a
 * territory registration (webhook_format `isw`) carries the territory webhook's own body for its webhooks.
 */
import { webhookPayload } from "../isw/event-view.js";
import { iswDb } from "../isw/tables.js";
import { THREAT_LEVELS, type ThreatLevel } from "../isw/threat.js";
import type { StoreTransaction } from "../store/database.js";
import type { AlertEvent } from "./alert-event.js";
import { insertDeliveries, ruleDeliveries } from "./delivery-rows.js";
import { ruleOf } from "./rules.js";
import { PollingWatcher, type WatcherDeps } from "./polling-watcher.js";
import { alertsDb } from "./tables.js";

const CURSOR = "territory";
const EVENTS_PER_LOOK = 500;

export class TerritoryAlerts extends PollingWatcher {
  constructor(deps: WatcherDeps) {
    super(deps, "territory alerts", deps.config.alerts.territoryPollMs);
  }

  /** One look: the events since the cursor, alerted, and the cursor moved; returns the deliveries stored. */
  override look(): Promise<number> {
    return this.deps.store.transaction((tx) => this.lookIn(tx));
  }

  private async lookIn(tx: StoreTransaction): Promise<number> {
    const db = alertsDb(tx.db);
    const events = iswDb(tx.db);
    // Migration 0035 set the cursor at the newest event of its day: what came before alerts existed is not told.
    const cursor = await db
      .selectFrom("alert_cursors")
      .select("position")
      .where("name", "=", CURSOR)
      .executeTakeFirstOrThrow();
    const fresh = await events
      .selectFrom("isw_events")
      .selectAll()
      .where("id", ">", Number(cursor.position))
      .orderBy("id")
      .limit(EVENTS_PER_LOOK)
      .execute();
    if (fresh.length === 0) return 0;
    const [rules, destinations] = await Promise.all([
      db
        .selectFrom("alert_rules")
        .selectAll()
        .where("kind", "=", "territory_event")
        .where("status", "=", "active")
        .execute(),
      db.selectFrom("alert_destinations").select("id").where("status", "=", "active").execute(),
    ]);
    const active = new Set(destinations.map((d) => Number(d.id)));
    const nowMs = this.deps.clock.nowMs();
    const territoryPage = `${this.deps.config.alerts.dashboardUrl.replace(/\/+$/, "")}/#/territory`;
    const iswBodies = new Map<number, string>();
    const iswBody = (event: (typeof fresh)[number]) => {
      let body = iswBodies.get(event.id);
      if (body === undefined) iswBodies.set(event.id, (body = webhookPayload(event)));
      return body;
    };
    const rows = [];
    for (const rule of rules.map(ruleOf)) {
      const cities = new Set(rule.filters.cities.map((city) => city.toLowerCase()));
      const least = rule.filters.min_severity ? THREAT_LEVELS.indexOf(rule.filters.min_severity) : 0;
      for (const event of fresh) {
        if (cities.size > 0 && !cities.has(event.city.toLowerCase())) continue;
        if (THREAT_LEVELS.indexOf(event.severity as ThreatLevel) < least) continue;
        const alert: AlertEvent = {
          type: "alert.territory_event",
          rule: { id: rule.id, name: rule.name, kind: rule.kind },
          trade: null,
          territory: {
            id: Number(event.id),
            city: event.city,
            event_type: event.event_type,
            severity: event.severity,
            previous_severity: event.previous_severity,
            subscription_label: event.subscription_label,
            details: event.details,
            created_at: event.created_at,
          },
          links: { wallet: null, market: null, territory: territoryPage },
          test: false,
          ...(rule.webhook_format === "isw" ? { webhook_body: iswBody(event) } : {}),
        };
        const payload = JSON.stringify(alert);
        const eventKey = `isw:${event.id}`;
        rows.push(
          ...ruleDeliveries(
            rule,
            rule.destination_ids.filter((id) => active.has(id)),
            { key: eventKey, payload, nowMs },
          ),
        );
      }
    }
    const stored = await insertDeliveries(db, rows);
    await db
      .updateTable("alert_cursors")
      .set({ position: Number(fresh.at(-1)!.id) })
      .where("name", "=", CURSOR)
      .execute();
    return stored;
  }
}
