/**
 * Two API processes on Redis, with the relay (as the ingest process runs it) publishing: each subscriber of each
 * process gets every trade once, labelled the same; the per-key cap of 5 streams holds across processes; and a
 * process that stops ends its streams and gives their slots back at once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LIVE_TRADES_CHANNEL, type LiveTradeMessage } from "../src/ingest/live-message.js";
import { LIVE_CHANNELS, LiveRelay, realScheduler } from "../src/live/index.js";
import type { RelayTradeEvent } from "../src/live/trade-events.js";
import { createPlatform } from "../src/platform/index.js";
import { createLogger } from "../src/platform/logger.js";
import { TEST_REDIS_URL, deleteRedisPrefix, uniqueName, sqliteBackend } from "./support/backends.js";
import { runPelagic, spawnPelagic, type Running } from "./support/cli.js";
import { openSse, openWs, until, type SseClient, type WsClient } from "./support/live-clients.js";

const TRANSACTIONS = 40;

/** A MINT as the venue's feed shows it: two BUY rows of one size, NO at 0.03 and YES at 0.97. */
function mintRows(i: number, receivedAtMs: number): LiveTradeMessage[] {
  const tx = `0x${i.toString(16).padStart(64, "0")}`;
  const row = (outcomeIndex: number, price: number): LiveTradeMessage => ({
    type: "trade",
    via: "rtds",
    key: `data:${tx}:${outcomeIndex}`,
    txHash: tx,
    wallet: `0x${(i * 2 + outcomeIndex + 1).toString(16).padStart(40, "0")}`,
    conditionId: `0x${"c".repeat(64)}`,
    tokenId: String(1000 + outcomeIndex),
    outcomeIndex,
    outcome: outcomeIndex === 0 ? "YES" : "NO",
    outcomeLabel: outcomeIndex === 0 ? "Yes" : "No",
    side: "BUY",
    size: 100_000_000,
    price,
    usd: price * 100,
    fee: null,
    ts: Math.floor(receivedAtMs / 1000),
    receivedAtMs,
    title: "Will it?",
    slug: "will-it",
    eventSlug: "it",
    name: null,
    pseudonym: "Whale",
    profileImage: null,
    bio: null,
  });
  return [row(1, 30_000), row(0, 970_000)];
}

describe.runIf(TEST_REDIS_URL)("live streams across two API processes on Redis", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "pelagic-live-procs-"));
  const prefix = uniqueName("pelagic_live") + ":";
  const env = {
    DATA_DIR: dataDir,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: prefix,
    DATABASE_URL: "",
    LOG_LEVEL: "info",
  };
  const processes: Running[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];

  afterAll(async () => {
    for (const p of processes) p.child.kill("SIGTERM");
    await Promise.all(processes.map((p) => p.exited));
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await deleteRedisPrefix(TEST_REDIS_URL as string, prefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("delivers every trade once to each subscriber of each process, caps streams per key across them, and frees a stopped process's slots", async () => {
    const created = runPelagic(["keys", "create", "--account", "twin", "--plan", "premium"], env);
    expect(created.status).toBe(0);
    const key = /key:\s+(pelagic_\S+)/.exec(created.stdout)?.[1] as string;
    for (let i = 0; i < 2; i++) processes.push(spawnPelagic(["serve", "--role", "api", "--port", "0"], env));
    const urls = await Promise.all(
      processes.map((p) => p.waitFor((l) => l.msg === "pelagic serving").then((l) => l.url as string)),
    );

    // The relay, as the ingest process runs it, on the same Redis.
    const platform = await createPlatform({
      redisUrl: TEST_REDIS_URL,
      redisPrefix: prefix,
      cacheMaxEntries: 100,
      cacheStaleSeconds: 60,
    });
    cleanups.push(() => platform.close());
    const { store, dispose } = await sqliteBackend.open();
    cleanups.push(dispose);
    const relay = new LiveRelay({
      pubsub: platform.pubsub,
      store,
      logger: createLogger("silent"),
      scheduler: realScheduler(),
      holdMs: 700,
    });
    await relay.start();
    cleanups.push(() => relay.stop());

    const headers = { "x-api-key": key };
    const subscribers: SseClient[] = [];
    for (const url of urls)
      for (let i = 0; i < 2; i++) subscribers.push(await openSse(`${url}/api/public/v1/live/trades`, headers));
    const ws = (await openWs(`${urls[1]!.replace("http", "ws")}/api/public/v1/live/ws`, { headers })) as WsClient;
    expect(subscribers.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    // The API processes subscribe to the relay's channel when their first stream opens.
    await until("both API processes subscribed", async () => {
      const [, count] = (await platform.redis!.pubsub("NUMSUB", prefix + LIVE_CHANNELS.trades)) as [string, number];
      return Number(count) === 2;
    });

    for (let i = 0; i < TRANSACTIONS; i++) {
      for (const row of mintRows(i, Date.now()))
        await platform.pubsub.publish(LIVE_TRADES_CHANNEL, JSON.stringify(row));
      if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const s of subscribers) await s.waitFor("every fill", (frames) => frames.length >= 2 * TRANSACTIONS, 15_000);
    await ws.waitFor("every fill", (messages) => messages.length >= 2 * TRANSACTIONS, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const expected = Array.from({ length: TRANSACTIONS }, (_, i) =>
      mintRows(i, 0).map((r) => `${r.txHash}|${r.wallet}`),
    ).flat();
    for (const s of [
      ...subscribers.map((c) => c.trades<RelayTradeEvent>()),
      ws.messages.map((m) => m.data as unknown as RelayTradeEvent),
    ]) {
      expect(s.map((e) => `${e.transactionHash}|${e.proxyWallet}`)).toEqual(expected);
      expect(new Set(s.map((e) => e.settlement_type))).toEqual(new Set(["MINT"]));
    }

    // 5 streams are open for the key (2 + 2 SSE, 1 WebSocket): the next one is refused by either process.
    expect((await openSse(`${urls[0]}/api/public/v1/live/trades`, headers)).status).toBe(429);
    expect((await openSse(`${urls[1]}/api/public/v1/live/trades-indexed`, headers)).status).toBe(429);

    processes[0]!.child.kill("SIGTERM");
    expect(await processes[0]!.exited).toBe(0);
    await Promise.all(subscribers.slice(0, 2).map((s) => s.ended));
    const reopened = [];
    for (let i = 0; i < 2; i++) reopened.push(await openSse(`${urls[1]}/api/public/v1/live/trades`, headers));
    expect(reopened.map((s) => s.status)).toEqual([200, 200]);
    expect((await openSse(`${urls[1]}/api/public/v1/live/trades`, headers)).status).toBe(429);
    for (const s of [...subscribers, ...reopened]) s.close();
    ws.socket.close();
  }, 240_000);
});
