import { afterEach, describe, expect, it } from "vitest";
import {
  VenueHttpClient,
  VenueHttpError,
  VenueUnavailableError,
  buildUrl,
  parseRetryAfter,
  type VenueHttpEvent,
  type VenueHttpOptions,
} from "./http.js";
import { pathLimit } from "./pacing.js";
import { fakeTime } from "./testing/fake-time.js";
import { startLoopback, type Loopback, type LoopbackHandler } from "./testing/loopback.js";

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(handler: LoopbackHandler, options: Partial<VenueHttpOptions> = {}) {
  server = await startLoopback(handler);
  const time = fakeTime();
  const events: VenueHttpEvent[] = [];
  const client = new VenueHttpClient({
    name: "test",
    baseUrl: server.url,
    timeoutMs: 2_000,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0,
    onEvent: (e) => events.push(e),
    ...options,
  });
  return { client, time, events, server };
}

describe("buildUrl", () => {
  it("repeats array parameters and leaves out absent ones", () => {
    const url = buildUrl("https://gamma.example/", "/markets", {
      condition_ids: ["0xa", "0xb"],
      closed: true,
      limit: 5,
      offset: undefined,
      tag: null,
    });
    expect(url.toString()).toBe(
      "https://gamma.example/markets?condition_ids=0xa&condition_ids=0xb&closed=true&limit=5",
    );
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    expect(parseRetryAfter("7", now)).toBe(7_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
  });
});

describe("VenueHttpClient retries", () => {
  it("retries 429 after the Retry-After pause, then succeeds", async () => {
    let calls = 0;
    const { client, time, events } = await setup(() =>
      ++calls < 3 ? { status: 429, body: { error: "slow down" }, headers: { "retry-after": "3" } } : { body: [1, 2] },
    );
    const response = await client.get("/trades");
    expect(response.body).toEqual([1, 2]);
    expect(response.attempts).toBe(3);
    expect(time.sleeps).toEqual([3_000, 3_000]);
    expect(events.map((e) => e.type)).toEqual(["retry", "retry"]);
  });

  it("backs off exponentially with full jitter on 5xx", async () => {
    let calls = 0;
    const { client, time } = await setup(
      () => (++calls < 4 ? { status: 503, text: "<html>busy</html>" } : { body: { ok: true } }),
      {
        random: () => 0.5,
        backoffBaseMs: 100,
      },
    );
    await client.get("/x");
    expect(time.sleeps).toEqual([50, 100, 200]);
  });

  it("retries a dropped connection", async () => {
    let calls = 0;
    const { client } = await setup(() => (++calls === 1 ? "drop" : { body: "fine" }));
    expect((await client.get("/x")).body).toBe("fine");
    expect(calls).toBe(2);
  });

  it("gives up with VenueUnavailableError after maxAttempts", async () => {
    const { client, time, server, events } = await setup(() => ({ status: 500, body: { error: "boom" } }), {
      maxAttempts: 4,
    });
    const error = await client.get("/positions").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueUnavailableError);
    expect(error).toMatchObject({ attempts: 4, lastStatus: 500, path: "/positions", retryAfterMs: null });
    expect(server.requests).toHaveLength(4);
    expect(time.sleeps).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: "unavailable", attempts: 4, status: 500 });
  });

  it("gives up at once when Retry-After exceeds what it may wait", async () => {
    const { client, server } = await setup(() => ({ status: 429, headers: { "retry-after": "3600" } }), {
      maxRetryAfterMs: 60_000,
    });
    const error = await client.get("/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueUnavailableError);
    expect(error).toMatchObject({ attempts: 1, retryAfterMs: 3_600_000 });
    expect(server.requests).toHaveLength(1);
  });

  it("times out a hanging request and counts it as a failed attempt", async () => {
    const { client, server } = await setup(() => "hang", { timeoutMs: 50, maxAttempts: 2 });
    const error = await client.get("/slow").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueUnavailableError);
    expect(error).toMatchObject({ attempts: 2, lastStatus: null });
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a 4xx and reports status and body", async () => {
    const { client, server } = await setup(() => ({
      status: 400,
      body: { error: "max historical trades offset of 10000 exceeded" },
    }));
    const error = await client.get("/trades", { query: { offset: 10_001 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueHttpError);
    expect(error).toMatchObject({
      status: 400,
      body: { error: "max historical trades offset of 10000 exceeded" },
      attempts: 1,
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.query.get("offset")).toBe("10001");
  });

  it("lets the caller turn an error inside a 200 into a retry", async () => {
    let calls = 0;
    const { client, time } = await setup(() =>
      ++calls === 1 ? { body: { error: { code: 429 } } } : { body: { data: 1 } },
    );
    const response = await client.get("/layer", {
      inspect: (_status, body) =>
        (body as { error?: unknown }).error ? { kind: "retry", status: 429, retryAfterMs: 1_000 } : null,
    });
    expect(response.body).toEqual({ data: 1 });
    expect(time.sleeps).toEqual([1_000]);
  });

  it("stops at once when the caller aborts", async () => {
    const controller = new AbortController();
    const { client, server } = await setup(() => {
      controller.abort(new Error("shutting down"));
      return { status: 503 };
    });
    await expect(client.get("/x", { signal: controller.signal })).rejects.toThrow("shutting down");
    expect(server.requests).toHaveLength(1);
  });

  it("posts JSON bodies", async () => {
    const { client, server } = await setup((req) => ({ body: { echo: req.body } }));
    const response = await client.post("", { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" });
    expect(response.body).toEqual({ echo: { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" } });
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
  });
});

describe("VenueHttpClient pacing", () => {
  it("keeps every window under the limit without idling far below it", async () => {
    const time = fakeTime();
    const sent: number[] = [];
    server = await startLoopback(() => ({ body: [] }));
    const client = new VenueHttpClient({
      name: "paced",
      baseUrl: server.url,
      timeoutMs: 2_000,
      clock: time.clock,
      sleep: time.sleep,
      rateLimits: [{ name: "all", limit: 10, windowMs: 1_000 }],
      fetch: (url, init) => {
        sent.push(time.clock.nowMs());
        return fetch(url, init);
      },
    });
    const start = time.clock.nowMs();
    for (let i = 0; i < 50; i++) await client.get("/x");
    for (const t of sent) expect(sent.filter((u) => u >= t && u < t + 1_000).length).toBeLessThanOrEqual(10);
    // 1 burst token, then 9 per second: 49 more requests take about 5.4 s.
    expect(time.clock.nowMs() - start).toBeLessThan(5_600);
    expect(time.clock.nowMs() - start).toBeGreaterThan(5_300);
  });

  it("applies a path's own limit only to that path", async () => {
    const time = fakeTime();
    server = await startLoopback(() => ({ body: [] }));
    const client = new VenueHttpClient({
      name: "paced",
      baseUrl: server.url,
      timeoutMs: 2_000,
      clock: time.clock,
      sleep: time.sleep,
      rateLimits: [{ name: "all", limit: 1_000, windowMs: 10_000 }, pathLimit("trades", "/trades", 20, 10_000)],
    });
    for (let i = 0; i < 10; i++) await client.get("/positions");
    expect(time.sleeps).toEqual([]);
    for (let i = 0; i < 4; i++) await client.get("/trades");
    // Burst of 2 on /trades, then one token every 10 s / 18.
    expect(time.sleeps).toEqual([556, 556]);
  });

  it("runs one request at a time when maxConcurrent is 1", async () => {
    let active = 0;
    let peak = 0;
    server = await startLoopback(async () => {
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 15));
      active -= 1;
      return { body: {} };
    });
    const client = new VenueHttpClient({ name: "serial", baseUrl: server.url, timeoutMs: 2_000, maxConcurrent: 1 });
    await Promise.all([client.get("/a"), client.get("/b"), client.get("/c")]);
    expect(peak).toBe(1);
    expect(server.requests.map((r) => r.path)).toEqual(["/a", "/b", "/c"]);
  });
});
