import Fastify from "fastify";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SerializedBody } from "../kept/serialized-body.js";
import { noneMatchHolds, registerEtags } from "./etag.js";
import { sendSerialized } from "../kept/send-serialized.js";

describe("noneMatchHolds", () => {
  it.each([
    ['"a"', '"a"', true],
    ['W/"a"', '"a"', true],
    ['"b", "a"', '"a"', true],
    ['"b",W/"a"', '"a"', true],
    ['"a"', 'W/"a"', true],
    ['W/"a"', 'W/"a"', true],
    ['"b"', 'W/"a"', false],
    ["*", '"a"', true],
    ['"b"', '"a"', false],
    ['"a-gz"', '"a"', false],
    ["", '"a"', false],
    [undefined, '"a"', false],
  ] as const)("%s names %s: %s", (header, etag, expected) => {
    expect(noneMatchHolds(header, etag)).toBe(expected);
  });
});

describe("ETags", () => {
  const large = JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i })) });
  const kept = SerializedBody.of(large, 1024);
  const app = Fastify();
  registerEtags(app);
  app.get("/kept", (_request, reply) => sendSerialized(reply, kept));
  app.get("/built", () => ({ ok: true }));
  app.get("/missing", (_request, reply) => reply.code(404).send({ detail: "Not Found" }));
  app.post("/built", () => ({ ok: true }));

  it("is the SHA-1 of the bytes sent, another for the gzip form, hashed once for a kept answer", async () => {
    const sha1 = (bytes: Buffer | string) => `"${createHash("sha1").update(bytes).digest("base64url")}"`;
    const plain = await app.inject({ url: "/kept" });
    const gzip = await app.inject({ url: "/kept", headers: { "accept-encoding": "gzip" } });
    expect(plain.headers.etag).toBe(sha1(large));
    expect(gzip.headers.etag).toBe(sha1(large).replace(/"$/, '-gz"'));
    expect((await app.inject({ url: "/built" })).headers.etag).toBe(sha1('{"ok":true}'));
    expect(kept.etag).toBe(kept.etag);
  });

  it("answers 304 without a body but with the ETag and Vary, for the representation asked for only", async () => {
    const gzip = await app.inject({ url: "/kept", headers: { "accept-encoding": "gzip" } });
    const revalidated = await app.inject({
      url: "/kept",
      headers: { "accept-encoding": "gzip", "if-none-match": String(gzip.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
    expect(revalidated.headers.etag).toBe(gzip.headers.etag);
    expect(revalidated.headers.vary).toBe("accept-encoding");
    expect(revalidated.headers["content-encoding"]).toBeUndefined();
    // The plain form is another representation: the gzip ETag does not revalidate it.
    expect(
      (await app.inject({ url: "/kept", headers: { "if-none-match": String(gzip.headers.etag) } })).statusCode,
    ).toBe(200);
    const head = await app.inject({ method: "HEAD", url: "/built", headers: { "if-none-match": "*" } });
    expect([head.statusCode, head.headers.etag]).toEqual([200, (await app.inject({ url: "/built" })).headers.etag]);
  });

  it("leaves other statuses and methods alone", async () => {
    const missing = await app.inject({ url: "/missing", headers: { "if-none-match": "*" } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
    const posted = await app.inject({ method: "POST", url: "/built", headers: { "if-none-match": "*" } });
    expect(posted.statusCode).toBe(200);
    expect(posted.headers.etag).toBeUndefined();
  });
});
