import { describe, expect, it } from "vitest";
import { CONTRACTS } from "../venue/contracts.js";
import { LedgerState, replay } from "./state.js";
import { DAY, T0, buy, convert, market, merge, micro, redeem, reward, sell, split, trade } from "./testing/events.js";
import type { LedgerEvent, MarketFacts } from "./types.js";

const W = "0xaaaa000000000000000000000000000000000001";

function positionOf(state: LedgerState, conditionId: string, outcome: 0 | 1) {
  return state.position(W, conditionId, outcome);
}

describe("buy, sell and average price (docs/METRICS.md, positions and P&L)", () => {
  // 100 @ 0.40 then 50 @ 0.70: avg = (40 + 35) / 150 = 0.50; sell 60 @ 0.80: +60 * 0.30 = +18;
  // sell 200 @ 0.30 with 90 held: only 90 count, 90 * (0.30 - 0.50) = -18, total 0.
  const state = replay([
    buy(W, "m1", 0, 100, 0.4, { fee: 0.5 }),
    buy(W, "m1", 0, 50, 0.7, { ts: T0 + 10 }),
    sell(W, "m1", 0, 60, 0.8, { ts: T0 + 20 }),
  ]);

  it("averages buys by amount and keeps the average on a sell", () => {
    expect(positionOf(state, "m1", 0)).toMatchObject({
      shares: micro(90),
      avgPrice: micro(0.5),
      totalBought: micro(150),
      realizedPnl: micro(18),
      fees: micro(0.5),
      firstTs: T0,
      lastTs: T0 + 20,
      open: true,
      closedTs: -1,
    });
  });

  it("caps a sale at the shares held and closes the position at zero", () => {
    state.apply(sell(W, "m1", 0, 200, 0.3, { ts: T0 + 30 }));
    expect(positionOf(state, "m1", 0)).toMatchObject({
      shares: 0,
      avgPrice: micro(0.5),
      realizedPnl: 0,
      open: false,
      closedTs: T0 + 30,
    });
    // net of the 0.50 fee: -0.50
    expect(state.settledNet(state.position(W, "m1", 0)!.index)).toBe(-micro(0.5));
  });

  it("derives the price from usd / size truncated, as the venue does", () => {
    // 3 shares for 1.000000 USD: 0.333333; a second 3 for 2.000000: 0.666666; avg (0.999999 + 1.999998) / 6 = 0.4999995 -> 0.499999
    const s = replay([
      { ...buy(W, "m2", 0, 3, 0.333333), usd: micro(1) },
      { ...buy(W, "m2", 0, 3, 0.666666), usd: micro(2) },
    ]);
    expect(positionOf(s, "m2", 0)?.avgPrice).toBe(micro(0.499999));
  });
});

describe("settlement mechanics", () => {
  it("a MINT sell of YES is a buy of NO at 1 - p; a MERGE buy of YES a sale of NO at 1 - p", () => {
    // MINT SELL YES 100 @ 0.60 -> BUY NO 100 @ 0.40; MERGE BUY YES 40 @ 0.70 -> SELL NO 40 @ 0.30: 40 * (0.30 - 0.40) = -4
    const s = replay([
      trade(W, "m1", 0, "SELL", 100, 0.6, { entryType: "MINT" }),
      trade(W, "m1", 0, "BUY", 40, 0.7, { entryType: "MERGE", ts: T0 + 1 }),
    ]);
    expect(positionOf(s, "m1", 0)).toBeUndefined();
    expect(positionOf(s, "m1", 1)).toMatchObject({
      shares: micro(60),
      avgPrice: micro(0.4),
      totalBought: micro(100),
      realizedPnl: -micro(4),
    });
    expect(s.wallet(W)!.volume).toBe(micro(60 + 28));
  });

  it("books a split as buys of both sides at 0.50", () => {
    const s = replay([split(W, "m1", 10)]);
    expect(positionOf(s, "m1", 0)).toMatchObject({ shares: micro(10), avgPrice: micro(0.5), totalBought: micro(10) });
    expect(positionOf(s, "m1", 1)).toMatchObject({ shares: micro(10), avgPrice: micro(0.5), totalBought: micro(10) });
  });

  it("books a merge as sales of both sides at 0.50", () => {
    // split 10 (YES @0.50), buy YES 10 @ 0.30 -> YES avg 0.40; merge 10: YES +10 * (0.50 - 0.40) = +1, NO 10 * 0 = 0
    const s = replay([split(W, "m1", 10), buy(W, "m1", 0, 10, 0.3, { ts: T0 + 1 }), merge(W, "m1", 10, T0 + 2)]);
    expect(positionOf(s, "m1", 0)).toMatchObject({
      shares: micro(10),
      avgPrice: micro(0.4),
      realizedPnl: micro(1),
      open: true,
    });
    expect(positionOf(s, "m1", 1)).toMatchObject({ shares: 0, realizedPnl: 0, open: false, closedTs: T0 + 2 });
  });
});

describe("resolution and redemption", () => {
  const resolvedYes = [market("m1", { resolution: "YES", resolvedAt: T0 + DAY })];
  // YES 100 @ 0.25 (cost 25), NO 40 @ 0.70 (cost 28)
  const trades = [buy(W, "m1", 0, 100, 0.25), buy(W, "m1", 1, 40, 0.7, { ts: T0 + 5 })];

  it("closes an unredeemed loser at price 0 when the market resolves, and keeps the winner redeemable", () => {
    const s = replay(trades, resolvedYes, T0 + DAY + 1);
    // NO: 40 * (0 - 0.70) = -28; YES keeps 100 shares, closed, settling at 100 * (1 - 0.25) = +75
    expect(positionOf(s, "m1", 1)).toMatchObject({
      shares: 0,
      realizedPnl: -micro(28),
      open: false,
      closedTs: T0 + DAY,
    });
    expect(positionOf(s, "m1", 0)).toMatchObject({
      shares: micro(100),
      realizedPnl: 0,
      open: false,
      closedTs: T0 + DAY,
    });
    expect(s.settledNet(s.position(W, "m1", 0)!.index)).toBe(micro(75));
  });

  it("books a redemption as a sale of the held amount at the payout", () => {
    const s = replay([...trades, redeem(W, "m1", 1, T0 + 2 * DAY)], resolvedYes);
    expect(positionOf(s, "m1", 0)).toMatchObject({
      shares: 0,
      realizedPnl: micro(75),
      open: false,
      closedTs: T0 + DAY,
    });
    expect(positionOf(s, "m1", 1)).toMatchObject({ shares: 0, realizedPnl: -micro(28) });
    // the day of the resolution carries 75 - 28 = 47 and two closes; the redemption day nothing more
    const days = s.wallet(W)!.days;
    expect(days.get((T0 + DAY) / DAY)).toMatchObject({ pnl: micro(47), closes: 2 });
    expect(days.get((T0 + 2 * DAY) / DAY)).toBeUndefined();
  });

  it("redeems a 50-50 market at 0.50 a side", () => {
    // YES 10 @ 0.30: 10 * (0.50 - 0.30) = +2
    const s = replay([buy(W, "m1", 0, 10, 0.3), redeem(W, "m1", 0.5, T0 + 10)]);
    expect(positionOf(s, "m1", 0)).toMatchObject({ shares: 0, realizedPnl: micro(2), open: false });
  });

  it("reaches a position when the ledger advances past the resolution time, strictly", () => {
    const s = new LedgerState([market("m1", { resolution: "NO", resolvedAt: T0 + 100 })]);
    s.apply(buy(W, "m1", 0, 10, 0.5, { ts: T0 + 100 })); // the same second: still before the resolution
    s.apply(reward(W, 1, T0 + 101)); // another market's (no market's) event does not touch it
    s.advanceTo(T0 + 100);
    expect(positionOf(s, "m1", 0)?.open).toBe(true);
    s.advanceTo(T0 + 101);
    // YES lost: 10 * (0 - 0.50) = -5, closed at the resolution time
    expect(positionOf(s, "m1", 0)).toMatchObject({
      open: false,
      shares: 0,
      realizedPnl: -micro(5),
      closedTs: T0 + 100,
    });
  });

  it("reaches a position, and the wallet's other side, before their next later event", () => {
    // NO 10 @ 0.50 at T0+50; resolves YES at T0+100; a late YES buy at T0+200 first closes the NO at 0 (-5)
    const s = new LedgerState([market("m1", { resolution: "YES", resolvedAt: T0 + 100 })]);
    s.apply(buy(W, "m1", 1, 10, 0.5, { ts: T0 + 50 }));
    s.apply(buy(W, "m1", 0, 4, 0.9, { ts: T0 + 200 }));
    expect(positionOf(s, "m1", 1)).toMatchObject({
      open: false,
      shares: 0,
      realizedPnl: -micro(5),
      closedTs: T0 + 100,
    });
    expect(positionOf(s, "m1", 0)).toMatchObject({ open: false, shares: micro(4), closedTs: T0 + 200 });
    expect(s.position(W, "m1", 1)!.heldBothSides).toBe(false);
  });
});

describe("late events", () => {
  it("resolve a position an event older than an already swept resolution opened, at the next advance", () => {
    // m1 resolved NO at T0+100 and swept at T0+500; a fill of T0+50 arrives late: YES 10 @ 0.40, a loser (-4)
    const s = new LedgerState([market("m1", { resolution: "NO", resolvedAt: T0 + 100 })]);
    s.advanceTo(T0 + 500);
    s.apply(buy(W, "m1", 0, 10, 0.4, { ts: T0 + 50 }));
    expect(positionOf(s, "m1", 0)?.open).toBe(true);
    s.advanceTo(T0 + 600);
    expect(positionOf(s, "m1", 0)).toMatchObject({
      open: false,
      shares: 0,
      realizedPnl: -micro(4),
      closedTs: T0 + 100,
    });
  });
});

describe("NegRisk conversion", () => {
  const event = (id: string, count: number): MarketFacts[] =>
    Array.from({ length: count }, (_, i) =>
      market(`${id}-q${i}`, { negRiskEventId: id, questionIndex: i, questionCount: count }),
    );

  it("sells the NO given up at its own average price and buys YES at the synthetic price", () => {
    // NO q0 100 @ 0.80, NO q1 100 @ 0.60; convert {0, 1} x 100 of 3 questions:
    // noPrice = (0.80 + 0.60) / 2 = 0.70, yesPrice = (0.70 * 2 - 1) / (3 - 2) = 0.40
    const s = replay(
      [buy(W, "E-q0", 1, 100, 0.8), buy(W, "E-q1", 1, 100, 0.6), convert(W, "E", [0, 1], 100, 0, T0 + 1)],
      event("E", 3),
    );
    expect(positionOf(s, "E-q0", 1)).toMatchObject({ shares: 0, realizedPnl: 0, avgPrice: micro(0.8), open: false });
    expect(positionOf(s, "E-q1", 1)).toMatchObject({ shares: 0, realizedPnl: 0, avgPrice: micro(0.6) });
    expect(positionOf(s, "E-q2", 0)).toMatchObject({
      shares: micro(100),
      avgPrice: micro(0.4),
      totalBought: micro(100),
      open: true,
    });
    // cost moved, not booked twice: 140 paid = 40 of YES cost + 100 collateral received
  });

  it("receives amount - fee YES, and truncates a negative synthetic price toward zero", () => {
    // NO avg 0.333333 and 0.50: sum 833333 / 2 = 416666.5 -> 416666; yes = (833332 - 1000000) / (4 - 2) = -83334
    const s = replay(
      [
        { ...buy(W, "F-q0", 1, 3, 0.333333), usd: micro(0.999999) },
        buy(W, "F-q1", 1, 3, 0.5),
        convert(W, "F", [0, 1], 3, 0.03, T0 + 1),
      ],
      event("F", 4),
    );
    expect(positionOf(s, "F-q2", 0)).toMatchObject({ shares: micro(2.97), avgPrice: micro(-0.083334) });
    expect(positionOf(s, "F-q3", 0)).toMatchObject({ shares: micro(2.97), avgPrice: micro(-0.083334) });
  });
});

describe("wallets and bookkeeping", () => {
  it("drops the exchange contracts' rows", () => {
    const s = replay([
      buy(CONTRACTS.ctfExchangeV2.toLowerCase(), "m1", 0, 10, 0.5),
      buy(CONTRACTS.negRiskAdapter, "m1", 0, 10, 0.5),
    ]);
    expect([...s.wallets()]).toHaveLength(0);
  });

  it("flags a market held on both sides at once", () => {
    const s = replay([
      buy(W, "m1", 0, 10, 0.5),
      sell(W, "m1", 0, 10, 0.6, { ts: T0 + 1 }),
      buy(W, "m1", 1, 10, 0.4, { ts: T0 + 2 }),
      buy(W, "m2", 0, 10, 0.5),
      buy(W, "m2", 1, 10, 0.4, { ts: T0 + 3 }),
    ]);
    expect(s.position(W, "m1", 0)!.heldBothSides).toBe(false);
    expect(s.position(W, "m2", 0)!.heldBothSides && s.position(W, "m2", 1)!.heldBothSides).toBe(true);
  });

  it("counts fills, volume, buys, MINT/MERGE volume and income on the wallet", () => {
    const s = replay([
      buy(W, "m1", 0, 100, 0.4, { entryType: "MINT" }),
      sell(W, "m1", 0, 50, 0.5, { ts: T0 + 1, entryType: null }),
      reward(W, 2.5, T0 + 2),
    ] satisfies LedgerEvent[]);
    expect(s.wallet(W)).toMatchObject({
      trades: 2,
      volume: micro(65),
      lastTrade: T0 + 1,
      buyUsd: micro(40),
      buyShares: micro(100),
      mintMergeUsd: micro(40),
      income: micro(2.5),
    });
  });
});
