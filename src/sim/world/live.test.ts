import { describe, expect, it } from "vitest";
import { startLive } from "./live.js";
import { TEST_END, invariantViolations, smallWorld } from "./testing/worlds.js";
import { worldDigest } from "./world.js";

describe("live mode", () => {
  it("continues the world deterministically, however the advancing is split", () => {
    const a = smallWorld(99);
    const b = smallWorld(99);
    const liveA = startLive(a, { from: TEST_END, matchesPerSecond: 2 });
    const first = liveA.advanceTo(TEST_END + 300);
    liveA.advanceTo(TEST_END + 301);
    const last = liveA.advanceTo(TEST_END + 900);
    const liveB = startLive(b, { from: TEST_END, matchesPerSecond: 2 });
    const all = liveB.advanceTo(TEST_END + 900);
    expect(all.matches).toEqual([first.matches[0], last.matches[1]]);
    expect(worldDigest(a)).toBe(worldDigest(b));
    expect(liveA.cursor).toBe(liveB.cursor);
    expect(liveA.cursor).toBeLessThanOrEqual(TEST_END + 900);
    // about the configured rate
    const n = all.matches[1] - all.matches[0];
    expect(n).toBeGreaterThan(900 * 2 * 0.7);
    expect(n).toBeLessThan(900 * 2 * 1.3);
  });

  it("appends matches that follow the same rules, in time order, after the history", () => {
    const w = smallWorld(5);
    const before = w.matchCount;
    const lastTs = w.tables.lastTs;
    const live = startLive(w, { from: w.start, matchesPerSecond: 3 });
    const { matches, fills } = live.advanceTo(lastTs + 1_200);
    expect(matches[1] - matches[0]).toBeGreaterThan(100);
    expect(fills[0]).toBe(w.fillCount - (fills[1] - fills[0]));
    expect(w.match(before).ts).toBeGreaterThan(lastTs);
    expect(invariantViolations(w)).toEqual([]);
    // the lazy indexes see the appended fills
    const f = w.fill(fills[1] - 1);
    expect(w.fillsOfWallet(f.wallet).at(-1)).toBe(f.index);
    expect(w.matchesOfMarket(f.market).at(-1)).toBe(f.match);
    const [lo, hi] = w.matchesBetween(lastTs + 1, lastTs + 1_201);
    expect([lo, hi]).toEqual(matches);
  });

  it("is quiet at rate zero", () => {
    const w = smallWorld(6);
    const live = startLive(w, { from: TEST_END, matchesPerSecond: 0 });
    expect(live.advanceTo(TEST_END + 600).matches).toEqual([w.matchCount, w.matchCount]);
  });
});
