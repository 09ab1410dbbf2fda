import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../platform/clock.js";
import { createPlatform, type Platform } from "../platform/index.js";
import { LocalWindowCache } from "./window-cache.js";

describe("LocalWindowCache", () => {
  let platform: Platform | undefined;
  afterEach(async () => platform?.close());

  it("loads once per window, again in the next, and retries a failed load", async () => {
    const clock = new ManualClock(1_000 * 60_000);
    platform = await createPlatform({ redisPrefix: "test", cacheMaxEntries: 100, cacheStaleSeconds: 60 }, clock);
    const loads: number[] = [];
    let fail = false;
    const cache = new LocalWindowCache(platform, 60, async (now) => {
      loads.push(now);
      if (fail) throw new Error("store unavailable");
      return now;
    });
    expect(await cache.get()).toBe(60_000);
    clock.set(clock.nowMs() + 59_000);
    expect(await cache.get()).toBe(60_000); // same window: the first value, no second load
    expect(loads).toHaveLength(1);
    clock.set(clock.nowMs() + 1_000);
    fail = true;
    await expect(cache.get()).rejects.toThrow("store unavailable");
    fail = false;
    expect(await cache.get()).toBe(60_060); // the failure is not kept: the next caller loads again
    expect(loads).toEqual([60_000, 60_060, 60_060]);
  });
});
