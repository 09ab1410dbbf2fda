/** The OpenAPI document is built and serialized by the warm-up, before the service listens (issue 24). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp } from "../support/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
afterAll(async () => t?.close());

describe("GET /api/openapi.json after the warm-up", () => {
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
});
