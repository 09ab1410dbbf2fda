/** What the service computes before it listens, so that no first request waits for it (issue 24). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp } from "../support/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
afterAll(async () => t?.close());

describe("the warm-up", () => {
  it("sends the document serialized before the first request, without generating it again", async () => {
    const generate = t.app.swagger.bind(t.app);
    let generated = 0;
    Object.assign(t.app, { swagger: (...args: Parameters<typeof generate>) => (generated++, generate(...args)) });
    await t.app.warmUp();
    expect(generated).toBe(1);
    const plain = await t.app.inject({ url: "/api/openapi.json" });
    const gzip = await t.app.inject({ url: "/api/openapi.json", headers: { "accept-encoding": "gzip" } });
    expect(generated).toBe(1);
    expect(plain.statusCode).toBe(200);
    expect(JSON.parse(plain.body).paths["/api/openapi.json"]).toBeDefined();
    expect(gzip.headers["content-encoding"]).toBe("gzip");
  });

  it("computes the whale flips of both families' default days and the conviction clusters of the current window", async () => {
    await t.app.warmUp();
    const now = t.clock.now();
    const hour = `@${Math.floor(now / 3_600)}`;
    for (const key of [`whale-flips:7${hour}`, `whale-flips:1${hour}`, `conviction-clusters@${Math.floor(now / 300)}`])
      expect(await t.platform.cache.get(key), key).toBeDefined();
  });
});
