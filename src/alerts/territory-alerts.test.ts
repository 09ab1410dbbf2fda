/**
 * The territory monitor's events as alerts, on every backend: each new event is matched against the territory_event
 * rules (cities, least severity), stored once per (rule, destination, event), and the cursor moves past it; the chat
 * platforms get it in their shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { loadConfig } from "../config/index.js";
import { iswDb } from "../isw/tables.js";
import { SecretBox } from "./webhooks/secret-box.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import type { AlertEvent } from "./alert-event.js";
import { createDestination } from "./destinations.js";
import { formatAlert } from "./formatters.js";
import { createRule } from "./rules.js";
import { alertsDb } from "./tables.js";
import { TerritoryAlerts } from "./territory-alerts.js";

describe.each(storeBackends)("territory events as alerts on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  const clock = new ManualClock(1_800_000_000_000);
  const config = loadConfig({ ALERTS_DASHBOARD_URL: "https://pelagic.example" });
  const event = (city: string, severity: string, eventType = `THREAT_${severity}`) => ({
    subscription_id: 1,
    city,
    event_type: eventType,
    severity,
    severity_rank: ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"].indexOf(severity),
    previous_severity: "SAFE",
    details: `${city}: ${eventType}`,
    created_at: clock.now(),
    map_version_id: 1,
    check_type: "single",
    subscription_label: `${city} (centre)`,
    market_slug_pattern: "will-russia-capture-*",
    coverage: null,
    closest_distance_m: 500,
  });

  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
  });
  afterAll(async () => dispose?.());

  it("tells each new event once to the rules whose cities and severity it meets", async () => {
    const box = new SecretBox(Buffer.alloc(32, 3));
    const { row } = await createDestination(
      store,
      {
        account: "a",
        destination: { kind: "webhook", name: "d", url: "https://93.184.216.34/" },
        box,
        now: clock.now(),
        settings: config.alerts,
      },
      { resolve: async () => [], allowLoopback: false },
    );
    const rule = await createRule(store, {
      account: "a",
      rule: {
        name: "Bakhmut",
        kind: "territory_event",
        filters: { cities: ["bakhmut"], min_severity: "MEDIUM" },
        destination_ids: [row.id],
      },
      now: clock.now(),
      settings: config.alerts,
    });
    const isw = iswDb(store.db);
    const alerts = new TerritoryAlerts({ store, config, clock, logger: createLogger("silent") });
    await isw
      .insertInto("isw_events")
      .values([
        event("Bakhmut", "CRITICAL", "CAPTURED"),
        event("Bakhmut", "LOW"),
        event("Chasiv Yar", "CRITICAL", "CAPTURED"),
      ])
      .execute();
    expect(await alerts.look()).toBe(1);
    await isw
      .insertInto("isw_events")
      .values([event("Bakhmut", "HIGH"), event("Bakhmut", "LOW"), event("Chasiv Yar", "CRITICAL", "CAPTURED")])
      .execute();
    expect(await alerts.look()).toBe(1);
    expect(await alerts.look()).toBe(0);
    const told = await alertsDb(store.db)
      .selectFrom("alert_deliveries")
      .selectAll()
      .where("rule_id", "=", rule.id)
      .orderBy("id")
      .execute();
    expect(told.map((d) => (JSON.parse(d.payload) as AlertEvent).territory?.event_type)).toEqual([
      "CAPTURED",
      "THREAT_HIGH",
    ]);
    const stored = told[1];
    const alert = JSON.parse(stored!.payload) as AlertEvent;
    expect(alert).toMatchObject({
      type: "alert.territory_event",
      trade: null,
      territory: {
        city: "Bakhmut",
        event_type: "THREAT_HIGH",
        severity: "HIGH",
        subscription_label: "Bakhmut (centre)",
      },
      links: { territory: "https://pelagic.example/#/territory" },
    });
    const input = { messageId: "m", nowSeconds: clock.now(), telegramApiUrl: "https://93.184.216.34" };
    const telegram = JSON.parse(formatAlert("telegram", alert, { bot_token: "1:x", chat_id: "7" }, input).body);
    expect(telegram.text).toContain("THREAT_HIGH in Bakhmut (HIGH)");
    const discord = JSON.parse(formatAlert("discord", alert, { url: "https://93.184.216.34/d" }, input).body);
    expect(discord.embeds[0]).toMatchObject({ url: "https://pelagic.example/#/territory" });
    const slack = JSON.parse(formatAlert("slack", alert, { url: "https://93.184.216.34/s" }, input).body);
    expect(slack.blocks.map((b: { type: string }) => b.type)).toEqual(["header", "section", "context"]);
    const webhook = JSON.parse(
      formatAlert("webhook", alert, { url: "https://93.184.216.34/w", secret: "whsec_AAAA" }, input).body,
    );
    expect(webhook).toMatchObject({ type: "alert.territory_event", data: { territory: { city: "Bakhmut" } } });
  });
});
