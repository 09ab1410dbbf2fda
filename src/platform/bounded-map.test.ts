import { describe, expect, it } from "vitest";
import { BoundedMap } from "./bounded-map.js";
import { MemoryCacheBackend } from "./cache.js";
import { ManualClock } from "./clock.js";

const KIB = 1024;

describe("BoundedMap", () => {
  it("drops the oldest entries past its byte budget, and keeps nothing larger than the budget", () => {
    const map = new BoundedMap<string>({ maxEntries: 1_000, maxBytes: 10 * KIB });
    for (let i = 0; i < 100; i++) map.set(`k${i}`, "v", KIB, Number.POSITIVE_INFINITY, 0);
    expect(map.bytes).toBeLessThanOrEqual(10 * KIB);
    expect(map.size).toBeGreaterThanOrEqual(8);
    expect(map.get("k99", 0)).toBe("v");
    expect(map.get("k0", 0)).toBeUndefined();
    expect(map.set("huge", "v", 10 * KIB, Number.POSITIVE_INFINITY, 0)).toBe(false);
    expect(map.get("huge", 0)).toBeUndefined();
    map.clear();
    expect([map.size, map.bytes]).toEqual([0, 0]);
  });

  it("keeps the recently used entries when reads refresh them", () => {
    const map = new BoundedMap<number>({ maxEntries: 3, maxBytes: 1 << 20 });
    for (const [i, key] of ["a", "b", "c"].entries()) map.set(key, i, 1, 100, 0);
    expect(map.get("a", 0, true)).toBe(0);
    map.set("d", 3, 1, 100, 0);
    expect(["a", "b", "c", "d"].map((k) => map.get(k, 0))).toEqual([0, undefined, 2, 3]);
  });

  it("drops expired entries as later writes pass them, without anyone reading them", () => {
    const map = new BoundedMap<number>({ maxEntries: 1_000_000, maxBytes: 1 << 30 });
    for (let i = 0; i < 1_000; i++) map.set(`old${i}`, i, 10, 50, 0);
    for (let i = 0; i < 1_000; i++) map.set(`new${i}`, i, 10, 500, 100);
    expect(map.size).toBe(1_000);
    expect(map.get("new0", 100)).toBe(0);
  });
});

describe("MemoryCacheBackend", () => {
  it("charges each entry its key and JSON length against the budget, and drops expired entries on later writes", async () => {
    const clock = new ManualClock(0);
    const backend = new MemoryCacheBackend(clock, { maxEntries: 100_000, maxBytes: 64 * KIB });
    const value = { text: "x".repeat(KIB) };
    for (let i = 0; i < 200; i++) await backend.set(`big:${i}`, { value, freshUntil: 1_000 }, 1_000);
    expect(backend.footprint.bytes).toBeLessThanOrEqual(64 * KIB);
    expect(backend.footprint.entries).toBeLessThan(64);
    clock.advance(1_000);
    for (let i = 0; i < 100; i++) await backend.set(`small:${i}`, { value: i, freshUntil: 61_000 }, 60_000);
    expect(backend.footprint.entries).toBe(100);
  });
});
