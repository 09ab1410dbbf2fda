/**
 * The live streams as a client sees them, over HTTP on a real (in-process) platform: who may open them, what they
 * cost, the slot cap and its release, the events and the `types` filter, keepalive timing on a settable clock,
 * and the OpenAPI description. The relay's messages are published on the platform's pub/sub as the relay does.
 */
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createKey, verifyKey } from "../accounts/keys.js";
import { openTestApp, type TestApp } from "../../test/support/app.js";
import { openSse, openWs, until, type SseClient, type WsClient } from "../../test/support/live-clients.js";
import { LIVE_CHANNELS } from "./relay.js";
import { ManualScheduler } from "./scheduler.js";

let opened: TestApp[] = [];
let clients: SseClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const t of opened.splice(0)) await t.close();
});

async function liveApp(env: Record<string, string> = {}) {
  let scheduler: ManualScheduler | undefined;
  const t = await openTestApp({ env, live: (clock) => ({ scheduler: (scheduler = new ManualScheduler(clock)) }) });
  opened.push(t);
  const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  const premium = await createKey(t.store.db, { account: "streamer", plan: "premium", now: t.clock.now() });
  const free = await createKey(t.store.db, { account: "free-one", plan: "free", now: t.clock.now() });
  const check = await verifyKey(t.store.db, premium.key);
  const slotBucket = `stream:key:${check.status === "valid" ? check.keyId : -1}`;
  const sse = async (path: string, headers: Record<string, string> = { "x-api-key": premium.key }) => {
    const client = await openSse(`${url}${path}`, headers);
    clients.push(client);
    return client;
  };
  return { t, url, scheduler: scheduler as ManualScheduler, key: premium.key, freeKey: free.key, slotBucket, sse };
}

const relayTrade = (tx: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ transactionHash: tx, settlement_type: "MINT", settlement_hold_ms: 700, ...extra });
const indexed = (tx: string, entryType: string) => JSON.stringify({ entry_type: entryType, transaction_hash: tx });

describe("live streams: access, cost and parameters", () => {
  it("refuses a missing key (401), a free plan (403), and bad parameters (422) on every live route", async () => {
    const { sse, freeKey, url } = await liveApp();
    for (const path of ["/api/public/v1/live/trades", "/api/public/v1/live/trades-indexed", "/api/public/v1/live/ws"]) {
      const missing = await sse(path, {});
      expect(missing.status, path).toBe(401);
      expect(missing.body).toEqual({
        detail: "Missing API key: send it as Authorization: Bearer <API_KEY> or X-API-Key: <API_KEY>",
      });
      expect((await sse(path, { authorization: `Bearer ${freeKey}` })).status, path).toBe(403);
      const unknown = await sse(`${path}?since=1`);
      expect(unknown.status, path).toBe(422);
      expect(unknown.body).toMatchObject({ detail: [{ loc: ["query", "since"], type: "extra_forbidden" }] });
    }
    for (const types of ["foo", "", "mint,,merge", "mint,trades"]) {
      const bad = await sse(`/api/public/v1/live/trades-indexed?types=${encodeURIComponent(types)}`);
      expect(bad.status, types).toBe(422);
      expect(bad.body).toEqual({
        detail: [
          {
            loc: ["query", "types"],
            msg: "Input should be a comma-separated subset of mint, merge, complementary",
            type: "literal_error",
          },
        ],
      });
    }
    expect((await sse("/api/public/v1/live/ws?stream=other")).status).toBe(422);
    expect((await sse("/api/public/v1/live/ws?stream=trades&types=mint")).status).toBe(422);
    const plain = await sse("/api/public/v1/live/ws?stream=trades-indexed&types=mint");
    expect(plain.status).toBe(426);
    expect(plain.headers.upgrade).toBe("websocket");
    const ws = await openWs(`${url.replace("http", "ws")}/api/public/v1/live/ws`);
    expect(ws).toEqual({
      refused: 401,
      body: { detail: "Missing API key: send it as Authorization: Bearer <API_KEY> or X-API-Key: <API_KEY>" },
    });
    expect(
      await openWs(`${url.replace("http", "ws")}/api/public/v1/live/ws`, {
        protocols: ["pelagic.live.v1", `pelagic.key.${freeKey}`],
      }),
    ).toMatchObject({ refused: 403 });
  });

  it("charges each connection one request of the minute budget, never per event", async () => {
    const { sse, t } = await liveApp();
    const first = await sse("/api/public/v1/live/trades");
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(first.headers.connection).toBe("close");
    expect(first.headers["x-ratelimit-limit"]).toBe("600");
    expect(first.headers["x-ratelimit-remaining"]).toBe("599");
    for (let i = 0; i < 20; i++) await t.platform.pubsub.publish(LIVE_CHANNELS.trades, relayTrade(`0x${i}`));
    await first.waitFor("20 events", (frames) => frames.length === 20);
    const second = await sse("/api/public/v1/live/trades-indexed");
    expect(second.headers["x-ratelimit-remaining"]).toBe("598");
  });

  it("serves at most 5 streams per key across SSE and WebSocket, refuses the 6th with 429, and gives the slot back on disconnect", async () => {
    const { sse, key, url, t, slotBucket } = await liveApp();
    const streams = [];
    for (let i = 0; i < 4; i++)
      streams.push(await sse(i % 2 ? "/api/public/v1/live/trades" : "/api/public/v1/live/trades-indexed"));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    const ws = (await openWs(`${url.replace("http", "ws")}/api/public/v1/live/ws`, {
      headers: { "x-api-key": key },
    })) as WsClient;
    expect(ws.socket.readyState).toBe(ws.socket.OPEN);
    const sixth = await sse("/api/public/v1/live/trades");
    expect(sixth.status).toBe(429);
    expect(sixth.headers["retry-after"]).toBe("60");
    expect(sixth.body).toEqual({ detail: "Too many concurrent streams: at most 5 per key" });
    expect(
      await openWs(`${url.replace("http", "ws")}/api/public/v1/live/ws`, { headers: { "x-api-key": key } }),
    ).toMatchObject({ refused: 429 });

    streams[0]!.close();
    await until("the closed stream's slot back", async () => (await t.platform.slots.count(slotBucket)) === 4);
    expect((await sse("/api/public/v1/live/trades")).status).toBe(200);
    ws.socket.close();
    await until("the WebSocket's slot back", async () => (await t.platform.slots.count(slotBucket)) === 4);
    expect((await sse("/api/public/v1/live/trades")).status).toBe(200);
  });
});

describe("live streams: events", () => {
  it("writes each event of a relay message as a trade event, and filters the indexed stream by type on the server", async () => {
    const { sse, t, key, url } = await liveApp();
    const raw = await sse("/api/public/v1/live/trades");
    const all = await sse("/api/public/v1/live/trades-indexed", { authorization: `Bearer ${key}` });
    const mintMerge = await sse("/api/public/v1/live/trades-indexed?types=Mint,%20merge");
    const ws = (await openWs(
      `${url.replace("http", "ws")}/api/public/v1/live/ws?stream=trades-indexed&types=complementary`,
      { protocols: ["pelagic.live.v1", `pelagic.key.${key}`] },
    )) as WsClient;
    expect(ws.socket.protocol).toBe("pelagic.live.v1");
    // A message per transaction (raw) or per committed batch (indexed), an event per line.
    await t.platform.pubsub.publish(
      LIVE_CHANNELS.trades,
      [relayTrade("0xaa", { bio: "line\nbreak" }), relayTrade("0xaa", { side: "SELL" })].join("\n"),
    );
    await t.platform.pubsub.publish(
      LIVE_CHANNELS.indexed,
      [indexed("0x1", "MINT"), indexed("0x2", "COMPLEMENTARY"), indexed("0x3", "MERGE")].join("\n"),
    );
    await t.platform.pubsub.publish(LIVE_CHANNELS.indexed, indexed("0x4", "COMPLEMENTARY"));
    await all.waitFor("four indexed events", (frames) => frames.length === 4);
    await mintMerge.waitFor("two indexed events", (frames) => frames.length === 2);
    await ws.waitFor("two complementary messages", (messages) => messages.length === 2);
    await raw.waitFor("the transaction's two fills", (frames) => frames.length === 2);
    expect(raw.trades()).toEqual([
      { transactionHash: "0xaa", settlement_type: "MINT", settlement_hold_ms: 700, bio: "line\nbreak" },
      { transactionHash: "0xaa", settlement_type: "MINT", settlement_hold_ms: 700, side: "SELL" },
    ]);
    expect(raw.frames.map((f) => f.event)).toEqual(["trade", "trade"]);
    expect(all.trades<{ transaction_hash: string }>().map((e) => e.transaction_hash)).toEqual([
      "0x1",
      "0x2",
      "0x3",
      "0x4",
    ]);
    expect(mintMerge.trades<{ entry_type: string }>().map((e) => e.entry_type)).toEqual(["MINT", "MERGE"]);
    expect(ws.messages).toEqual([
      { event: "trade", data: { entry_type: "COMPLEMENTARY", transaction_hash: "0x2" } },
      { event: "trade", data: { entry_type: "COMPLEMENTARY", transaction_hash: "0x4" } },
    ]);
  });

  it("frames events of every size the same over SSE and WebSocket (the 7-, 16- and 64-bit frame lengths)", async () => {
    const { sse, t, key, url } = await liveApp();
    const stream = await sse("/api/public/v1/live/trades");
    const ws = (await openWs(`${url.replace("http", "ws")}/api/public/v1/live/ws`, {
      headers: { "x-api-key": key },
    })) as WsClient;
    // A WebSocket message is `{"event":"trade","data":` + the event + `}`: paddings that make it 125, 126, 65,535
    // and 65,536 bytes long, the edges of RFC 6455's payload length encodings.
    const wsLength = (padding: string) => `{"event":"trade","data":${relayTrade("0x1", { padding })}}`.length;
    const paddings = [125, 126, 65_535, 65_536].map((target) => "p".repeat(target - wsLength("")));
    expect(paddings.map(wsLength)).toEqual([125, 126, 65_535, 65_536]);
    for (const [i, padding] of paddings.entries())
      await t.platform.pubsub.publish(LIVE_CHANNELS.trades, relayTrade(`0x${i}`, { padding }));
    await t.platform.pubsub.publish(
      LIVE_CHANNELS.trades,
      [relayTrade("0xa"), relayTrade("0xa", { padding: "é".repeat(100) })].join("\n"),
    );
    const expected = [
      ...paddings.map((padding, i) => JSON.parse(relayTrade(`0x${i}`, { padding }))),
      JSON.parse(relayTrade("0xa")),
      JSON.parse(relayTrade("0xa", { padding: "é".repeat(100) })),
    ];
    await stream.waitFor("every event over SSE", (frames) => frames.length === expected.length);
    await ws.waitFor("every event over the WebSocket", (messages) => messages.length === expected.length);
    expect(stream.trades()).toEqual(expected);
    expect(ws.messages).toEqual(expected.map((data) => ({ event: "trade", data })));
  });

  it("serves an HTTP/1.0 client the frames unchunked, the body running to the close", async () => {
    const { t, key, url } = await liveApp();
    const { hostname, port } = new URL(url);
    let text = "";
    const socket = connect(Number(port), hostname, () =>
      socket.write(`GET /api/public/v1/live/trades HTTP/1.0\r\nX-API-Key: ${key}\r\n\r\n`),
    );
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (text += chunk));
    await until("the answer's head", () => text.includes("\r\n\r\n"));
    await t.platform.pubsub.publish(LIVE_CHANNELS.trades, [relayTrade("0x1"), relayTrade("0x2")].join("\n"));
    await until("both events", () => text.split("event: trade").length === 3);
    const [head, body] = text.split("\r\n\r\n") as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head.toLowerCase()).not.toContain("transfer-encoding");
    expect(body).toBe(`event: trade\ndata: ${relayTrade("0x1")}\n\nevent: trade\ndata: ${relayTrade("0x2")}\n\n`);
    socket.destroy();
  });

  it("sends `: keepalive` after 15 s without an event, counted from the last one (settable clock); a WebSocket gets a ping", async () => {
    const { sse, t, scheduler, key, url } = await liveApp();
    const stream = await sse("/api/public/v1/live/trades");
    const ws = (await openWs(`${url.replace("http", "ws")}/api/public/v1/live/ws`, {
      headers: { "x-api-key": key },
    })) as WsClient;
    let pings = 0;
    ws.socket.on("ping", () => pings++);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
    scheduler.advance(14_999);
    await settle();
    expect(stream.frames).toEqual([]);
    expect(pings).toBe(0);
    scheduler.advance(1);
    await stream.waitFor("a keepalive", (frames) => frames.length === 1);
    expect(stream.frames[0]).toMatchObject({ comment: "keepalive" });
    await until("a ping on the WebSocket", () => pings === 1);
    scheduler.advance(5_000);
    await t.platform.pubsub.publish(LIVE_CHANNELS.trades, relayTrade("0x1"));
    await stream.waitFor("the event", (frames) => frames.length === 2);
    scheduler.advance(14_000);
    await settle();
    expect(stream.frames.length).toBe(2);
    expect(pings).toBe(1);
    scheduler.advance(1_000);
    await stream.waitFor("the second keepalive, 15 s after the event", (frames) => frames.length === 3);
    expect(stream.frames.map((f) => f.comment ?? f.event)).toEqual(["keepalive", "trade", "keepalive"]);
    await until("the WebSocket's second ping", () => pings === 2);
    expect(ws.messages.length).toBe(1);
  });

  it("ends every stream when the server closes, and keeps no timer once the last stream is gone", async () => {
    const { sse, t, scheduler } = await liveApp();
    const stream = await sse("/api/public/v1/live/trades");
    expect(scheduler.pending).toBe(2);
    stream.close();
    await until("the hub's timers stopped", () => scheduler.pending === 0);
    const other = await sse("/api/public/v1/live/trades-indexed");
    await t.app.close();
    await other.ended;
    opened = opened.filter((o) => o !== t);
    await t.close().catch(() => undefined);
  });
});

describe("live streams in the OpenAPI document", () => {
  it("describes the SSE routes as text/event-stream with their event payloads, and the WebSocket route", async () => {
    const { t } = await liveApp();
    const doc = (await t.app.inject({ url: "/api/openapi.json" })).json() as {
      paths: Record<
        string,
        {
          get: {
            responses: Record<
              string,
              { content?: Record<string, { schema: { properties: Record<string, unknown> } }> }
            >;
            parameters?: Array<{ name: string }>;
          };
        }
      >;
    };
    const raw = doc.paths["/api/public/v1/live/trades"]!.get;
    expect(Object.keys(raw.responses["200"]!.content!)).toEqual(["text/event-stream"]);
    expect(Object.keys(raw.responses["200"]!.content!["text/event-stream"]!.schema.properties)).toEqual(
      expect.arrayContaining([
        "asset",
        "proxyWallet",
        "relay_received_at_ms",
        "settlement_type",
        "settlement_hold_ms",
        "bio",
        "pseudonym",
      ]),
    );
    const indexedRoute = doc.paths["/api/public/v1/live/trades-indexed"]!.get;
    expect(indexedRoute.parameters?.map((p) => p.name)).toEqual(["types"]);
    expect(Object.keys(indexedRoute.responses["200"]!.content!["text/event-stream"]!.schema.properties)).toEqual(
      expect.arrayContaining([
        "entry_type",
        "maker",
        "taker",
        "maker_side",
        "taker_side",
        "price",
        "usd_amount",
        "title",
      ]),
    );
    expect(Object.keys(doc.paths["/api/public/v1/live/ws"]!.get.responses)).toEqual(
      expect.arrayContaining(["101", "401", "403", "422", "426", "429"]),
    );
  });
});
