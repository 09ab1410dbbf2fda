/**
 * The territory part of `pelagic demo`: the simulated venue replays the real snapshots a day every --isw-step
 * seconds, the monitor probes them as fast as its busy cadence allows and confirms captures at the next day's
 * update, and a webhook receiver on loopback, registered through the API with a demo key, prints each signed
 * delivery as it arrives.
 */
import { createKey, revokeAccountKeys } from "../accounts/keys.js";
import type { Config } from "../config/index.js";
import { deleteDestination, listDestinations } from "../alerts/destinations.js";
import { deleteRule, listRules } from "../alerts/rules.js";
import { startReceiver, type Received } from "../alerts/webhooks/receiver.js";
import { signatureOf } from "../alerts/webhooks/signing.js";
import type { Service } from "../runtime/index.js";

const DEMO_ACCOUNT = "demo-webhooks";

/** A day of the map passes every few seconds: probe at the busy cadence, confirm at the next update, deliver to loopback. */
export function demoTerritoryConfig(config: Config): Config {
  return {
    ...config,
    isw: {
      ...config.isw,
      slowProbeSeconds: config.isw.fastProbeSeconds,
      confirmAfterHours: 0,
    },
    alerts: { ...config.alerts, allowLoopback: true },
  };
}

export interface DemoWebhook {
  readonly receiverUrl: string;
  close(): Promise<void>;
}

function describeDelivery(received: Received, secret: string | null): string {
  const headers = received.headers;
  const signed =
    secret !== null &&
    headers["webhook-signature"] ===
      signatureOf(secret, String(headers["webhook-id"]), Number(headers["webhook-timestamp"]), received.body);
  try {
    const { data } = JSON.parse(received.body) as { data: { event_type: string; city: string; details: string } };
    return `webhook received ${headers["webhook-id"]} ${data.event_type} (${data.city}): ${data.details} [signature ${signed ? "verified" : "NOT verified"}]`;
  } catch {
    return `webhook received ${headers["webhook-id"]}: a body that is not JSON`;
  }
}

/** Starts the receiver and registers it (after dropping the demo account's registrations of earlier runs). */
export async function startDemoWebhook(service: Service, print: (line: string) => void): Promise<DemoWebhook> {
  const { store } = service;
  const now = service.platform.clock.now();
  for (const old of await listRules(store, DEMO_ACCOUNT)) await deleteRule(store, DEMO_ACCOUNT, old.id, now * 1_000);
  for (const old of await listDestinations(store, DEMO_ACCOUNT))
    await deleteDestination(store, DEMO_ACCOUNT, old.id, now * 1_000);
  const receiver = await startReceiver("/isw-webhook");
  await revokeAccountKeys(service.store.db, DEMO_ACCOUNT, now);
  const { key } = await createKey(service.store.db, { account: DEMO_ACCOUNT, plan: "premium", now });
  const response = await fetch(`${service.url}/api/v2/isw/webhook/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ url: receiver.url, cities: "all" }),
  });
  const registration = (await response.json()) as { secret?: string | null; detail?: unknown };
  if (!response.ok) print(`  (the demo's webhook registration failed: ${JSON.stringify(registration.detail)})`);
  const secret = registration.secret ?? null;
  receiver.onRequest = (received) => print(describeDelivery(received, secret));
  return { receiverUrl: receiver.url, close: () => receiver.close() };
}

/** The demo's territory lines of "Open:". */
export function territoryShowcase(url: string, webhook: DemoWebhook): string[] {
  return [
    `${url}/api/v2/isw/status   (territory: cities, threat levels, linked markets; the map moves a day every --isw-step seconds)`,
    `${url}/api/v2/isw/events?hours=720   (CAPTURED, THREAT_*, CAPTURE_CONFIRMED... as the snapshots advance)`,
    `${url}/api/v2/isw/status-summary`,
    `webhook deliveries to ${webhook.receiverUrl} print here as "webhook received ..." lines`,
  ];
}
