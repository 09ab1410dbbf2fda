/**
 * The published RTDS frames and messages of test/fixtures/venue-real (src/venue/testing/real-payloads.ts names them),
 * through the RTDS shapes and the RTDS client, served them over a WebSocket as the venue sends them.
 */
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { RtdsClient, type RtdsInvalidFrame, type RtdsMessage } from "./rtds.js";
import {
  RtdsEnvelopeShape,
  RtdsSubscribeMessageShape,
  RtdsTradePayloadShape,
  fillFromRtdsTrade,
} from "./shapes/index.js";
import {
  RTDS_SUBSCRIBE_MESSAGE_FILES,
  RTDS_TRADE_FRAME_FILES,
  asObject,
  corpusJson,
  corpusText,
  type Json,
  type RtdsTradeFrameFile,
} from "./testing/real-payloads.js";

const RTDS_TRADE_FRAMES: Record<RtdsTradeFrameFile, Json> = {
  "rtds-activity-trades.pmcmc.json": {
    source: "rtds",
    // The frame's proxyWallet is checksummed (mixed case).
    wallet: "0x1015bb260154f51e5f432cb0a3227c1619fcbac8",
    txHash: "0x0a8e0353b2432ea36cb7ea163f212bddd8f1d1fe9078ef91c3d262b3f87c4874",
    conditionId: "0x6c0529846fd87559429fb702416d4da1c9566cfd15317f9faaf62c436483a71a",
    tokenId: "86773034724744448744514889729172499268401134795843352779107239076687775715536",
    outcomeIndex: 0,
    outcomeSide: "YES",
    outcomeLabel: "Up",
    direction: "BUY",
    sizeMicro: 4_330_000,
    priceMicro: 450_000,
    usdMicro: 1_948_500,
    // No `fee` in the frame.
    feeMicro: null,
    timestamp: 1_785_027_308,
    eventSlug: "btc-updown-5m-1785027300",
  },
};

describe("RTDS frames", () => {
  it.each(RTDS_TRADE_FRAME_FILES)("%s is an activity trades frame and gives a trade", (file) => {
    const frame = asObject(corpusJson(file));
    const envelope = RtdsEnvelopeShape.parse(frame, file);
    expect([envelope.topic, envelope.type]).toEqual(["activity", "trades"]);
    const payload = RtdsTradePayloadShape.parse(envelope.payload, file);
    expect(payload.proxyWallet).not.toBe(payload.proxyWallet.toLowerCase());
    // The envelope's timestamp is in milliseconds, the payload's in seconds.
    expect(Math.floor(envelope.timestamp / 1000)).toBe(payload.timestamp);
    expect(fillFromRtdsTrade(payload)).toMatchObject(RTDS_TRADE_FRAMES[file] as Json);
  });

  it.each(RTDS_SUBSCRIBE_MESSAGE_FILES)("%s has the subscribe message's shape the client sends", (file) => {
    const message = RtdsSubscribeMessageShape.parse(corpusJson(file), file);
    // `filters` is a string; `gamma_auth` is a field the shape lets through.
    expect(typeof message.subscriptions[0]?.filters).toBe("string");
    const ours = new RtdsClient({ url: "ws://127.0.0.1:9" }).subscribeMessage();
    expect(Object.keys(ours)).toEqual(Object.keys(message));
    expect(RtdsSubscribeMessageShape.is(ours)).toBe(true);
  });

  it("the RTDS client reads the frames as the venue sends them: the trade delivered, the documented structure refused", async () => {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
    const frames = [...RTDS_TRADE_FRAME_FILES, "rtds-envelope.docs.json"].map(corpusText);
    wss.on("connection", (socket) => socket.once("message", () => frames.forEach((frame) => socket.send(frame))));
    const rtds = new RtdsClient({ url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}` });
    const messages: RtdsMessage[] = [];
    const invalid: RtdsInvalidFrame[] = [];
    rtds.onMessage((m) => messages.push(m));
    rtds.onInvalid((f) => invalid.push(f));
    try {
      rtds.start();
      for (let i = 0; i < 400 && messages.length + invalid.length < frames.length; i++)
        await new Promise((r) => setTimeout(r, 5));
      expect(messages.map((m) => m.type)).toEqual(["trades"]);
      const fill = fillFromRtdsTrade((messages[0] as RtdsMessage).payload);
      expect(fill.wallet).toBe(RTDS_TRADE_FRAMES["rtds-activity-trades.pmcmc.json"]?.wallet);
      expect(invalid.map((f) => f.issues.map((i) => i.path))).toEqual([["/timestamp"]]);
      expect(rtds.stats).toMatchObject({ messages: 1, invalid: 1 });
    } finally {
      await rtds.close();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    }
  });
});
