import Fastify from "fastify";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { SerializedBody } from "./body-cache.js";
import { acceptsGzip, sendSerialized } from "./send-serialized.js";

describe("acceptsGzip", () => {
  it.each([
    ["gzip", true],
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8, *;q=0.1", true],
    ["x-gzip", true],
    ["*", true],
    ["GZIP", true],
    ["deflate, br", false],
    ["gzip;q=0", false],
    ["gzip;q=0.0, *", false],
    ["*;q=0", false],
    ["identity", false],
    ["", false],
    [undefined, false],
  ] as const)("%s -> %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe("sendSerialized", () => {
  const large = JSON.stringify({
    rows: Array.from({ length: 200 }, (_, i) => ({ i, wallet: `0x${String(i).padStart(40, "0")}` })),
  });
  const app = Fastify();
  app.get("/large", (_request, reply) => sendSerialized(reply, SerializedBody.of(large, 1024)));
  app.get("/small", (_request, reply) => sendSerialized(reply, SerializedBody.of('{"ok":true}', 1024)));
  app.get("/never", (_request, reply) => sendSerialized(reply, SerializedBody.of(large, 0)));

  it("compresses a large answer for a client that accepts gzip, the same bytes once unpacked", async () => {
    const res = await app.inject({ url: "/large", headers: { "accept-encoding": "gzip" } });
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers.vary).toBe("accept-encoding");
    expect(gunzipSync(res.rawPayload).toString()).toBe(large);
    expect(res.rawPayload.length).toBeLessThan(large.length / 4);
  });

  it("sends it plain otherwise, and never compresses small answers or with GZIP_MIN_BYTES=0", async () => {
    const plain = await app.inject({ url: "/large" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("accept-encoding");
    expect(plain.body).toBe(large);
    for (const url of ["/small", "/never"]) {
      const res = await app.inject({ url, headers: { "accept-encoding": "gzip" } });
      expect(res.headers["content-encoding"], url).toBeUndefined();
      expect(res.headers.vary, url).toBeUndefined();
    }
  });
});
