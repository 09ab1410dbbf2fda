import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import { RtdsClient, type RtdsMessage, type RtdsOptions, type RtdsStatus } from "./rtds.js";
import { RtdsSubscribeMessageShape } from "./shapes/rtds.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tradePayload(i: number) {
  return {
    asset: "4242",
    bio: "",
    conditionId: `0x${"d".repeat(64)}`,
    eventSlug: "e",
    icon: "",
    name: "",
    outcome: "Yes",
    outcomeIndex: 0,
    price: 0.97,
    profileImage: "",
    proxyWallet: `0x${i.toString(16).padStart(40, "0")}`,
    pseudonym: "Swift-Otter",
    side: "BUY",
    size: 100,
    slug: "m",
    timestamp: 1_770_000_000 + i,
    title: "T",
    transactionHash: `0x${i.toString(16).padStart(64, "0")}`,
  };
}

const envelope = (type: string, payload: unknown) =>
  JSON.stringify({ connection_id: "c1", topic: "activity", type, timestamp: 1_770_000_000_000, payload });

interface Venue {
  url: string;
  connections: WebSocket[];
  received: string[][];
  onConnection: (socket: WebSocket, index: number) => void;
}

async function startRtds(): Promise<Venue> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  const venue: Venue = {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    connections: [],
    received: [],
    onConnection: () => undefined,
  };
  wss.on("connection", (socket) => {
    const index = venue.connections.length;
    venue.connections.push(socket);
    venue.received.push([]);
    socket.on("message", (data) => venue.received[index]?.push(String(data)));
    venue.onConnection(socket, index);
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  );
  return venue;
}

function client(venue: Venue, options: Partial<RtdsOptions> = {}) {
  const rtds = new RtdsClient({
    url: venue.url,
    pingIntervalMs: 20,
    reconnectBaseMs: 10,
    reconnectMaxMs: 20,
    random: () => 0.5,
    ...options,
  });
  const statuses: RtdsStatus[] = [];
  rtds.onStatus((s) => statuses.push(s));
  cleanups.push(() => rtds.close());
  return { rtds, statuses };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("RtdsClient", () => {
  it("subscribes, ignores keep-alives, validates envelopes and delivers trades and orders_matched", async () => {
    const venue = await startRtds();
    venue.onConnection = (socket) => {
      socket.once("message", () => {
        socket.send("");
        socket.send(envelope("trades", tradePayload(1)));
        socket.send("{not json");
        socket.send(envelope("trades", { ...tradePayload(2), price: "0.5" }));
        socket.send(JSON.stringify({ topic: "crypto_prices", type: "update", timestamp: 1, payload: {} }));
        socket.send(envelope("orders_matched", { ...tradePayload(3), fee: 0.0291 }));
      });
    };
    const { rtds } = client(venue);
    const messages: RtdsMessage[] = [];
    const invalid: string[] = [];
    rtds.onMessage((m) => messages.push(m));
    rtds.onInvalid((f) => invalid.push(f.issues[0]?.path ?? ""));
    rtds.start();
    await until(() => messages.length === 2, "two messages");
    const subscribe = JSON.parse(venue.received[0]?.[0] ?? "null") as unknown;
    expect(RtdsSubscribeMessageShape.is(subscribe)).toBe(true);
    expect(subscribe).toEqual({
      action: "subscribe",
      subscriptions: [
        { topic: "activity", type: "trades" },
        { topic: "activity", type: "orders_matched" },
      ],
    });
    expect(messages.map((m) => [m.type, m.payload.proxyWallet.slice(-1), m.payload.fee ?? null])).toEqual([
      ["trades", "1", null],
      ["orders_matched", "3", 0.0291],
    ]);
    expect(invalid).toEqual(["", "/payload/price"]);
    expect(rtds.stats).toMatchObject({ messages: 2, keepAlives: 1, invalid: 2, ignored: 1 });
  });

  it("sends the text ping on its interval", async () => {
    const venue = await startRtds();
    const { rtds } = client(venue);
    rtds.start();
    await until(() => (venue.received[0] ?? []).filter((m) => m === "ping").length >= 2, "two pings");
  });

  it("reconnects after the server drops the socket, resubscribes, and reports down then up", async () => {
    const venue = await startRtds();
    venue.onConnection = (socket, index) => {
      socket.once("message", () => {
        socket.send(envelope("trades", tradePayload(index + 1)));
        if (index === 0) setTimeout(() => socket.terminate(), 10);
      });
    };
    const { rtds, statuses } = client(venue);
    const iterator = rtds.messages();
    rtds.start();
    const first = await iterator.next();
    const second = await iterator.next();
    expect([first.value?.payload.proxyWallet.slice(-1), second.value?.payload.proxyWallet.slice(-1)]).toEqual([
      "1",
      "2",
    ]);
    expect(venue.connections).toHaveLength(2);
    expect(venue.received[1]?.[0]).toContain('"action":"subscribe"');
    expect(statuses).toEqual(["connecting", "up", "down", "up"]);
    expect(rtds.status).toBe("up");
    expect(rtds.downSinceMs).toBeNull();
    await rtds.close();
    expect((await iterator.next()).done).toBe(true);
  });

  it("stays down while the venue refuses connections, so the caller can poll, and recovers", async () => {
    const venue = await startRtds();
    let refuse = true;
    venue.onConnection = (socket) => {
      if (refuse) socket.terminate();
      else socket.send("");
    };
    const { rtds, statuses } = client(venue, { nowMs: () => 1_000 });
    rtds.start();
    await until(() => venue.connections.length >= 3, "three attempts");
    expect(rtds.status).toBe("down");
    expect(rtds.downSinceMs).toBe(1_000);
    refuse = false;
    await until(() => rtds.status === "up", "recovery");
    expect(statuses.filter((s) => s === "down")).toHaveLength(1);
  });

  it("treats a silent connection as dead and reconnects", async () => {
    const venue = await startRtds();
    const { rtds } = client(venue, { staleAfterMs: 40, pingIntervalMs: 1_000 });
    rtds.start();
    await until(() => rtds.stats.connects >= 2, "a second connection");
    expect(venue.connections.length).toBeGreaterThanOrEqual(2);
    // Nothing ever arrived, so the feed never counted as up.
    expect(rtds.status).not.toBe("up");
  });
});
