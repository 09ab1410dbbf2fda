import { describe, expect, it } from "vitest";
import { ceilingAt } from "./size-ceiling.js";

describe("ceilingAt", () => {
  const points = [
    { bytes: 16_384, rps: 20_000 },
    { bytes: 120, rps: 40_000 },
    { bytes: 1_024, rps: 38_000 },
  ];

  it("answers a measured size exactly and the nearest end outside the sizes", () => {
    expect(ceilingAt(points, 1_024)).toBe(38_000);
    expect(ceilingAt(points, 50)).toBe(40_000);
    expect(ceilingAt(points, 100_000)).toBe(20_000);
  });

  it("reads between two sizes on a log scale: 4 KB is halfway from 1 KB to 16 KB", () => {
    expect(ceilingAt(points, 4_096)).toBeCloseTo(29_000, 6);
  });
});
