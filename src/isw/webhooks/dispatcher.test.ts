/**
 * Webhook deliveries to a receiver on loopback, on every store backend: signatures checked with the Standard
 * Webhooks algorithm written out here (not the signer), retries on 500 and on 429 with Retry-After, 410 disabling
 * the endpoint, a delivery picked up again by a new dispatcher after a restart mid-retry, the timeout, redirects
 * not followed, and connections pinned to the address the SSRF check approved.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../../test/support/backends.js";
import { loadConfig } from "../../config/index.js";
import { ManualClock } from "../../platform/clock.js";
import { createLogger } from "../../platform/logger.js";
import type { Store } from "../../store/database.js";
import { insertEvent } from "../monitor-store.js";
import { iswDb } from "../tables.js";
import { startReceiver, type Receiver } from "./receiver.js";
import { WebhookDispatcher } from "./dispatcher.js";
import { enqueueDeliveries, registerEndpoint } from "./endpoints.js";
import { SecretBox } from "./secret-box.js";
import type { Resolver } from "./ssrf.js";

/** The Standard Webhooks verification, as its specification writes it. */
function verifies(secret: string, headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key)
    .update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`)
    .digest();
  return String(headers["webhook-signature"])
    .split(" ")
    .some((part) => {
      const [version, signature] = part.split(",");
      const given = Buffer.from(signature ?? "", "base64");
      return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

describe.each(storeBackends)("webhook deliveries on $kind", (backend) => {
  let store: Store;
  let disposeStore: (() => Promise<void>) | undefined;
  let receiver: Receiver | undefined;
  const dispatchers: WebhookDispatcher[] = [];
  const clock = new ManualClock(Date.UTC(2026, 0, 10, 12));
  const box = new SecretBox(randomBytes(32));

  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
    await receiver?.close();
    await disposeStore?.();
  });

  async function setUp(env: Record<string, string> = {}, resolve?: Resolver) {
    ({ store, dispose: disposeStore } = await backend.open());
    receiver = await startReceiver();
    const config = loadConfig({ ISW_WEBHOOK_ALLOW_LOOPBACK: "true", ...env });
    const dispatcher = () => {
      const d = new WebhookDispatcher({
        store,
        clock,
        logger: createLogger("silent"),
        box,
        isw: config.isw,
        resolve,
        random: () => 0,
      });
      dispatchers.push(d);
      return d;
    };
    return { config, dispatcher };
  }

  async function register(url: string, cities: "all" | string[] = "all") {
    return registerEndpoint(iswDb(store.db), {
      account: "acme",
      url,
      cities,
      box,
      now: clock.now(),
      maxPerAccount: 10,
    });
  }

  let nextSubscription = 1;
  async function publish(city = "Bakhmut") {
    const db = iswDb(store.db);
    const event = await insertEvent(db, {
      subscription_id: nextSubscription++,
      city,
      event_type: "CAPTURED",
      severity: "CRITICAL",
      severity_rank: 4,
      previous_severity: "HIGH",
      details: "All of Bakhmut: 98.5% of the area shaded",
      created_at: clock.now(),
      map_version_id: 7,
      check_type: "entirety",
      subscription_label: "All of Bakhmut",
      market_slug_pattern: "will-russia-capture-all-of-bakhmut-by-*",
      coverage: 0.985,
      closest_distance_m: 0,
    });
    await enqueueDeliveries(db, event, clock.now());
    return event;
  }

  const deliveries = () => iswDb(store.db).selectFrom("isw_webhook_deliveries").selectAll().orderBy("id").execute();

  it("signs each delivery as Standard Webhooks specifies, with the event as data", async () => {
    const { dispatcher } = await setUp();
    const { secret } = await register(receiver!.url);
    const event = await publish();
    expect(await dispatcher().deliverDue()).toBe(1);
    const [request] = receiver!.received;
    expect(verifies(secret!, request!.headers, request!.body)).toBe(true);
    expect(verifies(`whsec_${randomBytes(32).toString("base64")}`, request!.headers, request!.body)).toBe(false);
    expect(verifies(secret!, request!.headers, request!.body.replace("98.5", "99.5"))).toBe(false);
    expect(request!.headers["webhook-id"]).toBe(`msg_isw_${event.id}`);
    expect(Number(request!.headers["webhook-timestamp"])).toBe(clock.now());
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({
      type: "isw.captured",
      timestamp: new Date(event.created_at * 1000).toISOString(),
      data: { id: event.id, event_type: "CAPTURED", city: "Bakhmut", severity: "CRITICAL" },
    });
    expect((await deliveries())[0]).toMatchObject({ status: "delivered", attempts: 1, last_status: 200 });
  });

  it("retries a 429 no sooner than its Retry-After, then a 500 on the schedule, with the same webhook-id", async () => {
    const { dispatcher } = await setUp();
    await register(receiver!.url);
    receiver!.answers = [{ status: 429, headers: { "retry-after": "120" } }, { status: 500 }];
    const d = dispatcher();
    await publish();
    await d.deliverDue();
    expect((await deliveries())[0]).toMatchObject({
      status: "pending",
      attempts: 1,
      last_status: 429,
      next_attempt_at: clock.now() + 120,
    });
    clock.advance(5_000);
    expect(await d.deliverDue()).toBe(0);
    clock.advance(115_000);
    expect(await d.deliverDue()).toBe(1);
    expect((await deliveries())[0]).toMatchObject({
      attempts: 2,
      last_status: 500,
      next_attempt_at: clock.now() + 300,
    });
    clock.advance(299_000);
    expect(await d.deliverDue()).toBe(0);
    clock.advance(1_000);
    await d.deliverDue();
    expect((await deliveries())[0]).toMatchObject({ status: "delivered", attempts: 3 });
    const ids = receiver!.received.map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
  });

  it("retries a 500 after the schedule's 5 s, and takes a Retry-After date", async () => {
    const { dispatcher } = await setUp();
    await register(receiver!.url);
    receiver!.answers = [
      { status: 500 },
      { status: 503, headers: { "retry-after": new Date(clock.nowMs() + 3_600_000).toUTCString() } },
    ];
    const d = dispatcher();
    await publish();
    await d.deliverDue();
    expect((await deliveries())[0]).toMatchObject({ last_status: 500, next_attempt_at: clock.now() + 5 });
    clock.advance(5_000);
    await d.deliverDue();
    expect((await deliveries())[0]).toMatchObject({
      attempts: 2,
      last_status: 503,
      next_attempt_at: clock.now() + 3_595,
    });
  });

  it("disables the endpoint on 410, cancels what it had pending, and queues nothing more for it", async () => {
    const { dispatcher } = await setUp();
    await register(receiver!.url);
    receiver!.answers = [{ status: 500 }, { status: 410 }];
    const d = dispatcher();
    await publish();
    await d.deliverDue();
    await publish();
    await d.deliverDue();
    const endpoint = await iswDb(store.db).selectFrom("isw_webhook_endpoints").selectAll().executeTakeFirstOrThrow();
    expect(endpoint).toMatchObject({ status: "disabled" });
    expect((await deliveries()).map((x) => x.status)).toEqual(["cancelled", "failed"]);
    await publish();
    expect(await deliveries()).toHaveLength(2);
    clock.advance(60_000);
    await d.deliverDue();
    expect(receiver!.received).toHaveLength(2);
  });

  it("delivers after a restart in the middle of the retries, and gives up when the schedule ends", async () => {
    const { dispatcher } = await setUp({ ISW_WEBHOOK_RETRY_SCHEDULE: "0,5,60" });
    await register(receiver!.url);
    receiver!.answers = [{ status: 503 }, { status: 200 }];
    await publish();
    const first = dispatcher();
    await first.deliverDue();
    await first.stop();
    clock.advance(5_000);
    await dispatcher().deliverDue();
    expect((await deliveries())[0]).toMatchObject({ status: "delivered", attempts: 2 });

    receiver!.answers = [{ status: 500 }, { status: 500 }, { status: 500 }];
    await publish();
    const d = dispatcher();
    for (const wait of [0, 5_000, 60_000]) {
      clock.advance(wait);
      await d.deliverDue();
    }
    expect((await deliveries())[1]).toMatchObject({ status: "failed", attempts: 3, last_status: 500 });
  });

  it("counts a receiver silent past the timeout, and a redirect (not followed), as failures", async () => {
    const { dispatcher } = await setUp({ ISW_WEBHOOK_TIMEOUT_SECONDS: "1" });
    await register(receiver!.url);
    receiver!.answers = [
      { hang: true, status: 200 },
      { status: 302, headers: { location: `${receiver!.url}/elsewhere` } },
    ];
    await publish();
    const d = dispatcher();
    await d.deliverDue();
    expect((await deliveries())[0]).toMatchObject({
      status: "pending",
      last_status: null,
      last_error: "no answer within 1 s",
    });
    clock.advance(5_000);
    await d.deliverDue();
    expect((await deliveries())[0]).toMatchObject({
      status: "pending",
      last_status: 302,
      last_error: "HTTP 302 (redirects are not followed)",
    });
    expect(receiver!.received.map((r) => r.path)).toEqual(["/hook", "/hook"]);
  }, 15_000);

  it("connects to the address it checked: a name whose answer turns private is refused, and never reached", async () => {
    const answers = ["127.0.0.1", "10.0.0.7"];
    const resolve: Resolver = async () => [{ address: answers.shift() ?? "10.0.0.7", family: 4 }];
    const { dispatcher } = await setUp({}, resolve);
    await register(`http://hooks.example.test:${receiver!.port}/hook`);
    await publish();
    const d = dispatcher();
    await d.deliverDue();
    expect(receiver!.received).toHaveLength(1);
    await publish();
    await d.deliverDue();
    expect(receiver!.received).toHaveLength(1);
    expect((await deliveries())[1]).toMatchObject({
      status: "pending",
      last_error: "hooks.example.test does not resolve to public addresses only",
    });
  });

  it("refuses loopback at delivery time without ISW_WEBHOOK_ALLOW_LOOPBACK", async () => {
    const { dispatcher } = await setUp({ ISW_WEBHOOK_ALLOW_LOOPBACK: "false" });
    await register(receiver!.url);
    await publish();
    await dispatcher().deliverDue();
    expect(receiver!.received).toHaveLength(0);
    expect((await deliveries())[0]).toMatchObject({ status: "pending", last_error: "is a loopback address" });
  });

  it("queues an event once per endpoint and sends it once, whatever the repeats", async () => {
    const { dispatcher } = await setUp();
    await register(receiver!.url);
    await register(`${receiver!.url}?second`, ["Chasiv Yar"]);
    const event = await publish();
    await enqueueDeliveries(iswDb(store.db), event, clock.now());
    expect(await deliveries()).toHaveLength(1);
    const d = dispatcher();
    await Promise.all([d.deliverDue(), d.deliverDue()]);
    expect(receiver!.received).toHaveLength(1);
  });
});
