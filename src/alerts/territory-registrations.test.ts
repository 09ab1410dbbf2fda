/**
 * Territory webhook registrations delivered as alerts, on every store backend, to a receiver on loopback: the body
 * the registration promised (the territory event as data), signatures checked with the Standard Webhooks algorithm
 * written out here (not the signer), retries on 500 and on 429 with Retry-After, 410 disabling the destination, a
 * delivery picked up by a new worker after a restart mid-retry, the timeout, redirects not followed, connections
 * pinned to the address the SSRF check approved, and one delivery per registration and event.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { loadConfig, type Config } from "../config/index.js";
import { webhookPayload } from "../isw/event-view.js";
import { insertEvent } from "../isw/monitor-store.js";
import { iswDb } from "../isw/tables.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import { DeliveryWorker } from "./delivery-worker.js";
import { alertsDb } from "./tables.js";
import { TerritoryAlerts } from "./territory-alerts.js";
import { registerTerritoryWebhook, unregisterTerritoryWebhook, type CitySelection } from "./territory-registrations.js";
import { startReceiver, type Receiver } from "./webhooks/receiver.js";
import { SecretBox } from "./webhooks/secret-box.js";
import type { Resolver } from "./webhooks/ssrf.js";

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

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(storeBackends)("territory webhooks delivered as alerts on $kind", (backend) => {
  let store: Store;
  let disposeStore: (() => Promise<void>) | undefined;
  let receiver: Receiver | undefined;
  let config: Config;
  let territory: TerritoryAlerts;
  const workers: DeliveryWorker[] = [];
  const clock = new ManualClock(Date.UTC(2026, 0, 10, 12));
  const box = new SecretBox(randomBytes(32));

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await receiver?.close();
    await disposeStore?.();
  });

  async function setUp(env: Record<string, string> = {}, resolve?: Resolver) {
    ({ store, dispose: disposeStore } = await backend.open());
    receiver = await startReceiver();
    config = loadConfig({ ALERTS_ALLOW_LOOPBACK: "true", ALERTS_POLL_MS: "10", ...env });
    territory = new TerritoryAlerts({ store, config, clock, logger: createLogger("silent") });
    const worker = async () => {
      const w = new DeliveryWorker({
        store,
        clock,
        logger: createLogger("silent"),
        config,
        box: () => box,
        resolve,
        random: () => 0,
      });
      workers.push(w);
      await w.start();
      return w;
    };
    return { worker };
  }

  const register = (url: string, cities: CitySelection = "all") =>
    registerTerritoryWebhook(store, { account: "acme", url: new URL(url), cities, box, now: clock.now(), config });

  let nextSubscription = 1;
  async function publish(city = "Bakhmut") {
    const event = await insertEvent(iswDb(store.db), {
      subscription_id: nextSubscription++,
      city,
      event_type: "CAPTURED",
      severity: "CRITICAL",
      severity_rank: 4,
      previous_severity: "HIGH",
      details: `All of ${city}: 98.5% of the area shaded`,
      created_at: clock.now(),
      map_version_id: 7,
      check_type: "entirety",
      subscription_label: `All of ${city}`,
      market_slug_pattern: "will-russia-capture-all-of-*",
      coverage: 0.985,
      closest_distance_m: 0,
    });
    await territory.look();
    return event;
  }

  const deliveries = () => alertsDb(store.db).selectFrom("alert_deliveries").selectAll().orderBy("id").execute();
  const destination = () => alertsDb(store.db).selectFrom("alert_destinations").selectAll().executeTakeFirstOrThrow();

  /** Waits (woken workers, real time) until the deliveries meet `done`; returns them. */
  async function settled(done: (rows: Awaited<ReturnType<typeof deliveries>>) => boolean) {
    for (let i = 0; i < 300; i++) {
      const rows = await deliveries();
      if (done(rows)) return rows;
      for (const w of workers) w.wake();
      await pause(10);
    }
    throw new Error(`deliveries never settled: ${JSON.stringify(await deliveries())}`);
  }
  const attemptsOf = (index: number, attempts: number) => (rows: Awaited<ReturnType<typeof deliveries>>) =>
    Number(rows[index]?.attempts ?? 0) >= attempts;

  it("signs each delivery as Standard Webhooks specifies, with the territory event as data", async () => {
    const { worker } = await setUp();
    const { secret } = await register(receiver!.url);
    const event = await publish();
    await worker();
    const [delivered] = await settled((rows) => rows[0]?.status === "delivered");
    const [request] = receiver!.received;
    expect(verifies(secret!, request!.headers, request!.body)).toBe(true);
    expect(verifies(`whsec_${randomBytes(32).toString("base64")}`, request!.headers, request!.body)).toBe(false);
    expect(verifies(secret!, request!.headers, request!.body.replace("98.5", "99.5"))).toBe(false);
    expect(request!.headers["webhook-id"]).toBe(delivered!.message_id);
    expect(Number(request!.headers["webhook-timestamp"])).toBe(clock.now());
    expect(request!.body).toBe(webhookPayload(event));
    expect(JSON.parse(request!.body)).toMatchObject({
      type: "isw.captured",
      timestamp: new Date(event.created_at * 1000).toISOString(),
      data: { id: event.id, event_type: "CAPTURED", city: "Bakhmut", severity: "CRITICAL", map_version_id: 7 },
    });
    expect(delivered).toMatchObject({
      status: "delivered",
      attempts: 1,
      last_status: 200,
      event_key: `isw:${event.id}`,
    });
  });

  it("retries a 429 no sooner than its Retry-After, then a 500 on the schedule, with the same webhook-id", async () => {
    const { worker } = await setUp();
    await register(receiver!.url);
    receiver!.answers = [{ status: 429, headers: { "retry-after": "120" } }, { status: 500 }];
    await publish();
    await worker();
    let [row] = await settled(attemptsOf(0, 1));
    expect(row).toMatchObject({ status: "pending", last_status: 429 });
    expect(Number(row!.next_attempt_at)).toBe(clock.now() + 120);
    clock.advance(119_000);
    await pause(100);
    expect(Number((await deliveries())[0]!.attempts)).toBe(1);
    clock.advance(1_000);
    [row] = await settled(attemptsOf(0, 2));
    expect(row).toMatchObject({ status: "pending", last_status: 500 });
    expect(Number(row!.next_attempt_at)).toBe(clock.now() + 300);
    clock.advance(300_000);
    [row] = await settled((rows) => rows[0]?.status === "delivered");
    expect(Number(row!.attempts)).toBe(3);
    const ids = receiver!.received.map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
  });

  it("retries a 500 after the schedule's 5 s, and takes a Retry-After date", async () => {
    const { worker } = await setUp();
    await register(receiver!.url);
    receiver!.answers = [
      { status: 500 },
      { status: 503, headers: { "retry-after": new Date(clock.nowMs() + 3_600_000).toUTCString() } },
    ];
    await publish();
    await worker();
    let [row] = await settled(attemptsOf(0, 1));
    expect(Number(row!.next_attempt_at)).toBe(clock.now() + 5);
    clock.advance(5_000);
    [row] = await settled(attemptsOf(0, 2));
    expect(row).toMatchObject({ last_status: 503 });
    expect(Number(row!.next_attempt_at)).toBe(clock.now() + 3_595);
  });

  it("disables the destination on 410 with its reason, cancels what it had pending, queues nothing more, and a new registration enables it", async () => {
    const { worker } = await setUp();
    await register(receiver!.url);
    receiver!.answers = [{ status: 500 }, { status: 410 }];
    await publish();
    await worker();
    await settled(attemptsOf(0, 1));
    await publish();
    await settled((rows) => rows[1]?.status === "failed");
    expect(await destination()).toMatchObject({ status: "disabled" });
    expect((await destination()).disabled_reason).toContain("410");
    expect((await deliveries()).map((x) => x.status)).toEqual(["cancelled", "failed"]);
    await publish();
    expect(await deliveries()).toHaveLength(2);
    expect(await register(receiver!.url)).toMatchObject({ status: "updated", secret: null });
    expect(await destination()).toMatchObject({ status: "active", disabled_reason: null });
    await publish();
    await settled((rows) => rows[2]?.status === "delivered");
    expect(receiver!.received).toHaveLength(3);
  });

  it("delivers after a restart in the middle of the retries, and gives up when the schedule ends", async () => {
    const { worker } = await setUp({ ISW_WEBHOOK_RETRY_SCHEDULE: "0,5,60" });
    await register(receiver!.url);
    receiver!.answers = [{ status: 503 }, { status: 200 }];
    await publish();
    const first = await worker();
    await settled(attemptsOf(0, 1));
    await first.stop();
    clock.advance(5_000);
    await worker();
    expect((await settled((rows) => rows[0]?.status === "delivered"))[0]).toMatchObject({ attempts: 2 });

    receiver!.answers = [{ status: 500 }, { status: 500 }, { status: 500 }];
    await publish();
    await settled(attemptsOf(1, 1));
    clock.advance(5_000);
    await settled(attemptsOf(1, 2));
    clock.advance(60_000);
    const rows = await settled((all) => all[1]?.status === "failed");
    expect(rows[1]).toMatchObject({ attempts: 3, last_status: 500 });
  });

  it("counts a receiver silent past the timeout, and a redirect (not followed), as failures", async () => {
    const { worker } = await setUp({ ALERTS_TIMEOUT_SECONDS: "1" });
    await register(receiver!.url);
    receiver!.answers = [
      { hang: true, status: 200 },
      { status: 302, headers: { location: `${receiver!.url}/elsewhere` } },
    ];
    await publish();
    await worker();
    expect((await settled(attemptsOf(0, 1)))[0]).toMatchObject({
      status: "pending",
      last_status: null,
      last_error: "no answer within 1 s",
    });
    clock.advance(5_000);
    expect((await settled(attemptsOf(0, 2)))[0]).toMatchObject({
      status: "pending",
      last_status: 302,
      last_error: "HTTP 302 (redirects are not followed)",
    });
    expect(receiver!.received.map((r) => r.path)).toEqual(["/hook", "/hook"]);
  }, 15_000);

  it("connects to the address it checked: a name whose answer turns private is refused, and never reached", async () => {
    const answers = ["127.0.0.1", "10.0.0.7"];
    const resolve: Resolver = async () => [{ address: answers.shift() ?? "10.0.0.7", family: 4 }];
    const { worker } = await setUp({}, resolve);
    await register(`http://hooks.example.test:${receiver!.port}/hook`);
    await publish();
    await worker();
    await settled((rows) => rows[0]?.status === "delivered");
    await publish();
    const rows = await settled(attemptsOf(1, 1));
    expect(receiver!.received).toHaveLength(1);
    expect(rows[1]).toMatchObject({
      status: "pending",
      last_error: "hooks.example.test does not resolve to public addresses only",
    });
  });

  it("refuses loopback at delivery time without ALERTS_ALLOW_LOOPBACK", async () => {
    const { worker } = await setUp();
    await register(receiver!.url);
    await publish();
    config = loadConfig({ ALERTS_POLL_MS: "10" });
    await worker();
    const [row] = await settled(attemptsOf(0, 1));
    expect(receiver!.received).toHaveLength(0);
    expect(row).toMatchObject({ status: "pending", last_error: "is a loopback address" });
  });

  it("queues an event once per registration that wants its city and sends it once, whatever the repeats", async () => {
    const { worker } = await setUp();
    await register(receiver!.url);
    await register(`${receiver!.url}?second`, ["Chasiv Yar"]);
    await publish("Bakhmut");
    expect(await territory.look()).toBe(0);
    expect(await deliveries()).toHaveLength(1);
    await Promise.all([worker(), worker()]);
    await settled((rows) => rows[0]?.status === "delivered");
    await pause(50);
    expect(receiver!.received).toHaveLength(1);
  });

  it("unregisters some cities, then the whole registration with its rule, destination and pending deliveries", async () => {
    await setUp();
    await register(receiver!.url, ["Bakhmut", "Orikhiv"]);
    const url = new URL(receiver!.url);
    const input = { account: "acme", url, box, now: clock.now(), config };
    expect(await unregisterTerritoryWebhook(store, { ...input, cities: ["Orikhiv"] })).toEqual({
      status: "updated",
      cities: ["Bakhmut"],
    });
    await publish("Orikhiv");
    await publish("Bakhmut");
    expect((await deliveries()).map((d) => d.event_key)).toHaveLength(1);
    expect(await unregisterTerritoryWebhook(store, { ...input, cities: "all" })).toEqual({
      status: "unregistered",
      cities: [],
    });
    expect((await deliveries()).map((d) => d.status)).toEqual(["cancelled"]);
    const db = alertsDb(store.db);
    expect(await db.selectFrom("alert_rules").select("id").execute()).toEqual([]);
    expect(await db.selectFrom("alert_destinations").select("id").execute()).toEqual([]);
    expect(await unregisterTerritoryWebhook(store, { ...input, cities: "all" })).toBeNull();
  });
});
