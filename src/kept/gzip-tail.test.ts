import fc from "fast-check";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { closeGzip, openGzip } from "./gzip-tail.js";

describe("a kept gzip head closed by a per-request tail", () => {
  it("unpacks to the head followed by the tail, for any head and tail", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3_000 }), fc.string({ maxLength: 300 }), (head, tail) => {
        const packed = closeGzip(openGzip(Buffer.from(head)), Buffer.from(tail));
        expect(gunzipSync(packed).toString()).toBe(head + tail);
      }),
    );
  });

  it("carries a tail longer than one stored block", () => {
    const head = Buffer.from("x".repeat(100));
    const tail = Buffer.from(Array.from({ length: 140_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(""));
    expect(gunzipSync(closeGzip(openGzip(head), tail)).equals(Buffer.concat([head, tail]))).toBe(true);
  });

  it("is about as small as compressing the whole answer when the tail is short", () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({
      id: i,
      question: `Will market ${i} resolve YES?`,
      yes: i / 200,
    }));
    const head = Buffer.from(JSON.stringify({ markets: rows, total: 200 }).slice(0, -1));
    const tail = Buffer.from(',"_elapsed_ms":0.412}');
    const packed = closeGzip(openGzip(head), tail);
    expect(packed.length).toBeLessThan(gzipSync(Buffer.concat([head, tail])).length + 40);
    expect(packed.length).toBeLessThan((head.length + tail.length) / 4);
  });
});
