import { describe, expect, it } from "vitest";
import { followReturn, meanInterval, scorecardRows, takerFeePerShare, wilsonInterval } from "./scorecard.js";

describe("the scorecard's arithmetic", () => {
  it("follows a signal at the next trade's price with the taker fee (hand-computed)", () => {
    // p = 0.40, rate 0.04: fee 0.04 × 0.4 × 0.6 = 0.0096; won: (1 − 0.4096) / 0.4096 = 1.44140625.
    expect(takerFeePerShare(0.04, 0.4)).toBeCloseTo(0.0096, 12);
    expect(followReturn(0.4, 0.04, 1)).toBeCloseTo(1.44140625, 12);
    expect(followReturn(0.4, 0.04, 0)).toBe(-1);
    expect(followReturn(0.5, 0, 0.5)).toBe(0);
  });

  it("gives the Wilson interval of 8 hits in 10 as published tables do (0.490 to 0.943)", () => {
    const [low, high] = wilsonInterval(8, 10)!;
    expect(low).toBeCloseTo(0.4902, 4);
    expect(high).toBeCloseTo(0.9433, 4);
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(wilsonInterval(0, 5)![0]).toBe(0);
  });

  it("gives a mean with its normal interval, none under two values", () => {
    const { mean, interval } = meanInterval([1, 2, 3]);
    expect(mean).toBe(2);
    expect(interval![0]).toBeCloseTo(2 - 1.96 / Math.sqrt(3), 12);
    expect(interval![1]).toBeCloseTo(2 + 1.96 / Math.sqrt(3), 12);
    expect(meanInterval([5])).toEqual({ mean: 5, interval: null });
  });

  it("groups per kind and month, then per kind over all months; an open market is not graded", () => {
    const june = Date.UTC(2026, 5, 10) / 1000;
    const july = Date.UTC(2026, 6, 2) / 1000;
    const rows = scorecardRows([
      { kind: "consensus", emittedAt: june, payout: 1, entryPrice: 0.4, feeRate: 0.04 },
      { kind: "consensus", emittedAt: july, payout: 0, entryPrice: null, feeRate: 0 },
      { kind: "consensus", emittedAt: july, payout: null, entryPrice: 0.5, feeRate: 0 },
    ]);
    expect(rows.map((r) => [r.month, r.signals, r.graded, r.hits, r.followed])).toEqual([
      ["2026-06", 1, 1, 1, 1],
      ["2026-07", 2, 1, 0, 0],
      ["all", 3, 2, 1, 1],
    ]);
    expect(rows[2]!.hitRate).toBe(0.5);
    expect(rows[0]!.meanReturn).toBeCloseTo(1.44140625, 12);
  });
});
