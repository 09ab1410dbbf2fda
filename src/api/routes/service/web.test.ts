/** The dashboard's files under `/`: cached by content, compressed, and never in the way of an API path. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp } from "../../../../test/support/app.js";

describe("the web dashboard's routes", () => {
  const dir = mkdtempSync(join(tmpdir(), "pelagic-web-"));
  const script = `console.log(${JSON.stringify("x".repeat(4_000))});`;
  let t: TestApp;
  beforeAll(async () => {
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>Pelagic</title>");
    writeFileSync(join(dir, "assets", "index-abc123.js"), script);
    writeFileSync(join(dir, "favicon.svg"), "<svg/>");
    t = await openTestApp({ env: { WEB_DIR: dir } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the page at / revalidated by ETag, and answers 304 to a matching If-None-Match", async () => {
    const page = await t.app.inject({ url: "/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(page.body).toContain("<title>Pelagic</title>");
    const again = await t.app.inject({ url: "/", headers: { "if-none-match": String(page.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it("serves hashed assets for a year, gzip-compressed to clients that accept it", async () => {
    const plain = await t.app.inject({ url: "/assets/index-abc123.js" });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["cache-control"]).toContain("immutable");
    expect(plain.body).toBe(script);
    const zipped = await t.app.inject({ url: "/assets/index-abc123.js", headers: { "accept-encoding": "gzip" } });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(Number(zipped.headers["content-length"])).toBeLessThan(script.length / 4);
    expect((await t.app.inject({ url: "/favicon.svg" })).headers["content-type"]).toContain("image/svg+xml");
  });

  it("answers 404 for files it does not have, leaves API paths to the API, and stays out of the OpenAPI document", async () => {
    expect((await t.app.inject({ url: "/assets/missing.js" })).statusCode).toBe(404);
    expect((await t.app.inject({ url: "/assets/../index.html" })).statusCode).not.toBe(500);
    expect((await t.app.inject({ url: "/api/v1/health" })).json()).toHaveProperty("status");
    const paths = Object.keys((await t.app.inject({ url: "/api/openapi.json" })).json().paths);
    expect(paths.filter((p) => !p.startsWith("/api/"))).toEqual([]);
  });

  it("says how to build it when the folder holds no build", async () => {
    const empty = mkdtempSync(join(tmpdir(), "pelagic-web-empty-"));
    const bare = await openTestApp({ env: { WEB_DIR: empty } });
    const page = await bare.app.inject({ url: "/" });
    expect(page.statusCode).toBe(503);
    expect(page.body).toContain("npm install");
    await bare.close();
    rmSync(empty, { recursive: true, force: true });
  });
});
