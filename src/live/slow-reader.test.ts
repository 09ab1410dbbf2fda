/**
 * A client that stops reading is cut off once LIVE_CLIENT_BUFFER_BYTES are queued for it: the server never holds
 * more than that (plus the frame that crossed it) for one subscriber, the slot and the hub's place are given back,
 * and the subscribers that read keep receiving every event. Over SSE and over the WebSocket alike (both are written
 * straight to the TCP socket, whose queue is the one that counts).
 */
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createKey, verifyKey } from "../accounts/keys.js";
import { openTestApp, type TestApp } from "../../test/support/app.js";
import { openSse, openWs, until, type WsClient } from "../../test/support/live-clients.js";
import type { LiveHub } from "./hub.js";
import { LIVE_CHANNELS } from "./relay.js";

const CAP = 64 * 1024;
let t: TestApp | undefined;
let slow: Socket | undefined;

afterEach(async () => {
  slow?.destroy();
  await t?.close();
});

const HANDSHAKE =
  "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: pelagic.live.v1\r\n";

/** A raw client that sends the request (or the WebSocket handshake), reads the answer's head, then stops reading. */
function stalledReader(url: string, path: string, key: string, websocket: boolean): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nX-API-Key: ${key}\r\n${websocket ? HANDSHAKE : ""}\r\n`,
      ),
    );
    socket.once("data", (head) => {
      if (!head.toString().startsWith(websocket ? "HTTP/1.1 101" : "HTTP/1.1 200"))
        return reject(new Error(head.toString()));
      socket.pause();
      resolve(socket);
    });
    socket.on("error", () => undefined);
  });
}

/** The reader that keeps up: the `n` of each event it received, in order. */
async function keepingUp(
  transport: "SSE" | "WebSocket",
  url: string,
  key: string,
): Promise<{ received: () => number[]; close: () => void }> {
  if (transport === "SSE") {
    const sse = await openSse(`${url}/api/public/v1/live/trades`, { "x-api-key": key });
    return { received: () => sse.trades<{ n: number }>().map((e) => e.n), close: () => sse.close() };
  }
  const ws = (await openWs(`${url.replace("http", "ws")}/api/public/v1/live/ws`, {
    headers: { "x-api-key": key },
  })) as WsClient;
  return { received: () => ws.messages.map((m) => m.data.n as number), close: () => ws.socket.terminate() };
}

describe.each(["SSE", "WebSocket"] as const)("a slow reader over %s", (transport) => {
  it("is disconnected once its queue passes the cap, without holding the others back", async () => {
    let hub: LiveHub | undefined;
    t = await openTestApp({
      env: { LIVE_CLIENT_BUFFER_BYTES: String(CAP) },
      live: () => ({ onHub: (created) => (hub = created) }),
    });
    const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { key } = await createKey(t.store.db, { account: "slow", plan: "premium", now: t.clock.now() });
    const check = await verifyKey(t.store.db, key);
    const slots = `stream:key:${check.status === "valid" ? check.keyId : 0}`;
    const fast = await keepingUp(transport, url, key);
    slow = await stalledReader(
      url,
      transport === "SSE" ? "/api/public/v1/live/trades" : "/api/public/v1/live/ws",
      key,
      transport === "WebSocket",
    );
    await until("both subscribed", () => hub!.count("trades") === 2);

    const padding = "x".repeat(2_000);
    let published = 0;
    // The kernel's socket buffers take a few MB first; then the server's own queue grows until the cap.
    while (hub!.stats.slowReadersDropped === 0 && published < 20_000) {
      for (let i = 0; i < 10; i++)
        await t.platform.pubsub.publish(LIVE_CHANNELS.trades, JSON.stringify({ n: published++, padding }));
      // Lets the reader that keeps up read (it runs on this event loop too).
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(hub!.stats.slowReadersDropped).toBe(1);
    // One message past the cap at most: its event and the framing around it (SSE's lines and HTTP chunk, or a
    // WebSocket frame's head and the {"event","data"} wrapper), well under 64 bytes.
    const eventBytes = JSON.stringify({ n: published, padding }).length;
    expect(hub!.stats.maxQueuedBytes).toBeLessThanOrEqual(CAP + eventBytes + 64);
    await until(
      "the slow reader's place and slot given back",
      async () => hub!.count("trades") === 1 && (await t!.platform.slots.count(slots)) === 1,
    );

    await until("every event at the reader that keeps up", () => fast.received().length === published, 30_000);
    expect(fast.received()).toEqual(Array.from({ length: published }, (_, i) => i));
    fast.close();
  }, 60_000);
});
