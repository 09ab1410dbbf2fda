/**
 * The HTTP edge: whose budget a request spends behind proxies (TRUST_PROXY), how long a client may take to send
 * a request, and how large a body may be.
 */
import { connect } from "node:net";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { openTestApp, type TestApp } from "../../test/support/app.js";
import { ConfigError, loadConfig } from "../config/index.js";
import { access } from "./access.js";

const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});

async function appWith(env: Record<string, string>): Promise<TestApp> {
  const t = await openTestApp({
    env: { RATE_FREE_PER_MINUTE: "3", ...env },
    register: async (app) => {
      app.post(
        "/test/echo",
        { config: { access: access.public }, schema: { body: Type.Object({ wallets: Type.Array(Type.String()) }) } },
        async (r) => r.body,
      );
    },
  });
  apps.push(t);
  return t;
}

/** Status codes of `n` health requests from `remoteAddress` with the given X-Forwarded-For values. */
async function statuses(
  t: TestApp,
  remoteAddress: string,
  forwardedFor: (i: number) => string | undefined,
  n: number,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const forwarded = forwardedFor(i);
    const response = await t.app.inject({
      url: "/api/v1/health",
      remoteAddress,
      headers: forwarded === undefined ? {} : { "x-forwarded-for": forwarded },
    });
    out.push(response.statusCode);
  }
  return out;
}

describe("client address behind proxies (TRUST_PROXY)", () => {
  it("by default takes the peer: a spoofed X-Forwarded-For neither escapes the budget nor spends another's", async () => {
    const t = await appWith({});
    expect(await statuses(t, "198.51.100.9", (i) => `203.0.113.${i}`, 4)).toEqual([200, 200, 200, 429]);
    expect(await statuses(t, "198.51.100.10", () => "198.51.100.9", 1)).toEqual([200]);
  });

  it("with a hop count, takes the address the trusted proxy appended, whatever the client wrote before it", async () => {
    const t = await appWith({ TRUST_PROXY: "1" });
    const viaProxy = (client: string) => (i: number) => `10.9.${i}.1, ${client}`;
    expect(await statuses(t, "10.0.0.1", viaProxy("203.0.113.7"), 4)).toEqual([200, 200, 200, 429]);
    expect(await statuses(t, "10.0.0.1", viaProxy("203.0.113.8"), 1)).toEqual([200]);
  });

  it("with proxy addresses, trusts only those: a direct client naming a victim spends its own budget", async () => {
    const t = await appWith({ TRUST_PROXY: "10.0.0.0/8, 192.0.2.1" });
    expect(await statuses(t, "10.0.0.1", (i) => `spoof-${i}, 203.0.113.7`, 4)).toEqual([200, 200, 200, 429]);
    expect(await statuses(t, "198.51.100.9", () => "203.0.113.99", 4)).toEqual([200, 200, 200, 429]);
    expect(await statuses(t, "192.0.2.1", () => "203.0.113.99", 1)).toEqual([200]);
  });

  it("refuses TRUST_PROXY=true and malformed addresses with a message naming the setting", () => {
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY.*number of proxies/);
    expect(() => loadConfig({ TRUST_PROXY: "10.0.0.0/99" })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: "proxy.example" })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: "2" }).server.trustProxy).toBe(2);
    expect(loadConfig({}).server.trustProxy).toBe(false);
  });
});

describe("request time and size", () => {
  it("answers 408 and closes a connection whose body does not arrive within HTTP_REQUEST_TIMEOUT_MS", async () => {
    const t = await appWith({ HTTP_REQUEST_TIMEOUT_MS: "300" });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as { port: number };
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write(
      "POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    );
    const outcome = await Promise.race([
      closed.then(() => "closed"),
      new Promise((resolve) => setTimeout(() => resolve("still open"), 10_000)),
    ]);
    socket.destroy();
    expect(outcome).toBe("closed");
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  }, 15_000);

  it("answers 413 with a detail for a body over HTTP_BODY_LIMIT_BYTES, and takes one within it", async () => {
    const t = await appWith({ HTTP_BODY_LIMIT_BYTES: "2048" });
    const big = await t.app.inject({ method: "POST", url: "/test/echo", payload: { wallets: ["x".repeat(3_000)] } });
    expect(big.statusCode).toBe(413);
    expect(big.json().detail).toMatch(/body/i);
    const small = await t.app.inject({
      method: "POST",
      url: "/test/echo",
      payload: { wallets: Array.from({ length: 20 }, () => "0x".padEnd(42, "a")) },
    });
    expect(small.statusCode).toBe(200);
  });

  it("takes the largest legitimate body, a 50-wallet batch of long names, within the default limit", () => {
    const batch = JSON.stringify({ wallets: Array.from({ length: 50 }, () => "n".repeat(100)) });
    expect(Buffer.byteLength(batch)).toBeLessThan(loadConfig({}).server.bodyLimitBytes);
  });
});
