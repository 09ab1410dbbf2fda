/**
 * A client that stops reading is cut off once LIVE_CLIENT_BUFFER_BYTES are queued for it: the server never holds
 * more than that (plus the frame that crossed it) for one subscriber, the slot and the hub's place are given back,
 * and the subscribers that read keep receiving every event.
 */
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createKey, verifyKey } from "../accounts/keys.js";
import { openTestApp, type TestApp } from "../../test/support/app.js";
import { openSse, until } from "../../test/support/live-clients.js";
import type { LiveHub } from "./hub.js";
import { LIVE_CHANNELS } from "./relay.js";

const CAP = 64 * 1024;
let t: TestApp | undefined;
let slow: Socket | undefined;

afterEach(async () => {
  slow?.destroy();
  await t?.close();
});

/** A raw client that sends the request, reads the answer's head, then stops reading. */
function stalledReader(url: string, path: string, key: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nX-API-Key: ${key}\r\n\r\n`));
    socket.once("data", (head) => {
      if (!head.toString().startsWith("HTTP/1.1 200")) return reject(new Error(head.toString()));
      socket.pause();
      resolve(socket);
    });
    socket.on("error", () => undefined);
  });
}

describe("a slow reader", () => {
  it("is disconnected once its queue passes the cap, without holding the others back", async () => {
    let hub: LiveHub | undefined;
    t = await openTestApp({ env: { LIVE_CLIENT_BUFFER_BYTES: String(CAP) }, live: () => ({ onHub: (created) => (hub = created) }) });
    const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { key } = await createKey(t.store.db, { account: "slow", plan: "premium", now: t.clock.now() });
    const check = await verifyKey(t.store.db, key);
    const slots = `stream:key:${check.status === "valid" ? check.keyId : 0}`;
    const fast = await openSse(`${url}/api/public/v1/live/trades`, { "x-api-key": key });
    slow = await stalledReader(url, "/api/public/v1/live/trades", key);
    await until("both subscribed", () => hub!.count("trades") === 2);

    const padding = "x".repeat(2_000);
    let published = 0;
    // The kernel's socket buffers take a few MB first; then the server's own queue grows until the cap.
    while (hub!.stats.slowReadersDropped === 0 && published < 20_000) {
      for (let i = 0; i < 10; i++) await t.platform.pubsub.publish(LIVE_CHANNELS.trades, JSON.stringify({ n: published++, padding }));
      // Lets the reader that keeps up read (it runs on this event loop too).
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(hub!.stats.slowReadersDropped).toBe(1);
    const frameBytes = `event: trade\ndata: ${JSON.stringify({ n: published, padding })}\n\n`.length;
    expect(hub!.stats.maxQueuedBytes).toBeLessThanOrEqual(CAP + frameBytes + 64);
    await until("the slow reader's place and slot given back", async () => hub!.count("trades") === 1 && (await t!.platform.slots.count(slots)) === 1);

    await fast.waitFor("every event at the reader that keeps up", (frames) => frames.length === published, 30_000);
    expect(fast.trades<{ n: number }>().map((e) => e.n)).toEqual(Array.from({ length: published }, (_, i) => i));
    fast.close();
  }, 60_000);
});
