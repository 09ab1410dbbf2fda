import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fillPrice, negRiskYesPrice, realizedDelta, toMicroPrice, weightedAveragePrice } from "./fixed-point.js";

/** The subgraph's own formulas in BigInt (graph-ts BigInt.div truncates toward zero, as BigInt does). */
const reference = {
  average: (avg: number, amount: number, price: number, qty: number) =>
    Number((BigInt(avg) * BigInt(amount) + BigInt(price) * BigInt(qty)) / BigInt(amount + qty)),
  delta: (qty: number, d: number) => Number((BigInt(qty) * BigInt(d)) / 1_000_000n),
  price: (usd: number, size: number) => Number((BigInt(usd) * 1_000_000n) / BigInt(size)),
};

describe("weightedAveragePrice (a buy)", () => {
  it("first buy takes the fill price", () => {
    expect(weightedAveragePrice(0, 0, 570_000, 100_000_000)).toBe(570_000);
  });
  it("averages by amount: 100 @ 0.40 then 50 @ 0.70 gives (40 + 35) / 150 = 0.50", () => {
    expect(weightedAveragePrice(400_000, 100_000_000, 700_000, 50_000_000)).toBe(500_000);
  });
  it("truncates to 6 decimals: 1 @ 0.10 then 2 @ 0.20 gives 0.5 / 3 = 0.1666666.. -> 0.166666", () => {
    expect(weightedAveragePrice(100_000, 1_000_000, 200_000, 2_000_000)).toBe(166_666);
  });
  it("truncates toward zero for a negative (NegRisk synthetic) price: -0.4 bought on 0 held", () => {
    // (-400000 * 3 + 100000 * 1) / 4 = -1100000 / 4 = -275000 exactly; and (-1 * 1 + 0) / 3 -> 0, not -1
    expect(weightedAveragePrice(-400_000, 3, 100_000, 1)).toBe(-275_000);
    expect(weightedAveragePrice(-1, 1, 0, 2)).toBe(0);
  });
  it("agrees with BigInt on whale-sized positions", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 2 ** 50 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 2 ** 44 }),
        (avg, amount, price, qty) => {
          expect(weightedAveragePrice(avg, amount, price, qty)).toBe(reference.average(avg, amount, price, qty));
        },
      ),
      { numRuns: 20_000 },
    );
  });
  it("agrees with BigInt for negative prices and beyond the fast-path bounds", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -30_000_000, max: 2 ** 33 }),
        fc.integer({ min: 0, max: 2 ** 53 / 4 }),
        fc.integer({ min: -30_000_000, max: 1_000_000 }),
        fc.integer({ min: 1, max: 2 ** 52 }),
        (avg, amount, price, qty) => {
          expect(weightedAveragePrice(avg, amount, price, qty)).toBe(reference.average(avg, amount, price, qty));
        },
      ),
      { numRuns: 20_000 },
    );
  });
});

describe("realizedDelta (a sell)", () => {
  it("100 shares sold 0.20 above cost realize 20 USD", () => {
    expect(realizedDelta(100_000_000, 200_000)).toBe(20_000_000);
  });
  it("truncates toward zero: 1.5 shares at -0.333333 is -0.4999995 USD -> -0.499999", () => {
    expect(realizedDelta(1_500_000, -333_333)).toBe(-499_999);
    expect(realizedDelta(3, -1)).toBe(0);
  });
  it("agrees with BigInt", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 53 }), fc.integer({ min: -40_000_000, max: 40_000_000 }), (q, d) => {
        expect(realizedDelta(q, d)).toBe(reference.delta(q, d));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("fillPrice", () => {
  it("is usd * 1e6 / size truncated: 5.770370 USD for 10.123456 shares -> 0.570000", () => {
    // 5770370 * 1e6 / 10123456 = 570000.0079.. -> 570000
    expect(fillPrice(5_770_370, 10_123_456)).toBe(570_000);
  });
  it("is 0 for an empty fill", () => {
    expect(fillPrice(0, 0)).toBe(0);
  });
  it("agrees with BigInt", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 52 }), fc.double({ min: 0, max: 1.2, noNaN: true }), (size, p) => {
        const usd = Math.floor(size * p);
        expect(fillPrice(usd, size)).toBe(reference.price(usd, size));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("negRiskYesPrice", () => {
  it("the subgraph's own cases", () => {
    // noPrice 0.75, 3 of 5 NO given up: (0.75 * 3 - 2) / 2 = 0.125
    expect(negRiskYesPrice(3 * 750_000, 3, 5)).toBe(125_000);
    // noPrice 0.73, 1 of 6: (0.73 - 0) / 5 = 0.146
    expect(negRiskYesPrice(730_000, 1, 6)).toBe(146_000);
  });
  it("averages the NO prices with truncation, and may go negative", () => {
    // NO avg prices 0.3 and 0.4 -> 0.35; (0.35 * 2 - 1) / 1 = -0.30
    expect(negRiskYesPrice(700_000, 2, 3)).toBe(-300_000);
    // (1 + 2) / 2 = 1.5 -> 1 micro; (1 * 2 - 1e6) / 2 = -499999
    expect(negRiskYesPrice(3, 2, 4)).toBe(-499_999);
  });
});

describe("toMicroPrice", () => {
  it("maps payouts exactly", () => {
    expect([toMicroPrice(1), toMicroPrice(0), toMicroPrice(0.5), toMicroPrice(0.29)]).toEqual([
      1_000_000, 0, 500_000, 290_000,
    ]);
  });
});
