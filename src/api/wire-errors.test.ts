/**
 * Errors answered below the routes, as a client sees them on the wire: each in the contract's shape, never
 * Fastify's or Node's own (`{"error","code","message","statusCode"}` or an empty body). Also the cap on the issues
 * a 422 lists.
 */
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { access } from "./access.js";
import { openTestApp, type TestApp } from "../../test/support/app.js";

const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close().catch(() => undefined);
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseAnswer(text: string): RawAnswer {
  const split = text.indexOf("\r\n\r\n");
  const [statusLine, ...lines] = text.slice(0, split).split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  return { status: Number(statusLine!.split(" ")[1]), headers, body: text.slice(split + 4) };
}

/** Sends raw bytes and reads until the server closes (every answer here ends its connection). */
function exchange(port: number, bytes: Buffer | string, pauseMs = 0): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      if (pauseMs === 0) socket.write(bytes);
      else socket.write(Buffer.from(bytes).subarray(0, 10));
    });
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(parseAnswer(Buffer.concat(chunks).toString("latin1"))));
  });
}

async function listening(env: Record<string, string> = {}, register?: TestApp["app"]["register"]) {
  const t = await openTestApp({ env, register: register as never });
  opened.push(t);
  const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  return { t, port: Number(new URL(url).port) };
}

const request = (target: string | Buffer, headers = "") =>
  Buffer.concat([
    Buffer.from("GET "),
    Buffer.from(target as string, "latin1"),
    Buffer.from(` HTTP/1.1\r\nHost: pelagic.test\r\nConnection: close\r\n${headers}\r\n`),
  ]);

describe("errors answered below the routes", () => {
  it("answers a URL that does not decode, a raw byte, bad HTTP, large headers, a slow request and an unmet Expect in the contract's shape", async () => {
    const { port } = await listening({ HTTP_REQUEST_TIMEOUT_MS: "300" });
    const cases: Array<[string, Buffer | string, number, number?]> = [
      ["a bare % in the path", request("/api/v2/market/%"), 400],
      ["a raw 0xff byte in the path", request(Buffer.from([0x2f, 0x61, 0xff]) as never), 400],
      ["a request line that is not HTTP", "FOO BAR\r\n\r\n", 400],
      ["headers over the limit", request("/api/v1/health", `X-Big: ${"a".repeat(20_000)}\r\n`), 431],
      ["a request that does not arrive whole in time", request("/api/v1/health"), 408, 1],
      ["an Expect other than 100-continue", request("/api/v1/health", "Expect: something\r\n"), 417],
    ];
    for (const [what, bytes, status, pause] of cases) {
      const answer = await exchange(port, bytes, pause);
      expect(answer.status, what).toBe(status);
      expect(answer.headers["content-type"], what).toMatch(/^application\/json/);
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      expect(Object.keys(body), what).toEqual(["detail"]);
      expect(typeof body.detail, what).toBe("string");
    }
  });

  it("answers a request that arrives while the service stops 503 with Retry-After, in the contract's shape", async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { t, port } = await listening({}, (async (app: TestApp["app"]) => {
      app.get("/test/slow", { config: { access: access.public } }, async () => {
        entered();
        await held;
        return { done: true };
      });
    }) as never);
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write("GET /test/slow HTTP/1.1\r\nHost: pelagic.test\r\n\r\n");
    await inHandler;
    const closing = t.app.close();
    socket.write("GET /api/v1/health HTTP/1.1\r\nHost: pelagic.test\r\n\r\n");
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await closing;
    await closed;
    const text = Buffer.concat(chunks).toString("latin1");
    const second = parseAnswer(text.slice(text.indexOf("HTTP/1.1", 10)));
    expect(second.status, text).toBe(503);
    expect(second.headers["retry-after"]).toBe("5");
    expect(JSON.parse(second.body)).toEqual({ detail: "The service is stopping: retry shortly" });
  });

  it("lists at most HTTP_VALIDATION_ERRORS_LISTED issues in a 422 and counts the rest", async () => {
    const { t } = await listening();
    const query = Array.from({ length: 1_500 }, (_, i) => `p${i}=1`).join("&");
    const response = await t.app.inject({ url: `/api/v1/health?${query}` });
    expect(response.statusCode).toBe(422);
    const detail = response.json().detail as Array<{ loc: unknown[]; msg: string; type: string }>;
    expect(detail).toHaveLength(21);
    expect(detail[0]).toEqual({ loc: ["query", "p0"], msg: "Extra inputs are not permitted", type: "extra_forbidden" });
    expect(detail[20]).toEqual({ loc: ["query"], msg: "1480 more errors not listed", type: "too_many_errors" });
    expect(response.body.length).toBeLessThan(query.length);
    const few = await t.app.inject({ url: "/api/v1/health?a=1&b=2" });
    expect(few.json().detail).toHaveLength(2);
  });
});
