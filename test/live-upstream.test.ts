/**
 * The upstream of an API process's streams, killed: the process's own Redis subscription goes through a TCP proxy
 * the test cuts (the shared Redis server itself stays up). The hub then tries LIVE_RECONNECT_ATTEMPTS (5) times, each
 * wait twice the one before from LIVE_RECONNECT_BASE_MS, sends every stream `event: error` and closes it (its slot
 * goes back); once the upstream is back, the next stream starts over and receives events again.
 */
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createKey, verifyKey } from "../src/accounts/keys.js";
import { buildApp } from "../src/api/app.js";
import { loadConfig } from "../src/config/index.js";
import type { LiveHub } from "../src/live/hub.js";
import { LIVE_CHANNELS, RedisUpstream } from "../src/live/index.js";
import type { LinkEvent } from "../src/live/upstream-link.js";
import { createPlatform, type Platform } from "../src/platform/index.js";
import { createLogger } from "../src/platform/logger.js";
import { TEST_REDIS_URL, deleteRedisPrefix, uniqueName, sqliteBackend } from "./support/backends.js";
import { openSse, until } from "./support/live-clients.js";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.js";

const BASE_MS = 40;

describe.runIf(TEST_REDIS_URL)("the streams' upstream killed (Redis behind a proxy)", () => {
  const prefix = uniqueName("pelagic_live_up") + ":";
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await deleteRedisPrefix(TEST_REDIS_URL as string, prefix);
  });

  it("reconnects 5 times with exponential backoff, then sends event: error and closes; a later stream starts over", async () => {
    const target = new URL(TEST_REDIS_URL as string);
    const proxy: TcpProxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    cleanups.push(() => proxy.close());
    const { store, dispose } = await sqliteBackend.open();
    cleanups.push(dispose);
    const platform: Platform = await createPlatform({
      redisUrl: TEST_REDIS_URL,
      redisPrefix: prefix,
      cacheMaxEntries: 100,
      cacheStaleSeconds: 60,
    });
    cleanups.push(() => platform.close());
    const throughProxy = new Redis(`redis://127.0.0.1:${proxy.port}`, { lazyConnect: true });
    cleanups.push(async () => throughProxy.disconnect());
    let hub: LiveHub | undefined;
    const config = loadConfig({ LOG_LEVEL: "silent", LIVE_RECONNECT_BASE_MS: String(BASE_MS) });
    const app = await buildApp(
      {
        config,
        store,
        platform,
        expectedSources: [],
        startedAt: platform.clock.now(),
        live: { upstream: new RedisUpstream(throughProxy, prefix), onHub: (created) => (hub = created) },
      },
      createLogger("silent"),
    );
    cleanups.push(() => app.close());
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    const { key } = await createKey(store.db, { account: "upstream", plan: "premium", now: platform.clock.now() });
    const check = await verifyKey(store.db, key);
    const slots = `stream:key:${check.status === "valid" ? check.keyId : 0}`;
    const events: Array<LinkEvent & { atMs: number }> = [];
    hub!.onLinkEvent((event) => events.push({ ...event, atMs: performance.now() }));

    const stream = await openSse(`${url}/api/public/v1/live/trades`, { "x-api-key": key });
    await until("the upstream subscribed", () => events.some((e) => e.type === "up"));
    await platform.pubsub.publish(LIVE_CHANNELS.trades, JSON.stringify({ n: 1 }));
    await stream.waitFor("the first event", (frames) => frames.length === 1);

    proxy.cut();
    await stream.ended;
    expect(stream.frames.map((f) => f.event ?? f.comment)).toEqual(["trade", "error"]);
    expect(JSON.parse(stream.frames[1]!.data!)).toEqual({
      detail: "The live trade upstream is unavailable (5 reconnect attempts failed); reconnect later",
    });
    expect(events.map((e) => (e.type === "retry" ? `retry ${e.attempt} after ${e.delayMs} ms` : e.type))).toEqual([
      "up",
      "dropped",
      ...[1, 2, 3, 4, 5].map((n) => `retry ${n} after ${BASE_MS * 2 ** (n - 1)} ms`),
      "lost",
    ]);
    // The proxy saw each attempt, each wait longer than the one before.
    expect(proxy.refused).toHaveLength(5);
    const gaps = proxy.refused.slice(1).map((at, i) => at - proxy.refused[i]!);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(BASE_MS * 2 ** (i + 1) - 5));
    await until("the stream's slot back", async () => (await platform.slots.count(slots)) === 0);

    proxy.restore();
    const later = await openSse(`${url}/api/public/v1/live/trades`, { "x-api-key": key });
    await until("the upstream back", () => events.at(-1)?.type === "up");
    await platform.pubsub.publish(LIVE_CHANNELS.trades, JSON.stringify({ n: 2 }));
    await later.waitFor("an event again", (frames) => frames.length === 1);
    expect(later.trades()).toEqual([{ n: 2 }]);
    later.close();
  }, 60_000);
});
