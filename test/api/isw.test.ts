/**
 * The territory endpoints over what the probe stored from the twelve real snapshots, on every store backend:
 * status (HEAD too, cached, last good answer while the store fails), counts, events and their filters (min_severity
 * at or above, checked against the unfiltered list), who may call what, and webhook registration.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/accounts/keys.js";
import { alertsDb } from "../../src/alerts/tables.js";
import { BUILT_IN_CITIES, type CityInput } from "../../src/isw/cities.js";
import { iswDb } from "../../src/isw/tables.js";
import { pointSubscriptions } from "../../src/isw/testing/bakhmut-places.js";
import { replayProbe } from "../../src/isw/testing/replay-probe.js";
import { marketRow } from "../../src/store/testing/market-row.js";
import { storeBackends } from "../support/backends.js";
import { openTestApp, type TestApp } from "../support/app.js";

const START = Date.UTC(2023, 4, 20, 18);
const LEVELS = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"];
const CITIES: CityInput[] = BUILT_IN_CITIES.map((city) =>
  city.name !== "Bakhmut" ? city : { ...city, subscriptions: [...city.subscriptions, ...pointSubscriptions()] },
);

interface EventJson {
  id: number;
  city: string;
  event_type: string;
  severity: string;
  check_type: string;
  subscription_id: number;
  timestamp: string;
}

describe.each(storeBackends)("territory endpoints on $kind", (backend) => {
  let t: TestApp;
  let premium: string;
  let free: string;

  beforeAll(async () => {
    t = await openTestApp({ storeBackend: backend, env: { ISW_CONFIRM_AFTER_HOURS: "0" } });
    t.clock.set(START);
    const run = replayProbe(t.store, { cities: CITIES, clock: t.clock, env: { ISW_CONFIRM_AFTER_HOURS: "0" } });
    for (let day = 0; day < 12; day++) await run.day(day);
    await t.store.db
      .insertInto("markets")
      .values(
        marketRow({
          id: "901",
          condition_id: `0x${"9".repeat(64)}`,
          question: "Will Russia capture all of Bakhmut by June 30?",
          slug: "will-russia-capture-all-of-bakhmut-by-june-30",
          category: "Geopolitics",
          price_yes: 0.93,
          price_no: 0.07,
          volume: 125_000,
          end_date: START / 1000 + 40 * 86_400,
          updated_at: START / 1000,
        }),
      )
      .execute();
    premium = (await createKey(t.store.db, { account: "analyst", plan: "premium", now: t.clock.now() })).key;
    free = (await createKey(t.store.db, { account: "reader", plan: "free", now: t.clock.now() })).key;
  }, 120_000);
  afterAll(async () => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
  const events = async (query: string) =>
    (await get(`/api/v2/isw/events?${query}`)).json() as { events: EventJson[]; count: number };

  it("answers the status of every city with its subscriptions, linked markets and map version (HEAD too)", async () => {
    const response = await get("/api/v2/isw/status");
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const bakhmut = body.cities.Bakhmut;
    expect(body.summary.total_cities).toBe(BUILT_IN_CITIES.length);
    expect(body.summary.total_subscriptions).toBe(CITIES.reduce((n, c) => n + c.subscriptions.length, 0));
    const counted = Object.values(body.summary.threats_by_subscription as Record<string, number>).reduce(
      (a, b) => a + b,
      0,
    );
    expect(counted).toBe(body.summary.total_subscriptions);
    expect(body.summary.captured_subscriptions).toBe(body.summary.threats_by_subscription.CRITICAL);
    const all = bakhmut.subscriptions.find((s: { label: string }) => s.label === "All of Bakhmut");
    expect(all).toMatchObject({
      check_type: "entirety",
      threat: "CRITICAL",
      market: { id: "901", price_yes: 0.93, volume: 125_000 },
    });
    expect(all.coverage).toBeGreaterThan(0.98);
    expect(all.geometry).toHaveLength(33);
    const centre = bakhmut.subscriptions.find((s: { label: string }) => s.label === "Bakhmut (centre)");
    expect(centre).toMatchObject({
      check_type: "single",
      point_shaded: true,
      closest_distance_m: 0,
      buffer_advance_m: 200,
    });
    expect(centre.market).toBeUndefined();
    expect(bakhmut.worst_threat).toBe("CRITICAL");
    expect(body.map.layers.advance.version_id).toBeGreaterThan(0);
    expect(body.cities.Zaporizhzhia.worst_threat).toBe("SAFE");
    const head = await t.app.inject({ method: "HEAD", url: "/api/v2/isw/status" });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe("");
    const summary = (await get("/api/v2/isw/status-summary")).json();
    expect(summary).toMatchObject({ ...body.summary, map_version_id: body.map.version_id, stale: false });
    expect(Object.values(summary.threats_by_city as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(
      BUILT_IN_CITIES.length,
    );
  });

  it("gives the shaded layers of the map the status measured, cut to the watched area, closed rings on the grid", async () => {
    const status = (await get("/api/v2/isw/status")).json();
    const body = (await get("/api/v2/isw/layers")).json() as {
      bbox: number[];
      grid_deg: number;
      layers: Array<{ layer: string; version_id: number; polygons: number[][][][] }>;
    };
    const measured = Object.fromEntries(
      Object.entries(status.map.layers as Record<string, { version_id: number }>).map(([layer, v]) => [
        layer,
        v.version_id,
      ]),
    );
    expect(Object.fromEntries(body.layers.map((l) => [l.layer, l.version_id]))).toEqual(measured);
    // The box holds every watched city, with the margin.
    for (const city of Object.values(status.cities as Record<string, { coordinates: { lon: number; lat: number } }>)) {
      expect(city.coordinates.lon).toBeGreaterThan(body.bbox[0]!);
      expect(city.coordinates.lat).toBeLessThan(body.bbox[3]!);
    }
    const control = body.layers.find((l) => l.layer === "control")!;
    expect(control.polygons.length).toBeGreaterThan(0);
    for (const ring of control.polygons.flat()) {
      expect(ring.length).toBeGreaterThanOrEqual(4);
      expect(ring[0]).toEqual(ring.at(-1));
      for (const [lon] of ring)
        expect(Math.abs(lon! / body.grid_deg - Math.round(lon! / body.grid_deg))).toBeLessThan(1e-6);
    }
  });

  it("keeps the status 45 s, and serves the last good one (stale) while the store fails", async () => {
    const first = (await get("/api/v2/isw/status")).json();
    await iswDb(t.store.db).updateTable("isw_subscription_state").set({ threat: "SAFE" }).execute();
    t.clock.advance(30_000);
    expect((await get("/api/v2/isw/status")).json()).toEqual(first);
    await sql`alter table isw_subscriptions rename to isw_subscriptions_away`.execute(t.store.db);
    t.clock.advance(20_000);
    const stale = (await get("/api/v2/isw/status")).json();
    expect(stale).toEqual({ ...first, stale: true });
    await sql`alter table isw_subscriptions_away rename to isw_subscriptions`.execute(t.store.db);
    t.clock.advance(1_000);
    const fresh = (await get("/api/v2/isw/status")).json();
    expect(fresh.stale).toBe(false);
    expect(fresh.summary.threats_by_subscription.SAFE).toBe(fresh.summary.total_subscriptions);
  });

  it("lists events newest first, filtered by min_severity (at or above), city, check_type and subscription", async () => {
    const all = await events("hours=720&limit=200");
    expect(all.count).toBe(all.events.length);
    expect(all.count).toBeGreaterThan(4);
    expect(new Set(all.events.map((e) => e.severity)).size).toBeGreaterThanOrEqual(3);
    expect(all.events.map((e) => e.id)).toEqual([...all.events.map((e) => e.id)].sort((a, b) => b - a));
    for (const level of LEVELS) {
      const filtered = await events(`hours=720&limit=200&min_severity=${level}`);
      const expected = all.events.filter((e) => LEVELS.indexOf(e.severity) >= LEVELS.indexOf(level));
      expect(
        filtered.events.map((e) => e.id),
        level,
      ).toEqual(expected.map((e) => e.id));
    }
    expect(
      (await events("hours=720&limit=200&min_severity=HIGH")).events.every((e) =>
        ["HIGH", "CRITICAL"].includes(e.severity),
      ),
    ).toBe(true);
    expect((await events("hours=720&city=bAKHMUT")).count).toBe(all.events.filter((e) => e.city === "Bakhmut").length);
    expect((await events("hours=720&city=Atlantis")).count).toBe(0);
    expect((await events("hours=720&check_type=entirety")).events.every((e) => e.check_type === "entirety")).toBe(true);
    const one = all.events[0]!.subscription_id;
    expect((await events(`hours=720&subscription_id=${one}`)).events.every((e) => e.subscription_id === one)).toBe(
      true,
    );
    expect((await events("hours=720&limit=2")).events).toEqual(all.events.slice(0, 2));
    const newest = Date.parse(all.events[0]!.timestamp) / 1000;
    const oldest = Date.parse(all.events[all.events.length - 1]!.timestamp) / 1000;
    const hours = Math.ceil((t.clock.now() - oldest) / 3_600) - 1;
    const windowed = await events(`hours=${hours}&limit=200`);
    expect(windowed.count).toBe(
      all.events.filter((e) => Date.parse(e.timestamp) / 1000 >= t.clock.now() - hours * 3_600).length,
    );
    expect(windowed.count).toBeLessThan(all.count);
    expect(newest).toBeLessThanOrEqual(t.clock.now());
  });

  it("refuses out-of-range and unknown parameters with a 422 naming them", async () => {
    for (const [query, name] of [
      ["hours=721", "hours"],
      ["hours=0", "hours"],
      ["limit=201", "limit"],
      ["min_severity=SEVERE", "min_severity"],
      ["check_type=point", "check_type"],
      ["subscription_id=-1", "subscription_id"],
      ["colour=red", "colour"],
    ]) {
      const response = await get(`/api/v2/isw/events?${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(JSON.stringify(response.json().detail), query).toContain(`"${name}"`);
    }
  });

  it("serves the public v1 twins free, and the Premium mirrors the same payload to the header each reads", async () => {
    const v2 = (await get("/api/v2/isw/events?hours=720")).json();
    expect((await get("/api/public/v1/isw/events?hours=720")).json()).toEqual(v2);
    expect((await get("/api/public/v1/isw/status")).statusCode).toBe(200);
    expect((await get("/api/v2/isw/premium/events?hours=720", { authorization: `Bearer ${premium}` })).json()).toEqual(
      v2,
    );
    expect((await get("/api/public/v1/isw/premium/events?hours=720", { "x-api-key": premium })).json()).toEqual(v2);
    expect((await get("/api/public/v1/isw/premium/status", { authorization: `Bearer ${premium}` })).statusCode).toBe(
      200,
    );
    expect((await get("/api/v2/isw/premium/status")).statusCode).toBe(401);
    const wrongHeader = await get("/api/v2/isw/premium/status", { "x-api-key": premium });
    expect(wrongHeader.statusCode).toBe(401);
    expect(wrongHeader.json().detail).toContain("Authorization: Bearer");
    expect((await get("/api/v2/isw/premium/events", { authorization: `Bearer ${free}` })).statusCode).toBe(403);
  });

  describe("webhook registration", () => {
    const call = (
      method: "POST" | "DELETE",
      payload: unknown,
      headers: Record<string, string> = { "x-api-key": premium },
      query = "",
    ) =>
      t.app.inject({
        method,
        url: `/api/v2/isw/webhook/${method === "POST" ? "register" : "unregister"}${query}`,
        headers,
        payload: payload as object,
      });

    it("needs a Premium key in X-API-Key", async () => {
      expect((await call("POST", { url: "https://93.184.216.34/hook" }, {})).statusCode).toBe(401);
      expect(
        (await call("POST", { url: "https://93.184.216.34/hook" }, { authorization: `Bearer ${premium}` })).statusCode,
      ).toBe(401);
      expect((await call("POST", { url: "https://93.184.216.34/hook" }, { "x-api-key": free })).statusCode).toBe(403);
    });

    it("shows the secret once, stores it encrypted, echoes `request`, and updates the cities on a repeat", async () => {
      const first = await call(
        "POST",
        { url: "https://93.184.216.34/hooks/isw", cities: "bakhmut, chasiv yar" },
        undefined,
        "?request=ticket-7",
      );
      expect(first.statusCode).toBe(201);
      const body = first.json();
      expect(body).toMatchObject({
        status: "registered",
        url: "https://93.184.216.34/hooks/isw",
        cities: "Bakhmut,Chasiv Yar",
        request: "ticket-7",
      });
      expect(body.secret).toMatch(/^whsec_/);
      // The registration is an alert rule of the account (its id) and a webhook destination whose secret is sealed.
      const rules = await t.app.inject({ url: "/api/v2/alerts/rules", headers: { "x-api-key": premium } });
      expect(rules.json().rules).toEqual([
        expect.objectContaining({
          id: body.id,
          kind: "territory_event",
          webhook_format: "isw",
          filters: expect.objectContaining({ cities: ["Bakhmut", "Chasiv Yar"] }),
          status: "active",
        }),
      ]);
      const [destination] = await alertsDb(t.store.db).selectFrom("alert_destinations").selectAll().execute();
      expect(destination).toMatchObject({ kind: "webhook", label: "https://93.184.216.34/hooks/isw" });
      expect(destination!.sealed).not.toContain(body.secret.slice(6));
      expect(destination!.sealed).not.toContain("93.184.216.34");
      const again = await call("POST", { url: "https://93.184.216.34/hooks/isw", cities: "all" });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({
        status: "updated",
        id: body.id,
        cities: "all",
        secret: null,
        request: null,
      });
      const removed = await call("DELETE", { url: "https://93.184.216.34/hooks/isw" });
      expect(removed.json()).toMatchObject({ status: "unregistered", cities: "" });
      expect((await call("DELETE", { url: "https://93.184.216.34/hooks/isw" })).statusCode).toBe(404);
    });

    it("refuses private, loopback, link-local and metadata targets, unknown cities and malformed bodies with a 422", async () => {
      for (const url of [
        "http://127.0.0.1:8080/hook",
        "http://localhost/hook",
        "http://10.1.2.3/",
        "http://[fe80::1]/",
        "http://169.254.169.254/latest/meta-data/",
        "ftp://example.com/x",
      ]) {
        const response = await call("POST", { url });
        expect(response.statusCode, url).toBe(422);
        expect(response.json().detail[0]).toMatchObject({ loc: ["body", "url"], type: "url_refused" });
      }
      const city = await call("POST", { url: "https://93.184.216.34/x", cities: "Bakhmut,Atlantis" });
      expect(city.json().detail[0]).toMatchObject({ loc: ["body", "cities"] });
      expect(city.json().detail[0].msg).toContain("Atlantis");
      for (const payload of [{}, { url: 5 }, { url: "https://93.184.216.34/x", extra: 1 }, { url: "x".repeat(3_000) }])
        expect((await call("POST", payload)).statusCode).toBe(422);
      const db = alertsDb(t.store.db);
      expect(await db.selectFrom("alert_rules").select("id").execute()).toEqual([]);
      expect(await db.selectFrom("alert_destinations").select("id").execute()).toEqual([]);
    });

    it("unregisters some cities of a registration, and limits the URLs of one account", async () => {
      await call("POST", { url: "https://93.184.216.34/a", cities: "Bakhmut,Orikhiv" });
      expect((await call("DELETE", { url: "https://93.184.216.34/a", cities: "orikhiv" })).json()).toMatchObject({
        status: "updated",
        cities: "Bakhmut",
      });
      for (let i = 0; i < 9; i++)
        expect((await call("POST", { url: `https://93.184.216.34/n${i}` })).statusCode).toBe(201);
      const over = await call("POST", { url: "https://93.184.216.34/one-more" });
      expect(over.statusCode).toBe(422);
      expect(over.json().detail[0].type).toBe("too_many_webhooks");
    });
  });

  it("documents every territory path, HEAD on the status, and the `request` parameter", async () => {
    const doc = (await get("/api/openapi.json")).json() as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; required?: boolean }> }>>;
    };
    const paths = Object.keys(doc.paths)
      .filter((p) => p.includes("/isw"))
      .sort();
    expect(paths).toEqual([
      "/api/public/v1/isw/events",
      "/api/public/v1/isw/premium/events",
      "/api/public/v1/isw/premium/status",
      "/api/public/v1/isw/status",
      "/api/v2/isw/events",
      "/api/v2/isw/events/{event_id}/ahead-of-news",
      "/api/v2/isw/layers",
      "/api/v2/isw/premium/events",
      "/api/v2/isw/premium/status",
      "/api/v2/isw/status",
      "/api/v2/isw/status-summary",
      "/api/v2/isw/webhook/register",
      "/api/v2/isw/webhook/unregister",
    ]);
    expect(Object.keys(doc.paths["/api/v2/isw/status"]!).sort()).toEqual(["get", "head"]);
    expect(doc.paths["/api/v2/isw/webhook/register"]!.post!.parameters).toEqual([
      expect.objectContaining({ name: "request", required: false }),
    ]);
  });
});
