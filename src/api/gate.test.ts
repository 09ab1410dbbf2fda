import { Writable } from "node:stream";
import { Type } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp } from "../../test/support/app.js";
import { announcerOn, createKey, revokeKey, rotateKey } from "../accounts/keys.js";
import { access, batch, heavy } from "./access.js";

let t: TestApp;
let premium: string;
let free: string;
const logs: string[] = [];

beforeAll(async () => {
  t = await openTestApp({
    logSink: new Writable({ write: (chunk, _enc, done) => (logs.push(chunk.toString()), done()) }),
    register: async (app) => {
      const ok = async () => ({ ok: true });
      app.get("/test/public", { config: { access: access.public } }, ok);
      app.get("/api/v2/test/premium", { config: { access: access.premiumXApiKey } }, ok);
      app.get("/api/public/v1/test/premium", { config: { access: access.premiumAnyHeader } }, ok);
      app.get("/api/v2/isw/premium/test", { config: { access: access.premiumBearer } }, ok);
      app.post("/api/v2/test/local", { config: { access: access.localOnly } }, ok);
      app.get("/test/heavy", { config: { access: heavy(access.public, 5) } }, ok);
      app.post(
        "/api/public/v1/test/batch",
        {
          config: { access: batch(access.premiumAnyHeader, "wallets") },
          schema: { body: Type.Object({ wallets: Type.Array(Type.String(), { maxItems: 50 }) }) },
        },
        async (request) => ({ n: (request.body as { wallets: string[] }).wallets.length }),
      );
    },
  });
  premium = (await createKey(t.store.db, { account: "whale-watcher", plan: "premium", now: t.clock.now() })).key;
  free = (await createKey(t.store.db, { account: "tyre-kicker", plan: "free", now: t.clock.now() })).key;
});
afterAll(async () => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });

describe("the header table", () => {
  // [route, header set that must work, header set the route does not read]
  const rows: Array<[string, (k: string) => Record<string, string>, ((k: string) => Record<string, string>) | null]> = [
    ["/api/public/v1/test/premium", (k) => ({ authorization: `Bearer ${k}` }), null],
    ["/api/public/v1/test/premium", (k) => ({ "x-api-key": k }), null],
    ["/api/v2/test/premium", (k) => ({ "x-api-key": k }), (k) => ({ authorization: `Bearer ${k}` })],
    ["/api/v2/isw/premium/test", (k) => ({ authorization: `Bearer ${k}` }), (k) => ({ "x-api-key": k })],
  ];

  it.each(rows)("%s: 401 missing, 401 invalid, 403 free plan, 200 premium", async (url, send, wrong) => {
    const missing = await get(url);
    expect(missing.statusCode).toBe(401);
    expect(missing.json().detail).toMatch(/^Missing API key/);
    const invalid = await get(url, send("pelagic_" + "x".repeat(42)));
    expect(invalid.statusCode).toBe(401);
    expect(invalid.json().detail).toBe(
      "Invalid API key: no such key in the store this server reads, its SQLite store (DATA_DIR); a key is made with `pelagic keys create` against that same store",
    );
    const freePlan = await get(url, send(free));
    expect(freePlan.statusCode).toBe(403);
    expect(freePlan.json().detail).toMatch(/Premium plan/);
    const ok = await get(url, send(premium));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true });
    if (wrong) {
      const misplaced = await get(url, wrong(premium));
      expect(misplaced.statusCode).toBe(401);
      expect(misplaced.json().detail).toMatch(/header this endpoint does not read/);
    }
  });

  it("reads header names case-insensitively, and the Bearer scheme too", async () => {
    const variants: Array<Record<string, string>> = [
      { "X-API-KEY": premium },
      { "X-Api-Key": premium },
      { AUTHORIZATION: `bearer ${premium}` },
      { Authorization: `BEARER  ${premium}` },
    ];
    for (const headers of variants) {
      expect((await get("/api/public/v1/test/premium", headers)).statusCode).toBe(200);
    }
  });

  it("needs no key on public routes", async () => {
    expect((await get("/test/public")).statusCode).toBe(200);
  });
});

describe("rotation and revocation", () => {
  it("answer 401 from the next request on", async () => {
    const issued = await createKey(t.store.db, { account: "churner", plan: "premium", now: t.clock.now() });
    expect((await get("/api/v2/test/premium", { "x-api-key": issued.key })).statusCode).toBe(200);
    const rotated = await rotateKey(t.store.db, issued.prefix, t.clock.now(), announcerOn(t.platform.pubsub));
    const old = await get("/api/v2/test/premium", { "x-api-key": issued.key });
    expect(old.statusCode).toBe(401);
    expect(old.json().detail).toMatch(/rotated/);
    expect((await get("/api/v2/test/premium", { "x-api-key": rotated.key })).statusCode).toBe(200);
    await revokeKey(t.store.db, rotated.prefix, t.clock.now(), announcerOn(t.platform.pubsub));
    const revoked = await get("/api/v2/test/premium", { "x-api-key": rotated.key });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().detail).toMatch(/revoked/);
  });
});

describe("rate limits in one process (memory backend)", () => {
  it("lets exactly 600 of 700 Premium requests through, then 429 with Retry-After: 60", async () => {
    const { key } = await createKey(t.store.db, { account: "busy", plan: "premium", now: t.clock.now() });
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (let i = 0; i < 700; i++) {
      const res = await get("/api/v2/test/premium", { "x-api-key": key });
      statuses.push(res.statusCode);
      if (res.statusCode === 200) remaining.push(Number(res.headers["x-ratelimit-remaining"]));
      if (i === 0) expect(res.headers["x-ratelimit-limit"]).toBe("600");
      if (res.statusCode === 429) {
        expect(res.headers["retry-after"]).toBe("60");
        expect(res.json().detail).toMatch(/Rate limit exceeded/);
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(600);
    expect(statuses.slice(600).every((s) => s === 429)).toBe(true);
    expect(remaining).toEqual(Array.from({ length: 600 }, (_, i) => 599 - i));
    t.clock.advance(60_001);
    expect((await get("/api/v2/test/premium", { "x-api-key": key })).statusCode).toBe(200);
  });

  it("honours a per-key override", async () => {
    const { key } = await createKey(t.store.db, {
      account: "vip",
      plan: "premium",
      rateLimitPerMinute: 3,
      now: t.clock.now(),
    });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await get("/api/v2/test/premium", { "x-api-key": key })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  it("throttles free callers per IP at the free limit, and puts rate headers on every response", async () => {
    const ip = { remoteAddress: "203.0.113.9" };
    const first = await t.app.inject({ url: "/test/public", ...ip });
    expect(first.headers["x-ratelimit-limit"]).toBe("200");
    expect(first.headers["x-ratelimit-remaining"]).toBe("199");
    const notFound = await t.app.inject({ url: "/api/nope", ...ip });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.headers["x-ratelimit-remaining"]).toBe("198");
    const invalid = await t.app.inject({ url: "/api/v1/health?bogus=1", ...ip });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.headers["x-ratelimit-remaining"]).toBe("197");
    const refused = await t.app.inject({ url: "/api/v2/test/premium", ...ip });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["x-ratelimit-remaining"]).toBe("196");
    for (let i = 0; i < 196; i++) await t.app.inject({ url: "/test/public", ...ip });
    const limited = await t.app.inject({ url: "/test/public", ...ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBe("60");
    expect((await t.app.inject({ url: "/test/public", remoteAddress: "203.0.113.10" })).statusCode).toBe(200);
  });

  it("charges a batch call its wallet count and says so in X-RateLimit-Consumed", async () => {
    const { key } = await createKey(t.store.db, {
      account: "batcher",
      plan: "premium",
      rateLimitPerMinute: 30,
      now: t.clock.now(),
    });
    const call = (n: number) =>
      t.app.inject({
        method: "POST",
        url: "/api/public/v1/test/batch",
        headers: { authorization: `Bearer ${key}` },
        payload: { wallets: Array.from({ length: n }, (_, i) => `0x${i}`) },
      });
    const first = await call(20);
    expect(first.statusCode).toBe(200);
    expect(first.headers["x-ratelimit-consumed"]).toBe("20");
    expect(first.headers["x-ratelimit-remaining"]).toBe("10");
    // Over budget: the call was received (1), its wallets were not served.
    const refused = await call(11);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["x-ratelimit-consumed"]).toBe("1");
    expect(refused.headers["x-ratelimit-remaining"]).toBe("9");
    expect((await call(9)).headers["x-ratelimit-remaining"]).toBe("0");
  });

  it("charges a batch on receipt whatever its body: malformed JSON and too many wallets cost 1, not nothing or all", async () => {
    const { key } = await createKey(t.store.db, {
      account: "sloppy-batcher",
      plan: "premium",
      rateLimitPerMinute: 100,
      now: t.clock.now(),
    });
    const post = (payload: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/public/v1/test/batch",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        payload,
      });
    const malformed = await post("{nope");
    expect(malformed.statusCode).toBe(422);
    expect(malformed.headers["x-ratelimit-consumed"]).toBe("1");
    expect(malformed.headers["x-ratelimit-remaining"]).toBe("99");
    const tooMany = await post(JSON.stringify({ wallets: Array.from({ length: 51 }, (_, i) => `0x${i}`) }));
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.headers["x-ratelimit-consumed"]).toBe("1");
    expect(tooMany.headers["x-ratelimit-remaining"]).toBe("98");
  });

  it("charges an expensive read its declared cost", async () => {
    const ip = { remoteAddress: "203.0.113.77" };
    const first = await t.app.inject({ url: "/test/heavy", ...ip });
    expect(first.statusCode).toBe(200);
    expect(first.headers["x-ratelimit-consumed"]).toBe("5");
    expect(first.headers["x-ratelimit-remaining"]).toBe(String(200 - 5));
  });
});

describe("local-only routes", () => {
  it("answer the local host and hide from everyone else", async () => {
    expect(
      (await t.app.inject({ method: "POST", url: "/api/v2/test/local", remoteAddress: "127.0.0.1" })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: "POST", url: "/api/v2/test/local", remoteAddress: "::1" })).statusCode).toBe(
      200,
    );
    const external = await t.app.inject({ method: "POST", url: "/api/v2/test/local", remoteAddress: "198.51.100.7" });
    expect(external.statusCode).toBe(404);
    expect(external.json()).toEqual({ detail: "Not Found" });
    const proxied = await t.app.inject({
      method: "POST",
      url: "/api/v2/test/local",
      remoteAddress: "127.0.0.1",
      headers: { "x-forwarded-for": "198.51.100.7" },
    });
    expect(proxied.statusCode).toBe(404);
  });
});

describe("GET /api/v2/key/verify", () => {
  const verify = (headers: Record<string, string> = {}) =>
    get("/api/v2/key/verify", headers).then((r) => (expect(r.statusCode).toBe(200), r.json()));

  it("answers without a key", async () => {
    expect(await verify()).toMatchObject({
      valid: false,
      premium: false,
      problem: "missing_key",
      key_prefix: null,
      header: null,
    });
  });

  it("tells a working Premium key, showing only its prefix", async () => {
    const body = await verify({ "x-api-key": premium });
    expect(body).toMatchObject({ valid: true, premium: true, problem: null, plan: "premium", header: "X-API-Key" });
    expect(body.key_prefix).toBe(premium.slice(0, 18));
    expect(JSON.stringify(body)).not.toContain(premium);
    expect(body.rate_limit.limit).toBe(600);
  });

  it("tells a subscription problem, a key problem and a header problem apart", async () => {
    expect(await verify({ authorization: `Bearer ${free}` })).toMatchObject({
      valid: true,
      premium: false,
      problem: "subscription",
      plan: "free",
    });
    expect(await verify({ "x-api-key": "pelagic_" + "y".repeat(42) })).toMatchObject({
      valid: false,
      problem: "invalid_key",
    });
    expect(await verify({ authorization: `Token ${premium}` })).toMatchObject({ problem: "header" });
    expect(await verify({ "x-api-key": `Bearer ${premium}` })).toMatchObject({ problem: "header" });
    const revoked = await createKey(t.store.db, { account: "gone", plan: "premium", now: t.clock.now() });
    await revokeKey(t.store.db, revoked.prefix, t.clock.now(), announcerOn(t.platform.pubsub));
    expect(await verify({ "x-api-key": revoked.key })).toMatchObject({
      problem: "revoked_key",
      key_prefix: revoked.prefix,
    });
  });
});

describe("OpenAPI", () => {
  it("documents security and the 401, 403 and 429 bodies of gated routes", async () => {
    const doc = (await get("/api/openapi.json")).json();
    const op = doc.paths["/api/v2/test/premium"].get;
    expect(op.security).toEqual([{ ApiKeyHeader: [] }]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["401", "403", "422", "429"]));
    expect(op.responses["401"].content["application/json"].schema.properties.detail.type).toBe("string");
    expect(doc.components.securitySchemes.BearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths["/api/v2/isw/premium/test"].get.security).toEqual([{ BearerAuth: [] }]);
  });
});

describe("logs", () => {
  it("never contain a key", async () => {
    expect(logs.length).toBeGreaterThan(100);
    const all = logs.join("");
    expect(all).not.toContain(premium);
    expect(all).not.toContain(free);
    expect(all).not.toContain(premium.slice(18));
  });
});
