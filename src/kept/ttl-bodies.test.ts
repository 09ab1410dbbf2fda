import { describe, expect, it } from "vitest";
import { ManualClock } from "../platform/clock.js";
import { TtlBodies } from "./ttl-bodies.js";

describe("TtlBodies", () => {
  it("serves an answer for at most its window, computes one at a time, recomputes after a failure or a clock set back", async () => {
    const clock = new ManualClock(1_000_000 * 1_000);
    const cache = new TtlBodies(clock, 60, { maxEntries: 2, maxBytes: 1 << 20 });
    const computed: number[] = [];
    let fail = false;
    const compute = async (now: number) => {
      computed.push(now);
      if (fail) throw new Error("store unavailable");
      return `{"as_of":${now}}`;
    };
    const text = async (key = "a") => (await cache.get(key, compute)).json.toString();
    expect(await Promise.all([text(), text()])).toEqual(['{"as_of":1000000}', '{"as_of":1000000}']);
    expect(computed).toHaveLength(1);
    clock.set((1_000_000 + 44) * 1_000);
    expect(await text()).toBe('{"as_of":1000000}'); // within three quarters of the window: always cached
    clock.set((1_000_000 + 60) * 1_000);
    fail = true;
    await expect(text()).rejects.toThrow("store unavailable");
    fail = false;
    expect(await text()).toBe('{"as_of":1000060}');
    clock.set((1_000_000 + 30) * 1_000);
    expect(await text()).toBe('{"as_of":1000030}'); // an answer computed later than the clock is not served
    expect(computed).toEqual([1_000_000, 1_000_060, 1_000_060, 1_000_030]);
    // Past maxEntries the oldest entry goes.
    await text("b");
    await text("c");
    await text("a");
    expect(computed).toHaveLength(7);
  });

  it("keeps an answer only if its admission held when the computation began", async () => {
    const clock = new ManualClock(1_000_000 * 1_000);
    let admitted = false;
    const cache = new TtlBodies(clock, 60, { maxEntries: 10, maxBytes: 1 << 20 }, 0, () => admitted);
    let n = 0;
    const compute = async () => `{"n":${++n}}`;
    const text = async () => (await cache.get("a", compute)).json.toString();
    expect(await text()).toBe('{"n":1}');
    expect(await text()).toBe('{"n":2}');
    admitted = true;
    expect(await text()).toBe('{"n":3}');
    expect(await text()).toBe('{"n":3}');
  });
});
