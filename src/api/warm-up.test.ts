import { afterEach, describe, expect, it, vi } from "vitest";
import { BackgroundWork } from "../platform/background-work.js";
import { ManualClock } from "../platform/clock.js";
import { createPlatform } from "../platform/index.js";
import { createLogger } from "../platform/logger.js";
import type { AggregateComputer } from "../analytics/windows/window-aggregates.js";
import { WarmUps } from "./warm-up.js";

afterEach(() => vi.useRealTimers());

/** These cases register their own jobs; none asks for a window aggregate. */
const noAggregates: AggregateComputer = {
  compute: () => Promise.reject(new Error("no window aggregate in this test")),
  close: async () => {},
};

describe("WarmUps", () => {
  it("computes each job before the first request, then each windowed one again at every boundary of its window", async () => {
    vi.useFakeTimers();
    const clock = new ManualClock(1_000_050_000); // 30 s into a minute (1,000,020 is one)
    const platform = await createPlatform({ redisPrefix: "test:", cacheMaxEntries: 100, cacheStaleSeconds: 60 }, clock);
    const background = new BackgroundWork();
    const warmUps = new WarmUps(platform, () => true, background, noAggregates);
    const computedAt: number[] = [];
    const movers = warmUps.windowed("movers", 60, async (now) => (computedAt.push(now), now));
    let failures = 0;
    warmUps.add("fails", async () => {
      failures++;
      throw new Error("store unavailable");
    });
    await warmUps.runAll(createLogger("silent"));
    expect([computedAt, failures]).toEqual([[1_000_050], 1]);
    expect(await movers()).toBe(1_000_050); // the request finds it computed
    expect(computedAt).toHaveLength(1);
    // At the next minute's boundary it is computed for the new window, before anyone asks.
    clock.set(1_000_080_000 + 20);
    await vi.advanceTimersByTimeAsync(30_021);
    expect(computedAt).toEqual([1_000_050, 1_000_080]);
    expect(await movers()).toBe(1_000_080);
    expect(failures).toBe(1);
    // Once the app closes, no boundary computes it again.
    await background.close(1_000, createLogger("silent"));
    clock.set(1_000_140_000 + 20);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(computedAt).toEqual([1_000_050, 1_000_080]);
    await platform.close();
  });

  it("runs the recomputations due at one boundary one after the other, not as one block", async () => {
    vi.useFakeTimers();
    const clock = new ManualClock(1_000_150_000);
    const platform = await createPlatform({ redisPrefix: "test:", cacheMaxEntries: 100, cacheStaleSeconds: 60 }, clock);
    const background = new BackgroundWork();
    const warmUps = new WarmUps(platform, () => true, background, noAggregates);
    const steps: string[] = [];
    const job = (name: string) => async (now: number) => {
      steps.push(`${name} starts`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      steps.push(`${name} ends`);
      return now;
    };
    warmUps.windowed("flows", 60, job("flows"));
    warmUps.windowed("movers", 300, job("movers"));
    const started = warmUps.runAll(createLogger("silent"));
    await vi.advanceTimersByTimeAsync(20);
    await started;
    steps.length = 0;
    // 1,000,200 is a boundary of both windows.
    clock.set(1_000_200_000 + 20);
    await vi.advanceTimersByTimeAsync(50_040);
    expect(steps).toEqual(["flows starts", "flows ends", "movers starts", "movers ends"]);
    await background.close(1_000, createLogger("silent"));
    await platform.close();
  });
});
