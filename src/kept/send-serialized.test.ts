import Fastify from "fastify";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { SerializedBody } from "./serialized-body.js";
import { registerEtags } from "../api/etag.js";
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

describe("sendSerialized with a per-request tail", () => {
  const head = JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i, q: `market ${i}` })) }).slice(0, -1);
  const kept = SerializedBody.of(head, 1024, true);
  let requests = 0;
  const app = Fastify();
  registerEtags(app);
  app.get("/tailed", (_request, reply) => sendSerialized(reply, kept, `,"n":${++requests}}`));

  it("sends the kept head and this request's tail, compressed or plain, under the head's weak ETag", async () => {
    const packed = await app.inject({ url: "/tailed", headers: { "accept-encoding": "gzip" } });
    expect(packed.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(packed.rawPayload).toString()).toBe(`${head},"n":1}`);
    expect(packed.rawPayload.length).toBeLessThan(head.length / 4);
    const plain = await app.inject({ url: "/tailed" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(`${head},"n":2}`);
    expect(plain.headers.etag).toBe(`W/${kept.etag}`);
    expect(packed.headers.etag).toBe(`W/${kept.gzipEtag}`);
  });

  it("revalidates with 304 although each request's tail differs", async () => {
    const first = await app.inject({ url: "/tailed", headers: { "accept-encoding": "gzip" } });
    const again = await app.inject({
      url: "/tailed",
      headers: { "accept-encoding": "gzip", "if-none-match": String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });
});
