/**
 * Migration 0035 on every store backend: a store whose territory webhook registrations and deliveries live in the
 * old tables becomes one whose registrations are alert rules and destinations. The secrets open to what was
 * registered (one sealed with another key is carried disabled, saying why), the deliveries keep their webhook-id
 * and body, a pending one is then sent by the alerts' worker exactly as the old dispatcher would have, the events
 * already queued are not queued again, and without the webhook key the migration refuses and leaves the store as it was.
 */
import { createHmac, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { DeliveryWorker } from "../src/alerts/delivery-worker.js";
import type { DestinationSecrets } from "../src/alerts/destinations.js";
import { alertsDb } from "../src/alerts/tables.js";
import { TerritoryAlerts } from "../src/alerts/territory-alerts.js";
import { startReceiver, type Receiver } from "../src/alerts/webhooks/receiver.js";
import { SecretBox } from "../src/alerts/webhooks/secret-box.js";
import { loadConfig } from "../src/config/index.js";
import { webhookPayload } from "../src/isw/event-view.js";
import { insertEvent } from "../src/isw/monitor-store.js";
import { iswDb } from "../src/isw/tables.js";
import { ManualClock } from "../src/platform/clock.js";
import { createLogger } from "../src/platform/logger.js";
import type { Store } from "../src/store/database.js";
import { migrateStore } from "../src/store/migrate.js";
import { migrations } from "../src/store/migrations/index.js";
import { migrationsBefore, storeBackends } from "./support/backends.js";

const MIGRATION = "0035_territory_webhooks_as_alerts";

describe.each(storeBackends)("territory webhooks become alerts (migration 0035) on $kind", (backend) => {
  let store: Store;
  let dispose: (() => Promise<void>) | undefined;
  let receiver: Receiver | undefined;
  let worker: DeliveryWorker | undefined;
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  const box = new SecretBox(randomBytes(32));
  const otherKey = new SecretBox(randomBytes(32));
  const secret = `whsec_${randomBytes(32).toString("base64")}`;

  afterEach(async () => {
    await worker?.stop();
    await receiver?.close();
    await dispose?.();
  });

  async function event(city: string) {
    return insertEvent(iswDb(store.db), {
      subscription_id: 1,
      city,
      event_type: "CAPTURED",
      severity: "CRITICAL",
      severity_rank: 4,
      previous_severity: "HIGH",
      details: `All of ${city}`,
      created_at: clock.now(),
      map_version_id: 3,
      check_type: "entirety",
      subscription_label: `All of ${city}`,
      market_slug_pattern: "will-russia-capture-*",
      coverage: 0.99,
      closest_distance_m: 0,
    });
  }

  /** A store at 0034 with three registrations (one sealed with another key, one disabled) and two deliveries. */
  async function oldStore() {
    ({ store, dispose } = await backend.open({ migrations: migrationsBefore(MIGRATION) }));
    receiver = await startReceiver();
    const now = clock.now();
    const endpoint = async (account: string, url: string, cities: string, sealed: string, status = "active") => {
      const reason = status === "active" ? null : "the receiver answered 410 Gone";
      const { rows } = await sql<{ id: number }>`
        insert into isw_webhook_endpoints (account, url, cities, secret_box, status, created_at, disabled_at, disabled_reason)
        values (${account}, ${url}, ${cities}, ${sealed}, ${status}, ${now - 100}, ${status === "active" ? null : now - 50}, ${reason})
        returning id`.execute(store.db);
      return Number(rows[0]!.id);
    };
    const hook = await endpoint("acme", receiver.url, '["Bakhmut"]', box.seal(secret));
    await endpoint("acme", "https://93.184.216.34/all", "all", otherKey.seal(secret));
    await endpoint("beta", "https://93.184.216.34/gone", "all", box.seal(secret), "disabled");
    const first = await event("Bakhmut");
    const second = await event("Bakhmut");
    const delivery = async (eventRow: typeof first, status: string, finished: number | null) =>
      sql`
        insert into isw_webhook_deliveries (endpoint_id, event_id, message_id, payload, status, attempts, next_attempt_at,
          last_status, last_error, created_at, finished_at)
        values (${hook}, ${eventRow.id}, ${`msg_isw_${eventRow.id}`}, ${webhookPayload(eventRow)}, ${status}, 1,
          ${now + 5}, ${status === "delivered" ? 200 : 500}, ${status === "delivered" ? null : "HTTP 500"},
          ${now - 10}, ${finished})`.execute(store.db);
    await delivery(first, "delivered", now - 9);
    await delivery(second, "pending", null);
    return { first, second };
  }

  it("carries each registration over as a rule and destination, and its deliveries with their ids and bodies", async () => {
    const { first, second } = await oldStore();
    const changesBefore = await sql<{ n: number }>`select n from table_changes where name = 'alert_rules'`.execute(
      store.db,
    );
    const applied = (await migrateStore(store, undefined, { openSecrets: () => box })).map((r) => r.migrationName);
    expect(applied).toEqual(Object.keys(migrations).filter((name) => name >= MIGRATION));
    const db = alertsDb(store.db);
    const rules = await db.selectFrom("alert_rules").selectAll().orderBy("id").execute();
    expect(rules.map((r) => [r.account, r.kind, r.webhook_format, JSON.parse(r.filters).cities])).toEqual([
      ["acme", "territory_event", "isw", ["Bakhmut"]],
      ["acme", "territory_event", "isw", []],
      ["beta", "territory_event", "isw", []],
    ]);
    const destinations = await db.selectFrom("alert_destinations").selectAll().orderBy("id").execute();
    expect(rules.map((r) => JSON.parse(r.destination_ids))).toEqual(destinations.map((d) => [Number(d.id)]));
    const opened = destinations.map((d) => JSON.parse(box.open(d.sealed)) as DestinationSecrets);
    expect(opened[0]).toEqual({ url: receiver!.url, secret });
    expect(destinations.map((d) => d.status)).toEqual(["active", "disabled", "disabled"]);
    expect(destinations[1]!.disabled_reason).toContain("register it again");
    expect(opened[1]!.secret).not.toBe(secret);
    expect(destinations[2]!.disabled_reason).toBe("the receiver answered 410 Gone");

    const carried = await db.selectFrom("alert_deliveries").selectAll().orderBy("id").execute();
    expect(carried.map((d) => [d.event_key, d.message_id, d.status, Number(d.rule_id)])).toEqual([
      [`isw:${first.id}`, `msg_isw_${first.id}`, "delivered", Number(rules[0]!.id)],
      [`isw:${second.id}`, `msg_isw_${second.id}`, "pending", Number(rules[0]!.id)],
    ]);
    expect(JSON.parse(carried[1]!.payload)).toMatchObject({
      type: "alert.territory_event",
      territory: { id: second.id, city: "Bakhmut", event_type: "CAPTURED", created_at: second.created_at },
      webhook_body: webhookPayload(second),
    });
    const cursor = await db.selectFrom("alert_cursors").select("position").where("name", "=", "territory").execute();
    expect(cursor.map((c) => Number(c.position))).toEqual([second.id]);
    const changesAfter = await sql<{ n: number }>`select n from table_changes where name = 'alert_rules'`.execute(
      store.db,
    );
    expect(Number(changesAfter.rows[0]!.n)).toBe(Number(changesBefore.rows[0]!.n) + 1);
    await expect(sql`select id from isw_webhook_endpoints`.execute(store.db)).rejects.toThrow();
    await expect(sql`select id from isw_webhook_deliveries`.execute(store.db)).rejects.toThrow();

    // The pending delivery goes out as the old dispatcher would have sent it; a new event reaches only the active one.
    const config = loadConfig({ ALERTS_ALLOW_LOOPBACK: "true", ALERTS_POLL_MS: "10" });
    const third = await event("Bakhmut");
    expect(await new TerritoryAlerts({ store, config, clock, logger: createLogger("silent") }).look()).toBe(1);
    clock.advance(5_000);
    worker = new DeliveryWorker({ store, clock, logger: createLogger("silent"), config, box: () => box });
    await worker.start();
    for (let i = 0; i < 300 && receiver!.received.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    const byId = new Map(receiver!.received.map((r) => [String(r.headers["webhook-id"]), r]));
    const resent = byId.get(`msg_isw_${second.id}`);
    expect(resent?.body).toBe(webhookPayload(second));
    const mac = createHmac("sha256", Buffer.from(secret.slice(6), "base64"))
      .update(`msg_isw_${second.id}.${resent!.headers["webhook-timestamp"]}.${resent!.body}`)
      .digest("base64");
    expect(resent!.headers["webhook-signature"]).toBe(`v1,${mac}`);
    expect([...byId.values()].map((r) => JSON.parse(r.body).data.id).sort()).toEqual([second.id, third.id]);
  });

  it("refuses without the webhook key and leaves the store as it was", async () => {
    await oldStore();
    await expect(migrateStore(store)).rejects.toThrow(/needs the webhook key/);
    const { rows } = await sql<{ n: number }>`select count(*) as n from isw_webhook_endpoints`.execute(store.db);
    expect(Number(rows[0]!.n)).toBe(3);
  });
});
