import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateWorld } from "./generate.js";
import { worldStats } from "./stats.js";
import { TEST_END, invariantViolations } from "./testing/worlds.js";

describe("world invariants (property-based over seeds and sizes)", () => {
  it("never lets a balance go negative, keeps every match consistent and charges fees only to takers", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 8, max: 90 }),
        fc.integer({ min: 60, max: 700 }),
        fc.integer({ min: 500, max: 9_000 }),
        fc.integer({ min: 3, max: 75 }),
        (seed, markets, wallets, fills, days) => {
          const world = generateWorld({ seed, end: TEST_END, markets, wallets, fills, days });
          expect(invariantViolations(world)).toEqual([]);
          expect(world.fillCount).toBeLessThanOrEqual(fills);
        },
      ),
      { numRuns: 8 },
    );
  });

  it("keeps MINT near 80% of fills once the world has some size", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const stats = worldStats(
          generateWorld({ seed, end: TEST_END, markets: 120, wallets: 1_000, fills: 25_000, days: 60 }),
        );
        expect(stats.fillShareByType.MINT).toBeGreaterThan(0.7);
        expect(stats.fillShareByType.MINT).toBeLessThan(0.88);
      }),
      { numRuns: 3 },
    );
  });
});
