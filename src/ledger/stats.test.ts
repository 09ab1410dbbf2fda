import { describe, expect, it } from "vitest";
import { categoryShares, marketCategory } from "./categories.js";
import { replay } from "./state.js";
import {
  changePct,
  chooseWinSource,
  computeWalletStats,
  longestProfitableRun,
  median,
  medianHoldDays,
  payoffFigures,
  pnlChange24h,
  profitFactor,
  profitableDays,
  profitableStreak,
  returnOnVolumePct,
  summarizeVenueClosedPositions,
  winRate,
  winRateOrNull,
} from "./stats.js";
import { summarizeWallet } from "./summary.js";
import { DAY, T0, buy, defaultLedgerConfig, market, sell } from "./testing/events.js";

const { ledger } = defaultLedgerConfig();
const W = "0xbbbb000000000000000000000000000000000002";

describe("win rate and profit factor", () => {
  it("win_rate = 100 * wins / (wins + losses)", () => {
    expect(winRate(3, 1)).toBe(75);
    expect(winRate(0, 0)).toBe(0);
  });

  it("profit_factor = profit / loss, capped at 99.99, 99.99 with no loss, 0 with neither", () => {
    expect(profitFactor(30, 20, 99.99)).toBe(1.5);
    expect(profitFactor(150, 1, 99.99)).toBe(99.99); // 150 capped
    expect(profitFactor(10, 0, 99.99)).toBe(99.99);
    expect(profitFactor(0, 0, 99.99)).toBe(0);
    expect(profitFactor(0, 5, 99.99)).toBe(0);
  });
});

describe("the win source: ledger, then the 95% rule, then the per-market metric", () => {
  it("uses the venue's counts when its cache holds at least 95% of the expected closed positions", () => {
    const venue = (venueHeld: number | null, expected: number) =>
      chooseWinSource({ historyComplete: false, venueHeld, expected }, 0.95);
    expect(venue(95, 100)).toBe("venue");
    expect(venue(94, 100)).toBe("market");
    expect(venue(null, 100)).toBe("market");
    expect(venue(0, 0)).toBe("venue");
  });

  it("prefers the ledger's own list whenever the store holds the wallet's whole history, however truncated the venue's cache", () => {
    expect(chooseWinSource({ historyComplete: true, venueHeld: 10, expected: 100 }, 0.95)).toBe("ledger");
    expect(chooseWinSource({ historyComplete: true, venueHeld: null, expected: 100 }, 0.95)).toBe("ledger");
  });

  it("reports which source it used", () => {
    // ledger: two closed positions (m1 +2, m2 -1), both markets resolved
    const state = replay(
      [
        buy(W, "m1", 0, 10, 0.5),
        sell(W, "m1", 0, 10, 0.7, { ts: T0 + 1 }),
        buy(W, "m2", 0, 10, 0.5),
        sell(W, "m2", 0, 10, 0.4, { ts: T0 + 1 }),
      ],
      [
        market("m1", { resolution: "YES", resolvedAt: T0 + 10 }),
        market("m2", { resolution: "NO", resolvedAt: T0 + 10 }),
      ],
      T0 + 20,
    );
    const summary = summarizeWallet(state, W, T0 + 20, ledger)!;
    const venue = { held: 2, wins: 7, losses: 3, grossProfit: 70, grossLoss: 20 };
    const full = computeWalletStats(summary, { now: T0 + 20, venueClosed: venue }, ledger);
    expect(full).toMatchObject({
      winSource: "venue",
      wins: 7,
      losses: 3,
      winRate: 70,
      closedCount: 10,
      profitFactor: 3.5,
    });
    // the venue holds 2 of 3 expected: 66% < 95% -> the per-market metric (1 win, 1 loss; profit 2 / loss 1)
    const truncated = computeWalletStats(summary, { now: T0 + 20, venueClosed: venue, expectedClosed: 3 }, ledger);
    expect(truncated).toMatchObject({
      winSource: "market",
      wins: 1,
      losses: 1,
      winRate: 50,
      marketWins: 1,
      marketLosses: 1,
      profitFactor: 2,
    });
    // the whole history in the store: the ledger's list (4 wins, 1 loss; profit 9 / loss 3), whatever the cache says
    const own = { held: 5, wins: 4, losses: 1, grossProfit: 9, grossLoss: 3 };
    const complete = computeWalletStats(
      summary,
      { now: T0 + 20, venueClosed: venue, ledgerClosed: own, historyComplete: true },
      ledger,
    );
    expect(complete).toMatchObject({
      winSource: "ledger",
      wins: 4,
      losses: 1,
      winRate: 80,
      closedCount: 5,
      profitFactor: 3,
    });
    // without the store's whole history the ledger's list only sets what the venue is expected to hold: 2 of 5 is short
    expect(computeWalletStats(summary, { now: T0 + 20, venueClosed: venue, ledgerClosed: own }, ledger)).toMatchObject({
      winSource: "market",
    });
  });

  it("summarizes the venue's closed positions as its UI counts them", () => {
    expect(
      summarizeVenueClosedPositions([{ realizedPnl: 5 }, { realizedPnl: -2 }, { realizedPnl: 0 }, { realizedPnl: 1 }]),
    ).toEqual({
      held: 4,
      wins: 2,
      losses: 1,
      grossProfit: 6,
      grossLoss: 2,
    });
  });
});

describe("per-market metric", () => {
  it("counts a NegRisk event once, by the sign of its summed net P&L", () => {
    // event E: q0 YES 10 @ 0.30 wins (+7), q1 YES 10 @ 0.60 loses (-6), q2 YES 10 @ 0.20 loses (-2): event -1 -> one loss
    // plain market m1: YES 10 @ 0.50 wins (+5) -> one win; m2 unresolved -> not counted
    const facts = [
      market("E-q0", {
        negRiskEventId: "E",
        questionIndex: 0,
        questionCount: 3,
        resolution: "YES",
        resolvedAt: T0 + 10,
      }),
      market("E-q1", {
        negRiskEventId: "E",
        questionIndex: 1,
        questionCount: 3,
        resolution: "NO",
        resolvedAt: T0 + 10,
      }),
      market("E-q2", {
        negRiskEventId: "E",
        questionIndex: 2,
        questionCount: 3,
        resolution: "NO",
        resolvedAt: T0 + 10,
      }),
      market("m1", { resolution: "YES", resolvedAt: T0 + 10 }),
      market("m2"),
    ];
    const state = replay(
      [
        buy(W, "E-q0", 0, 10, 0.3),
        buy(W, "E-q1", 0, 10, 0.6),
        buy(W, "E-q2", 0, 10, 0.2),
        buy(W, "m1", 0, 10, 0.5),
        buy(W, "m2", 0, 10, 0.5),
      ],
      facts,
      T0 + 20,
    );
    const stats = computeWalletStats(summarizeWallet(state, W, T0 + 20, ledger)!, { now: T0 + 20 }, ledger);
    expect(stats).toMatchObject({
      resolved: 2,
      marketWins: 1,
      marketLosses: 1,
      marketWinRate: 50,
      totalMarkets: 5,
      activeCount: 1,
    });
    // per position the ledger sees 2 wins (+7, +5) and 2 losses (-6, -2)
    expect(stats).toMatchObject({ ledgerWins: 2, ledgerLosses: 2, ledgerClosed: 4 });
  });
});

describe("total and unrealized P&L", () => {
  it("uses the venue's lifetime P&L when synced, else realized + unrealized", () => {
    // m1: YES 100 @ 0.40, sold 50 @ 0.60 (+10), fee 1; 50 left at current 0.70: unrealized 50 * 0.30 = 15
    const state = replay(
      [buy(W, "m1", 0, 100, 0.4, { fee: 1 }), sell(W, "m1", 0, 50, 0.6, { ts: T0 + 1 })],
      [market("m1", { priceYes: 0.7 })],
    );
    const summary = summarizeWallet(state, W, T0 + 10, ledger)!;
    const own = computeWalletStats(summary, { now: T0 + 10 }, ledger);
    expect(own.realizedPnl).toBe(9);
    expect(own.unrealizedPnl).toBeCloseTo(15, 10);
    expect(own.totalPnl).toBeCloseTo(24, 10);
    expect(own.totalPnlSource).toBe("ledger");
    expect(computeWalletStats(summary, { now: T0 + 10, venueLifetimePnl: 123.45 }, ledger)).toMatchObject({
      totalPnl: 123.45,
      totalPnlSource: "venue",
    });
    // volume 40 + 30 = 70
    expect(own).toMatchObject({ totalVolume: 70, totalTrades: 2, feesPaid: 1 });
  });
});

describe("median hold", () => {
  it("is the median of (close - first buy) in days, null under 3 positions", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(medianHoldDays([DAY, 3 * DAY], 3)).toBeNull();
    expect(medianHoldDays([DAY, 5 * DAY, 2 * DAY], 3)).toBe(2);
  });

  it("looks at positions closed in the last 90 days only", () => {
    const now = T0 + 200 * DAY;
    // closed 150 days ago (out), and three closed recently after 1, 2 and 4 days held -> median 2
    const events = [
      buy(W, "old", 0, 1, 0.5, { ts: now - 160 * DAY }),
      sell(W, "old", 0, 1, 0.6, { ts: now - 150 * DAY }),
      ...[1, 2, 4].flatMap((days, i) => [
        buy(W, `m${i}`, 0, 1, 0.5, { ts: now - 10 * DAY }),
        sell(W, `m${i}`, 0, 1, 0.6, { ts: now - 10 * DAY + days * DAY }),
      ]),
    ].sort((a, b) => a.ts - b.ts);
    const stats = computeWalletStats(summarizeWallet(replay(events), W, now, ledger)!, { now }, ledger);
    expect(stats).toMatchObject({ medianHoldDays: 2, holdPositionsCount: 3 });
  });
});

describe("profitable streak", () => {
  const today = 20_000;
  const now = today * DAY + 3_600;
  const days = (entries: Array<[number, number, number]>) =>
    new Map(entries.map(([d, pnl, closes]) => [today - d, { pnl, closes }]));

  it("counts consecutive qualifying days ending today", () => {
    expect(
      profitableStreak(
        days([
          [0, 5, 1],
          [1, 2, 1],
          [2, 1, 3],
          [4, 9, 1],
        ]),
        now,
      ),
    ).toBe(3); // day 3 missing ends it
  });
  it("may end yesterday while today has not qualified yet", () => {
    expect(
      profitableStreak(
        days([
          [1, 2, 1],
          [2, 1, 1],
        ]),
        now,
      ),
    ).toBe(2);
    expect(
      profitableStreak(
        days([
          [0, -1, 1],
          [1, 2, 1],
        ]),
        now,
      ),
    ).toBe(1);
  });
  it("needs positive P&L and a closed position each day", () => {
    expect(
      profitableStreak(
        days([
          [0, 5, 0],
          [1, 5, 1],
        ]),
        now,
      ),
    ).toBe(1); // today has no close: from yesterday
    expect(profitableStreak(days([[1, 0, 1]]), now)).toBe(0);
    expect(profitableStreak(days([[2, 5, 1]]), now)).toBe(0); // ended two days ago
  });

  it("is fed by closes booked on their UTC day", () => {
    // day 0: +1 (buy 10 @ 0.5, sell @ 0.6); day 1: +2 (10 @ 0.5 -> 0.7)
    const start = (today - 1) * DAY;
    const state = replay([
      buy(W, "a", 0, 10, 0.5, { ts: start + 10 }),
      sell(W, "a", 0, 10, 0.6, { ts: start + 20 }),
      buy(W, "b", 0, 10, 0.5, { ts: start + DAY + 10 }),
      sell(W, "b", 0, 10, 0.7, { ts: start + DAY + 20 }),
    ]);
    expect(computeWalletStats(summarizeWallet(state, W, now, ledger)!, { now }, ledger).profitableStreak).toBe(2);
  });

  it("counts a day's closed positions as those still closed: a buy that reopens one takes its close back", () => {
    // day 0: +1 on "a" (buy 10 @ 0.5, sell all @ 0.6: closed); day 1: "b" +2, closed; then "a" is bought again
    // (open): day 0 keeps its P&L but no closed position, so the streak is day 1 alone.
    const start = (today - 1) * DAY;
    const events = [
      buy(W, "a", 0, 10, 0.5, { ts: start + 10 }),
      sell(W, "a", 0, 10, 0.6, { ts: start + 20 }),
      buy(W, "b", 0, 10, 0.5, { ts: start + DAY + 10 }),
      sell(W, "b", 0, 10, 0.7, { ts: start + DAY + 20 }),
    ];
    const streak = (state: ReturnType<typeof replay>) =>
      computeWalletStats(summarizeWallet(state, W, now, ledger)!, { now }, ledger).profitableStreak;
    expect(streak(replay(events))).toBe(2);
    expect(streak(replay([...events, buy(W, "a", 0, 5, 0.5, { ts: start + DAY + 30 })]))).toBe(1);
  });
});

describe("pnl_24h", () => {
  const now = T0 + 10 * DAY;
  it("is the change against the latest point at least 24 h old", () => {
    // points: -2 days: 100, -25 h: 120, -1 h: 150; current 160 -> 160 - 120 = 40
    const points = [
      { t: now - 2 * DAY, p: 100 },
      { t: now - DAY - 3_600, p: 120 },
      { t: now - 3_600, p: 150 },
    ];
    expect(pnlChange24h(points, now, 160)).toBe(40);
  });
  it("is null without a point 24 h back", () => {
    expect(pnlChange24h([{ t: now - 3_600, p: 150 }], now, 160)).toBeNull();
  });
});

describe("categories", () => {
  it("maps venue categories and tags through one table", () => {
    expect(marketCategory("Sports")).toBe("SPORTS");
    expect(marketCategory(null, ["Featured", "crypto-prices"])).toBe("CRYPTO");
    expect(marketCategory("Pop Culture", ["Tech"])).toBe("TECH");
    expect(marketCategory("Pop Culture")).toBeNull();
  });
  it("gives percent of mapped volume, summing to 100", () => {
    // 300 sports, 100 crypto -> 75 / 25
    const shares = categoryShares(
      new Map([
        ["SPORTS", 300],
        ["CRYPTO", 100],
      ]),
    );
    expect(shares).toEqual({ SPORTS: 75, GEOPOLITICS: 0, CRYPTO: 25, POLITICS: 0, ECONOMICS: 0, TECH: 0 });
  });
  it("weights a wallet's categories by its fill volume", () => {
    // sports market: 40 + 20 USD; politics market 20 USD; unmapped market 100 USD (left out) -> 75 / 25
    const state = replay(
      [
        buy(W, "s", 0, 100, 0.4),
        sell(W, "s", 0, 40, 0.5, { ts: T0 + 1 }),
        buy(W, "p", 1, 40, 0.5),
        buy(W, "x", 0, 200, 0.5),
      ],
      [
        market("s", { category: "Sports" }),
        market("p", { category: null, tags: ["Politics"] }),
        market("x", { category: "Culture" }),
      ],
    );
    const stats = computeWalletStats(summarizeWallet(state, W, T0 + 10, ledger)!, { now: T0 + 10 }, ledger);
    expect(stats.categories).toMatchObject({ SPORTS: 75, POLITICS: 25 });
  });
});

describe("figures routes compute when called (docs/METRICS.md)", () => {
  it("win rate: 0 or null with neither wins nor losses, by who asks", () => {
    expect(winRate(3, 1)).toBe(75);
    expect(winRateOrNull(3, 1)).toBe(75);
    expect(winRate(0, 0)).toBe(0);
    expect(winRateOrNull(0, 0)).toBeNull();
  });

  it("payoff: average win and loss, their ratio and the expectancy per closed position", () => {
    expect(payoffFigures({ wins: 2, losses: 1, grossProfit: 30, grossLoss: 5, net: 25, count: 4 })).toEqual({
      avgWin: 15,
      avgLoss: 5,
      payoffRatio: 3,
      expectancy: 6.25,
    });
    expect(payoffFigures({ wins: 1, losses: 0, grossProfit: 10, grossLoss: 0, net: 10, count: 1 })).toEqual({
      avgWin: 10,
      avgLoss: null,
      payoffRatio: null,
      expectancy: 10,
    });
    expect(payoffFigures({ wins: 0, losses: 0, grossProfit: 0, grossLoss: 0, net: 0, count: 0 }).expectancy).toBeNull();
  });

  it("percent change and return on volume are null where there is nothing to divide by", () => {
    expect(changePct(150, 100)).toBe(50);
    expect(changePct(5, 0)).toBeNull();
    expect(returnOnVolumePct(25, 1_000)).toBe(2.5);
    expect(returnOnVolumePct(25, 0)).toBeNull();
  });

  it("profitable days and their longest run, the earliest when tied", () => {
    const days = new Map([
      [10, { pnl: 5, closes: 1 }],
      [11, { pnl: 2, closes: 2 }],
      [12, { pnl: -1, closes: 1 }],
      [13, { pnl: 4, closes: 0 }],
      [20, { pnl: 1, closes: 1 }],
      [21, { pnl: 1, closes: 1 }],
    ]);
    const profitable = profitableDays(days);
    expect(profitable.map(([day]) => day)).toEqual([10, 11, 20, 21]);
    expect(longestProfitableRun(profitable)).toEqual({ start: 10, end: 11, days: 2, pnl: 7 });
    expect(longestProfitableRun([])).toBeNull();
    expect(profitableStreak(days, 22 * DAY + 5)).toBe(2);
  });
});
