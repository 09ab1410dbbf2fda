import { describe, expect, it } from "vitest";
import { isSmartMoney, skillScore } from "./skill.js";
import { replay } from "./state.js";
import { summarizeWallet, type SkillCluster } from "./summary.js";
import { T0, buy, defaultLedgerConfig, market } from "./testing/events.js";

const { smart, ledger } = defaultLedgerConfig();
const W = "0xdddd000000000000000000000000000000000004";

describe("Smart Money", () => {
  const base = { isFarmer: false, resolved: 10, winRate: 55, totalPnl: 1 };
  it("needs no farmer verdict, 10 resolved markets, win rate >= 55 and positive total P&L", () => {
    expect(isSmartMoney(base, smart)).toBe(true);
    expect(isSmartMoney({ ...base, isFarmer: true }, smart)).toBe(false);
    expect(isSmartMoney({ ...base, resolved: 9 }, smart)).toBe(false);
    expect(isSmartMoney({ ...base, winRate: 54.99 }, smart)).toBe(false);
    expect(isSmartMoney({ ...base, totalPnl: 0 }, smart)).toBe(false);
  });
});

const cluster = (i: number, edge: number, variance: number, pnl = 10): SkillCluster => ({
  key: `c${String(i).padStart(2, "0")}`,
  edge,
  variance,
  pnl,
  resolvedAt: T0 + i,
});

describe("edge z-score", () => {
  it("is sum(outcome - p) / sqrt(sum(p (1 - p))) over clusters", () => {
    // edges 0.3, 0.2, -0.1 -> 0.4; variances 0.21 + 0.24 + 0.16 = 0.61; z = 0.4 / 0.78102 = 0.51215
    const score = skillScore([cluster(1, 0.3, 0.21), cluster(2, 0.2, 0.24), cluster(3, -0.1, 0.16)], 3, true, smart);
    expect(score.z).toBeCloseTo(0.51215, 5);
    expect(score.edgeBps).toBeCloseTo(1333.33, 2); // 0.4 / 3 * 10000
    expect(score.sample).toBe(3);
    expect(score.hasSkill).toBe(false);
  });

  // 30 clusters of edge 0.2, variance 0.16: z = 6 / sqrt(4.8) = 2.7386
  const skilled = Array.from({ length: 30 }, (_, i) => cluster(i, 0.2, 0.16));

  it("awards the badge at >= 30 resolved markets, z >= 2.33, no event above 50% of P&L, edge in both halves", () => {
    const score = skillScore(skilled, 30, true, smart);
    expect(score.z).toBeCloseTo(2.7386, 4);
    expect(score.largestEventPnlShare).toBeCloseTo(10 / 300, 12);
    expect([score.firstHalfEdge, score.secondHalfEdge].map((e) => Math.round(e * 1e9) / 1e9)).toEqual([3, 3]);
    expect(score.hasSkill).toBe(true);
  });

  it("is a subset of Smart Money and needs 30 resolved markets", () => {
    expect(skillScore(skilled, 30, false, smart).hasSkill).toBe(false);
    expect(skillScore(skilled, 29, true, smart).hasSkill).toBe(false);
  });

  it("refuses a wallet whose P&L is mostly one event", () => {
    // one cluster 400 of 29 * 10 + 400 = 690: 58% > 50%
    const lucky = skilled.map((c, i) => (i === 0 ? { ...c, pnl: 400 } : c));
    expect(skillScore(lucky, 30, true, smart).largestEventPnlShare).toBeCloseTo(400 / 690, 12);
    expect(skillScore(lucky, 30, true, smart).hasSkill).toBe(false);
  });

  it("refuses an edge that does not persist in both halves", () => {
    // first 15: -0.05 each (-0.75), last 15: 0.45 each (6.75): same total edge and z, older half negative
    const late = skilled.map((c, i) => ({ ...c, edge: i < 15 ? -0.05 : 0.45 }));
    const score = skillScore(late, 30, true, smart);
    expect(score.z).toBeCloseTo(2.7386, 4);
    expect(score.hasSkill).toBe(false);
  });
});

describe("skill clusters from positions", () => {
  it("counts a NegRisk event once, averaging its positions by cost", () => {
    // event E: NO 10 @ 0.90 on each of 3 questions; q0 resolves YES (NO loses), q1 and q2 NO.
    // equal costs (9 each): edge = ((0 - 0.9) + (1 - 0.9) + (1 - 0.9)) / 3 = -0.23333, variance 0.09
    // m1: YES 10 @ 0.40 wins: edge 0.6, variance 0.24
    const facts = [
      ...[0, 1, 2].map((i) =>
        market(`E-q${i}`, {
          negRiskEventId: "E",
          questionIndex: i,
          questionCount: 3,
          resolution: i === 0 ? "YES" : "NO",
          resolvedAt: T0 + 10,
        }),
      ),
      market("m1", { resolution: "YES", resolvedAt: T0 + 20 }),
    ];
    const state = replay(
      [buy(W, "E-q0", 1, 10, 0.9), buy(W, "E-q1", 1, 10, 0.9), buy(W, "E-q2", 1, 10, 0.9), buy(W, "m1", 0, 10, 0.4)],
      facts,
      T0 + 30,
    );
    const clusters = summarizeWallet(state, W, T0 + 30, ledger)!.skillClusters.sort((a, b) =>
      a.key.localeCompare(b.key),
    );
    expect(clusters).toHaveLength(2);
    expect(clusters[0]).toMatchObject({ key: "E", resolvedAt: T0 + 10 });
    expect(clusters[0]!.edge).toBeCloseTo(-0.7 / 3, 12);
    expect(clusters[0]!.variance).toBeCloseTo(0.09, 12);
    expect(clusters[1]).toMatchObject({ key: "m1", pnl: 6_000_000 });
    expect(clusters[1]!.edge).toBeCloseTo(0.6, 12);
  });

  it("weights positions of one cluster by their cost and groups an event's markets", () => {
    // event G (not NegRisk): YES 100 @ 0.50 wins (cost 50), YES 10 @ 0.10 loses (cost 1)
    // edge (50 * 0.5 + 1 * -0.1) / 51 = 0.488235; variance (50 * 0.25 + 1 * 0.09) / 51 = 0.246863
    const facts = [
      market("g0", { eventId: "G", resolution: "YES", resolvedAt: T0 + 10 }),
      market("g1", { eventId: "G", resolution: "NO", resolvedAt: T0 + 10 }),
    ];
    const state = replay([buy(W, "g0", 0, 100, 0.5), buy(W, "g1", 0, 10, 0.1)], facts, T0 + 30);
    const [g] = summarizeWallet(state, W, T0 + 30, ledger)!.skillClusters;
    expect(g!.edge).toBeCloseTo(24.9 / 51, 12);
    expect(g!.variance).toBeCloseTo(12.59 / 51, 12);
  });
});
