import { describe, expect, it } from "vitest";
import {
  TEST_REDIS_URL,
  deleteRedisPrefix,
  platformBackends,
  platformsPerTest,
  uniqueName,
} from "../../test/support/backends.js";
import { ManualClock } from "./clock.js";
import { createPlatform } from "./index.js";
import type { MemoryPresence } from "./presence.js";

const open = platformsPerTest();

const waitFor = async (check: () => boolean, ms = 2000) => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe.each(platformBackends)("platform on $kind", (backend) => {
  it("serves a cached value while fresh and expires it by the injected clock", async () => {
    const clock = new ManualClock();
    const { cache } = await open(backend, clock);
    await cache.set("k", { n: 1 }, 60_000);
    clock.advance(59_999);
    expect(await cache.get("k")).toEqual({ n: 1 });
    clock.advance(1);
    expect(await cache.get("k")).toBeUndefined();
  });

  it("loads once for concurrent callers and reuses the value within the TTL", async () => {
    const clock = new ManualClock();
    const { cache } = await open(backend, clock);
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 20));
      return loads;
    };
    const results = await Promise.all([cache.getOrLoad("x", 300_000, load), cache.getOrLoad("x", 300_000, load)]);
    expect(results.map((r) => r.value)).toEqual([1, 1]);
    clock.advance(299_000);
    expect((await cache.getOrLoad("x", 300_000, load)).value).toBe(1);
    expect(loads).toBe(1);
  });

  it("keeps nothing while its admission is closed, and nothing whose load began before it opened", async () => {
    const clock = new ManualClock();
    const { cache } = await open(backend, clock);
    let admitted = false;
    cache.admitWhen(() => admitted);
    let loads = 0;
    const load = async () => ++loads;
    expect((await cache.getOrLoad("early", 60_000, load)).value).toBe(1);
    expect((await cache.getOrLoad("early", 60_000, load)).value).toBe(2);
    await cache.set("set-early", "x", 60_000);
    expect(await cache.get("set-early")).toBeUndefined();
    let release: (() => void) | undefined;
    const slow = cache.getOrLoad(
      "straddling",
      60_000,
      () => new Promise<string>((resolve) => (release = () => resolve("before"))),
    );
    await waitFor(() => release !== undefined);
    admitted = true;
    release!();
    expect((await slow).value).toBe("before");
    expect((await cache.getOrLoad("straddling", 60_000, async () => "after")).value).toBe("after");
    expect((await cache.getOrLoad("early", 60_000, load)).value).toBe(3);
    expect((await cache.getOrLoad("early", 60_000, load)).value).toBe(3);
  });

  it("falls back to the last known good value when a reload fails, and rethrows without one", async () => {
    const clock = new ManualClock();
    const { cache } = await open(backend, clock);
    await cache.getOrLoad("status", 45_000, async () => "v1");
    clock.advance(46_000);
    const fallback = await cache.getOrLoad("status", 45_000, async () => {
      throw new Error("upstream down");
    });
    expect(fallback).toMatchObject({ value: "v1", stale: true });
    const fresh = await cache.getOrLoad("status", 45_000, async () => "v2");
    expect(fresh).toMatchObject({ value: "v2", stale: false });
    await expect(
      cache.getOrLoad("never-loaded", 45_000, async () => {
        throw new Error("upstream down");
      }),
    ).rejects.toThrow("upstream down");
  });

  it("delivers published messages to subscribers until they unsubscribe", async () => {
    const { pubsub } = await open(backend, new ManualClock());
    const got: string[] = [];
    const stop = await pubsub.subscribe("trades", (m) => got.push(m));
    await pubsub.publish("trades", "a");
    await pubsub.publish("other", "x");
    await waitFor(() => got.length === 1);
    await stop();
    await pubsub.publish("trades", "b");
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toEqual(["a"]);
  });

  it("counts distinct live members of a presence set and expires them", async () => {
    const clock = new ManualClock();
    const { presence } = await open(backend, clock);
    await presence.touch("wallet:0xa", "s1", 90_000);
    await presence.touch("wallet:0xa", "s2", 90_000);
    await presence.touch("wallet:0xa", "s1", 90_000);
    await presence.touch("wallet:0xb", "s1", 90_000);
    expect(await presence.count("wallet:0xa")).toBe(2);
    clock.advance(60_000);
    await presence.touch("wallet:0xa", "s2", 90_000);
    clock.advance(31_000);
    expect(await presence.count("wallet:0xa")).toBe(1);
    clock.advance(60_000);
    expect(await presence.count("wallet:0xa")).toBe(0);
    expect(await presence.count("nobody")).toBe(0);
  });

  it("keeps no presence set past its last member's expiry: swept in memory without a count, expired by Redis a few seconds later", async () => {
    const clock = new ManualClock();
    const platform = await open(backend, clock);
    await platform.presence.touch("wallet:0xa", "s:1", 30_000);
    // A member touched later with a shorter TTL does not shorten the set's life.
    await platform.presence.touch("wallet:0xa", "s:2", 10_000);
    if (platform.redis) {
      const ttl = await platform.redis.pttl(`${platform.redisPrefix}presence:wallet:0xa`);
      expect(ttl).toBeGreaterThan(25_000);
      expect(ttl).toBeLessThanOrEqual(35_000);
    } else {
      const presence = platform.presence as MemoryPresence;
      clock.advance(29_999);
      await platform.presence.touch("wallet:0xb", "s:1", 30_000);
      expect(presence.footprint.sets).toBe(2);
      clock.advance(1);
      // Each touch sweeps a few other sets in turn: a handful of touches elsewhere pass over the expired one.
      for (const set of ["wallet:0xc", "wallet:0xd", "wallet:0xe"]) await platform.presence.touch(set, "s:1", 30_000);
      expect(presence.footprint).toEqual({ sets: 4, members: 4 });
    }
  });

  it("believes a 'not found' for CACHE_NOT_FOUND_SECONDS only, and never as last-known-good", async () => {
    const clock = new ManualClock();
    const platform = await open(backend, clock);
    const { cache } = platform;
    let loads = 0;
    const lookup = () =>
      cache.getOrLoadFound<string>("wallet-overview:0xunknown", 60_000, async () => {
        loads++;
        return null;
      });
    expect((await lookup()).value).toBeNull();
    if (platform.redis)
      expect(await platform.redis.pttl(`${platform.redisPrefix}cache:wallet-overview:0xunknown`)).toBeLessThanOrEqual(
        30_000,
      );
    clock.advance(29_999);
    await lookup();
    expect(loads).toBe(1);
    clock.advance(1);
    await lookup();
    expect(loads).toBe(2);
    clock.advance(30_000);
    await expect(
      cache.getOrLoadFound("wallet-overview:0xunknown", 60_000, async () => Promise.reject(new Error("store down"))),
    ).rejects.toThrow("store down");
    // A found value keeps the full TTL, and stands in for a failed reload.
    expect((await cache.getOrLoadFound("wallet-overview:0xknown", 60_000, async () => "found")).value).toBe("found");
    clock.advance(59_999);
    expect(await cache.get("wallet-overview:0xknown")).toBe("found");
    clock.advance(1);
    expect(
      await cache.getOrLoadFound("wallet-overview:0xknown", 60_000, async () =>
        Promise.reject(new Error("store down")),
      ),
    ).toMatchObject({ value: "found", stale: true });
  });
});

describe.runIf(TEST_REDIS_URL)("platform shared by two processes through Redis", () => {
  it("shares presence, cache and pub/sub between two platform instances", async () => {
    const prefix = uniqueName("pelagic_test") + ":";
    const clock = new ManualClock();
    const options = { redisUrl: TEST_REDIS_URL, redisPrefix: prefix, cacheMaxEntries: 100, cacheStaleSeconds: 60 };
    const a = await createPlatform(options, clock);
    const b = await createPlatform(options, clock);
    try {
      await a.presence.touch("home", "s1", 30_000);
      await b.presence.touch("home", "s2", 30_000);
      expect(await a.presence.count("home")).toBe(2);
      await a.cache.set("k", 42, 10_000);
      expect(await b.cache.get("k")).toBe(42);
      const got: string[] = [];
      await b.pubsub.subscribe("live", (m) => got.push(m));
      await a.pubsub.publish("live", "hello");
      await waitFor(() => got.length === 1);
      expect(got).toEqual(["hello"]);
    } finally {
      await a.close();
      await b.close();
      await deleteRedisPrefix(TEST_REDIS_URL as string, prefix);
    }
  });
});
