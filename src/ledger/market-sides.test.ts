import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marketSides, type SideTrade } from "./market-sides.js";
import { replay } from "./state.js";
import { T0, buy, sell, trade } from "./testing/events.js";
import type { LedgerFill, OutcomeIndex } from "./types.js";

const W = "0xaaaa000000000000000000000000000000000025";
const M = "0xmarket-sides";

const asTrade = (f: LedgerFill): SideTrade => ({
  outcomeIndex: f.outcomeIndex,
  side: f.side,
  size: f.size,
  usd: f.usd,
  ts: f.ts,
  entryType: f.entryType,
});

describe("wallet-market sides (docs/METRICS.md, wallet-market summary)", () => {
  it("sums buys and sells per side and keeps the reference average of the shares held", () => {
    const [yes, no] = marketSides(
      [
        buy(W, M, 0, 100, 0.4, { ts: T0 }),
        buy(W, M, 0, 300, 0.6, { ts: T0 + 10 }),
        sell(W, M, 0, 150, 0.7, { ts: T0 + 20 }),
        buy(W, M, 1, 50, 0.2, { ts: T0 + 30 }),
      ].map(asTrade),
    );
    // YES: 400 bought for 40 + 180 = 220; average (0.4 * 100 + 0.6 * 300) / 400 = 0.55; 150 sold for 105, average kept.
    expect(yes).toEqual({
      buyTokens: 400e6,
      buyCost: 220e6,
      sellTokens: 150e6,
      sellProceeds: 105e6,
      trades: 3,
      avgPrice: 550_000,
      held: 250e6,
      firstTs: T0,
      lastTs: T0 + 20,
    });
    expect(no).toEqual({
      buyTokens: 50e6,
      buyCost: 10e6,
      sellTokens: 0,
      sellProceeds: 0,
      trades: 1,
      avgPrice: 200_000,
      held: 50e6,
      firstTs: T0 + 30,
      lastTs: T0 + 30,
    });
  });

  it("starts the average afresh once every share was sold, and books no sale beyond the shares held", () => {
    const [yes] = marketSides(
      [buy(W, M, 0, 10, 0.9), sell(W, M, 0, 25, 0.95, { ts: T0 + 1 }), buy(W, M, 0, 10, 0.3, { ts: T0 + 2 })].map(
        asTrade,
      ),
    );
    // The sale of 25 empties the 10 held (the other 15 came from elsewhere); the next buy's price is the average.
    expect(yes.avgPrice).toBe(300_000);
    expect(yes.held).toBe(10e6);
    expect(yes.sellTokens).toBe(25e6);
  });

  it("reads a SELL settled as MINT as a buy of the other side, and a BUY settled as MERGE as a sale of it", () => {
    const [yes, no] = marketSides(
      [
        trade(W, M, 0, "SELL", 100, 0.3, { entryType: "MINT" }),
        trade(W, M, 0, "BUY", 40, 0.6, { entryType: "MERGE", ts: T0 + 5 }),
      ].map(asTrade),
    );
    // 100 NO bought at 1 - 0.3 = 0.7 (cost 70); 40 NO sold at 1 - 0.6 = 0.4 (16).
    expect(yes.trades).toBe(0);
    expect(no).toMatchObject({
      buyTokens: 100e6,
      buyCost: 70e6,
      sellTokens: 40e6,
      sellProceeds: 16e6,
      trades: 2,
      avgPrice: 700_000,
      held: 60e6,
    });
  });

  it("leaves a side without trades empty", () => {
    const [yes, no] = marketSides([]);
    expect(yes).toEqual({
      buyTokens: 0,
      buyCost: 0,
      sellTokens: 0,
      sellProceeds: 0,
      trades: 0,
      avgPrice: null,
      held: 0,
      firstTs: null,
      lastTs: null,
    });
    expect(no).toEqual(yes);
  });

  it("agrees with the ledger's own positions on any sequence of trades in an unresolved market", () => {
    const fillArb = fc.record({
      outcome: fc.constantFrom<OutcomeIndex>(0, 1),
      side: fc.constantFrom<"BUY" | "SELL">("BUY", "SELL"),
      shares: fc.integer({ min: 1, max: 5_000 }),
      cents: fc.integer({ min: 1, max: 99 }),
      entryType: fc.constantFrom("MINT" as const, "MERGE" as const, "COMPLEMENTARY" as const, null),
    });
    fc.assert(
      fc.property(fc.array(fillArb, { minLength: 1, maxLength: 40 }), (drawn) => {
        const fills = drawn.map((d, i) =>
          trade(W, M, d.outcome, d.side, d.shares, d.cents / 100, { ts: T0 + i, entryType: d.entryType }),
        );
        const state = replay(fills);
        const sides = marketSides(fills.map(asTrade));
        for (const outcome of [0, 1] as const) {
          const position = state.position(W, M, outcome);
          expect(sides[outcome].held).toBe(position?.shares ?? 0);
          if (position && position.totalBought > 0) expect(sides[outcome].avgPrice).toBe(position.avgPrice);
          expect(sides[outcome].buyTokens).toBe(position?.totalBought ?? 0);
        }
      }),
    );
  });
});
