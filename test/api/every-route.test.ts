/**
 * Every GET route of the OpenAPI document, called once with a real wallet and market of a simulated world, on
 * every store backend (SQLite, and PostgreSQL when TEST_DATABASE_URL is set): each answers 200 (202 or 302
 * where the contract says so) with JSON, never a 5xx. The family tests check the numbers; this one proves each
 * route's queries run on both dialects.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/accounts/keys.js";
import { decimalsOf } from "../../src/api/rounding.js";
import { storeBackends } from "../support/backends.js";
import { openWorldApp, type WorldApp } from "../support/world-app.js";
import {
  operationSubjects,
  operationUrls,
  recordTerritoryEvents,
  type OperationSubjects,
} from "../support/api/operations.js";

describe.each(storeBackends)("every GET route on $kind", (backend) => {
  let w: WorldApp;
  let key: string;
  let subjects: OperationSubjects;

  beforeAll(async () => {
    w = await openWorldApp({
      storeBackend: backend,
      env: {
        SMART_MIN_RESOLVED_MARKETS: "3",
        RATE_FREE_PER_MINUTE: "1000000",
        RATE_PREMIUM_PER_MINUTE: "1000000",
        ROUND_NUMBERS: "true",
      },
    });
    key = (await createKey(w.store.db, { account: "every-route", plan: "premium", now: w.now })).key;
    subjects = await operationSubjects(w.store, w.now);
    // The alerts' item routes name the account's destination and rule 1 (operations.ts).
    const post = (url: string, payload: object) =>
      w.app.inject({ method: "POST", url, headers: { "x-api-key": key }, payload });
    await post("/api/v2/alerts/destinations", { kind: "webhook", name: "every route", url: "https://93.184.216.34/" });
    await post("/api/v2/alerts/rules", { name: "every route", kind: "whale_trade", destination_ids: [1] });
    await recordTerritoryEvents(w.store);
  }, 120_000);
  afterAll(async () => w?.close());

  const urls = () => operationUrls(w.app, subjects);

  const call = (url: string, headers: Record<string, string> = {}) =>
    w.app.inject({ url, headers: { "x-api-key": key, authorization: `Bearer ${key}`, ...headers } });

  it("states an operation's cost in its description once, where it has one", async () => {
    const doc = (await w.app.inject({ url: "/api/openapi.json" })).json() as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    const counts = Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods).map((op) => (op.description ?? "").split("(header X-RateLimit-Consumed)").length - 1),
    );
    expect(counts.filter((n) => n === 1).length).toBeGreaterThan(0);
    expect(counts.filter((n) => n > 1)).toEqual([]);
  });

  it("answers every GET route with a 2xx or 3xx and JSON", async () => {
    const failures: string[] = [];
    let called = 0;
    for (const { template, url } of await urls()) {
      const response = await call(url);
      called++;
      // The AI analysis answers its first call 404 pending, as the contract says (its generation is then queued).
      const pending =
        response.statusCode === 404 && /ai-analysis$/.test(template) && response.json().status === "pending";
      const ok = response.statusCode === 200 || response.statusCode === 202 || response.statusCode === 302 || pending;
      const json = response.statusCode === 302 || /json/.test(String(response.headers["content-type"]));
      if (!ok || !json) failures.push(`${url} → ${response.statusCode} ${response.body.slice(0, 200)}`);
    }
    expect(called).toBeGreaterThan(40);
    expect(failures).toEqual([]);
  }, 120_000);

  it("gives every 200 answer an ETag (weak where a field is the request's own), and answers 304 without a body to If-None-Match while the answer is the same", async () => {
    const failures: string[] = [];
    let revalidated = 0;
    for (const { url } of await urls()) {
      for (const encoding of ["identity", "gzip"]) {
        const first = await call(url, { "accept-encoding": encoding });
        if (first.statusCode !== 200) continue;
        const etag = first.headers.etag;
        // Weak (W/) only where one field is this request's own (the searches' _elapsed_ms): the rest is the same.
        if (typeof etag !== "string" || !/^(W\/)?"[A-Za-z0-9_-]{27}(-gz)?"$/.test(etag)) {
          failures.push(`${url} (${encoding}): ETag ${etag}`);
          continue;
        }
        const again = await call(url, {
          "accept-encoding": encoding,
          "if-none-match": `"other", W/${etag.replace(/^W\//, "")}`,
        });
        if (again.statusCode === 304) {
          revalidated++;
          if (again.rawPayload.length !== 0 || again.headers.etag !== etag || again.headers.vary !== first.headers.vary)
            failures.push(`${url} (${encoding}): 304 with a body or other headers`);
        } else if (
          again.statusCode !== 200 ||
          again.headers.etag === etag ||
          again.rawPayload.equals(first.rawPayload)
        ) {
          // Only an answer that changed (a per-request field such as _elapsed_ms) may come back whole, with another ETag.
          failures.push(
            `${url} (${encoding}): ${again.statusCode} to If-None-Match ${etag}, ETag ${again.headers.etag}`,
          );
        }
        const stale = await call(url, { "accept-encoding": encoding, "if-none-match": '"stale"' });
        if (stale.statusCode !== 200)
          failures.push(`${url} (${encoding}): ${stale.statusCode} to a stale If-None-Match`);
      }
    }
    expect(failures).toEqual([]);
    expect(revalidated).toBeGreaterThan(60);
  }, 240_000);

  /** Calls `visit` with each number of `value` and the name of the field holding it (an array's items: the array's). */
  function eachNumber(value: unknown, visit: (key: string, n: number) => void, key = ""): void {
    if (typeof value === "number") visit(key, value);
    else if (Array.isArray(value)) for (const item of value) eachNumber(item, visit, key);
    else if (typeof value === "object" && value !== null)
      for (const [k, v] of Object.entries(value)) eachNumber(v, visit, k);
  }

  it("writes every number at its field's precision, and the sums the docs promise hold within it", async () => {
    const offPrecision: string[] = [];
    const bodies = new Map<string, unknown>();
    for (const { template, url } of await urls()) {
      const response = await call(url);
      if (response.statusCode !== 200) continue;
      const body = response.json();
      bodies.set(template, body);
      eachNumber(body, (key, n) => {
        const decimals = decimalsOf(key);
        if (decimals !== undefined && Math.round(n * 10 ** decimals) / 10 ** decimals !== n)
          offPrecision.push(`${template}: ${key} ${n}`);
      });
    }
    expect(offPrecision).toEqual([]);
    // Each side of an identity is rounded on its own: they agree within the sum of their half-steps.
    const positions = (
      bodies.get("/api/v2/wallet/{address}/positions") as {
        positions: Array<{ pnl: number; current_value: number; initial_value: number; pnl_pct: number }>;
      }
    ).positions;
    expect(positions.length).toBeGreaterThan(0);
    for (const p of positions) {
      expect(Math.abs(p.pnl - (p.current_value - p.initial_value))).toBeLessThanOrEqual(0.015 + 1e-9);
      // pnl_pct from the unrounded pnl and initial_value: each off by half a cent at most.
      const slack = 0.005 + 100 * (0.005 / p.initial_value + (Math.abs(p.pnl) * 0.005) / p.initial_value ** 2) + 1e-9;
      if (p.initial_value >= 1)
        expect(Math.abs(p.pnl_pct - (100 * p.pnl) / p.initial_value)).toBeLessThanOrEqual(slack);
    }
    const { stats } = bodies.get("/api/v2/wallet/{address}/overview") as {
      stats: { win_rate: number; wins: number; losses: number };
    };
    expect(Math.abs(stats.win_rate - (100 * stats.wins) / Math.max(1, stats.wins + stats.losses))).toBeLessThanOrEqual(
      0.005 + 1e-9,
    );
    const movers = (
      bodies.get("/api/analytics/top-movers") as {
        winners: Array<{ delta: number; pnl_now: number; sparkline: number[] }>;
      }
    ).winners;
    for (const m of movers) {
      expect(Math.abs(m.delta - (m.sparkline.at(-1)! - m.sparkline[0]!))).toBeLessThanOrEqual(0.005 + 0.0001 + 1e-9);
      expect(Math.abs(m.pnl_now - m.sparkline.at(-1)!)).toBeLessThanOrEqual(0.005 + 0.00005 + 1e-9);
    }
  }, 240_000);
});
