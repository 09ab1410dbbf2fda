import { describe, expect, it } from "vitest";
import { computeRankings } from "./rankings.js";
import { defaultLedgerConfig } from "./testing/events.js";

const { ledger } = defaultLedgerConfig();

describe("rankings", () => {
  const entries = [
    { wallet: "A", resolved: 12, totalPnl: 100, winRate: 60, totalVolume: 1_000, profitFactor: 2 },
    { wallet: "B", resolved: 10, totalPnl: 200, winRate: 60, totalVolume: 500, profitFactor: 1.5 },
    { wallet: "C", resolved: 30, totalPnl: 50, winRate: 70, totalVolume: 2_000, profitFactor: 99.99 },
    { wallet: "D", resolved: 9, totalPnl: 999, winRate: 100, totalVolume: 9_999, profitFactor: 99.99 },
  ];
  const ranks = computeRankings(entries, ledger);

  it("ranks wallets with at least 10 resolved markets, best first, 1-based", () => {
    // pnl: B 200, A 100, C 50; volume: C, A, B; profit factor: C, A, B
    expect(ranks.get("B")).toMatchObject({ rankPnl: 1, rankVolume: 3, rankProfitFactor: 3, totalTraders: 3 });
    expect(ranks.get("A")).toMatchObject({ rankPnl: 2, rankVolume: 2, rankProfitFactor: 2 });
    expect(ranks.get("C")).toMatchObject({ rankPnl: 3, rankVolume: 1, rankProfitFactor: 1 });
  });

  it("gives equal values one rank and skips the next (C 70; A and B 60 share 2)", () => {
    expect(["C", "A", "B"].map((w) => ranks.get(w)!.rankWinRate)).toEqual([1, 2, 2]);
  });

  it("leaves unranked wallets out of the population", () => {
    expect(ranks.get("D")).toEqual({
      rankPnl: null,
      rankWinRate: null,
      rankVolume: null,
      rankProfitFactor: null,
      totalTraders: 3,
    });
  });

  it("does not depend on the order of the input", () => {
    expect(computeRankings([...entries].reverse(), ledger)).toEqual(ranks);
  });
});
