/**
 * A client that leaves in the middle of a WebSocket handshake must cost the service nothing but that connection.
 * Every outcome of an upgrade request (404 on another path, 401, 403, 429 and the accepted 101) meets every way of
 * leaving: a TCP reset right after the request, a reset after reading part of the answer, and a normal close after
 * reading part of it. After each, nothing escaped as an uncaught error (which would have stopped a real process)
 * and the service still answers.
 */
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createKey } from "../accounts/keys.js";
import { openTestApp, type TestApp } from "../../test/support/app.js";
import { until } from "../../test/support/live-clients.js";

const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

type Leaving = "reset at once" | "reset after a partial read" | "close after a partial read";
const LEAVINGS: Leaving[] = ["reset at once", "reset after a partial read", "close after a partial read"];

function handshake(path: string, headers: Record<string, string>): string {
  const lines = [
    `GET ${path} HTTP/1.1`,
    "Host: pelagic.test",
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version: 13",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** Sends the handshake, leaves as told, and resolves with the first bytes read (empty when it left at once). */
function sendAndLeave(port: number, request: string, leaving: Leaving): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    socket.once("connect", () => {
      socket.write(request);
      if (leaving === "reset at once") {
        socket.resetAndDestroy();
        resolve("");
        return;
      }
      socket.once("data", (chunk: Buffer) => {
        const head = chunk.subarray(0, 12).toString("latin1");
        if (leaving === "reset after a partial read") socket.resetAndDestroy();
        else socket.end();
        resolve(head);
      });
    });
    socket.once("close", () => resolve(""));
    setTimeout(() => reject(new Error("no answer within 5 s")), 5_000).unref();
  });
}

describe("WebSocket upgrades: a client leaving at any point", () => {
  it("never escapes as an uncaught error, for every outcome and every way of leaving", async () => {
    const t = await openTestApp();
    opened.push(t);
    const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const port = Number(new URL(url).port);
    const now = t.clock.now();
    const premium = await createKey(t.store.db, { account: "streamer", plan: "premium", now });
    const free = await createKey(t.store.db, { account: "reader", plan: "free", now });
    // A key allowed one request a minute: its first handshake spends it, the next ones are 429.
    const spent = await createKey(t.store.db, { account: "thrifty", plan: "premium", rateLimitPerMinute: 1, now });
    const ws = "/api/public/v1/live/ws";
    const outcomes: Array<{ status: string; request: () => string }> = [
      { status: "404", request: () => handshake("/x", {}) },
      { status: "404", request: () => handshake("/api/v2/no-such-route", { "x-api-key": premium.key }) },
      { status: "401", request: () => handshake(ws, {}) },
      { status: "403", request: () => handshake(ws, { "x-api-key": free.key }) },
      { status: "429", request: () => handshake(ws, { "x-api-key": spent.key }) },
      { status: "101", request: () => handshake(ws, { "x-api-key": premium.key }) },
    ];
    await sendAndLeave(port, handshake(ws, { "x-api-key": spent.key }), "close after a partial read");

    const escaped: unknown[] = [];
    const record = (error: unknown) => escaped.push(error);
    process.on("uncaughtException", record);
    try {
      for (const outcome of outcomes)
        for (const leaving of LEAVINGS)
          for (let round = 0; round < 3; round++) {
            const head = await sendAndLeave(port, outcome.request(), leaving);
            if (leaving !== "reset at once") expect(head, `${outcome.status}, ${leaving}`).toContain(outcome.status);
          }
      // Errors of a reset socket come a moment later; give them time to surface, then ask the service.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const health = await fetch(`${url}/api/v1/health`);
      expect(health.status).toBe(200);
      // Accepted streams whose client left give their slots back.
      await until("every stream's slot back", async () => (await t.platform.slots.count(await bucketOf(t))) === 0);
    } finally {
      process.off("uncaughtException", record);
    }
    expect(escaped).toEqual([]);
  });

  it("answers an upgrade on another path as any request there, in the contract's error shape", async () => {
    const t = await openTestApp();
    opened.push(t);
    const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(url).port), "127.0.0.1", () => socket.write(handshake("/x", {})));
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
      socket.on("close", () => resolve(text));
    });
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 404 Not Found");
    expect(answer.slice(answer.indexOf("\r\n\r\n") + 4)).toBe(JSON.stringify({ detail: "Not Found" }));
  });
});

async function bucketOf(t: TestApp): Promise<string> {
  const row = await t.store.db
    .selectFrom("api_keys")
    .innerJoin("accounts", "accounts.id", "api_keys.account_id")
    .select("api_keys.id")
    .where("accounts.name", "=", "streamer")
    .executeTakeFirstOrThrow();
  return `stream:key:${row.id}`;
}
