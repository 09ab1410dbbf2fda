import { describe, expect, it } from "vitest";
import { convictionClusters, whaleFlip, type EventStand } from "./whale-signals.js";

const TEAM = 100;
const SWING = 200_000;

describe("whale flip (docs/METRICS.md, whale flips)", () => {
  it("is a reversal from one team to the other with |old| + |new| at least the swing", () => {
    expect(whaleFlip(150_000, -60_000, TEAM, SWING)).toEqual({ oldSide: "YES", newSide: "NO", swingUsd: 210_000 });
    expect(whaleFlip(-120_000, 80_000, TEAM, SWING)).toEqual({ oldSide: "NO", newSide: "YES", swingUsd: 200_000 });
  });

  it("is none under the swing, on the same side, or when either net stands on no team", () => {
    expect(whaleFlip(150_000, -49_999, TEAM, SWING)).toBeNull(); // swing 199,999
    expect(whaleFlip(300_000, 500_000, TEAM, SWING)).toBeNull(); // same side
    expect(whaleFlip(250_000, -99, TEAM, SWING)).toBeNull(); // left the market: under the consensus minimum
    expect(whaleFlip(0, -300_000, TEAM, SWING)).toBeNull(); // held nothing before
    expect(whaleFlip(99.5, -300_000, TEAM, SWING)).toBeNull();
  });
});

describe("conviction clusters (docs/METRICS.md, conviction clusters)", () => {
  const stand = (wallet: string, eventSlug: string, conditionId: string, netUsd: number): EventStand => ({
    wallet,
    eventSlug,
    conditionId,
    netUsd,
  });
  const rules = { minTeamUsd: TEAM, minMarkets: 2, minWhales: 3 };

  it("groups whales standing on one side of at least two markets of an event; three of them make a cluster", () => {
    const clusters = convictionClusters(
      [
        // e1 YES: a (m1 1000, m2 500), b (m2 300, m3 200), c (m1 400, m3 100); d stands on m1 only (one market: not a member).
        stand("a", "e1", "m1", 1_000),
        stand("a", "e1", "m2", 500),
        stand("b", "e1", "m2", 300),
        stand("b", "e1", "m3", 200),
        stand("c", "e1", "m1", 400),
        stand("c", "e1", "m3", 100),
        stand("d", "e1", "m1", 5_000),
        // e1 NO: only two whales on two markets each.
        stand("d", "e1", "m2", -700),
        stand("d", "e1", "m3", -700),
        stand("e", "e1", "m2", -150),
        stand("e", "e1", "m3", -150),
        // e2: a whale under the team minimum in one of its markets counts that market for no side.
        stand("a", "e2", "n1", -200),
        stand("a", "e2", "n2", -99),
        stand("b", "e2", "n1", -200),
        stand("b", "e2", "n2", -200),
        stand("c", "e2", "n1", -200),
        stand("c", "e2", "n2", -200),
      ],
      rules,
    );
    expect(clusters).toHaveLength(1);
    const [c] = clusters;
    expect(c!.eventSlug).toBe("e1");
    expect(c!.side).toBe("YES");
    expect(c!.members).toEqual([
      { wallet: "a", capitalUsd: 1_500, conditionIds: ["m1", "m2"] },
      { wallet: "b", capitalUsd: 500, conditionIds: ["m2", "m3"] },
      { wallet: "c", capitalUsd: 500, conditionIds: ["m1", "m3"] },
    ]);
    expect(c!.capitalUsd).toBe(2_500);
    // d's m1 stand is not counted: d is no member.
    expect(c!.markets).toEqual([
      { conditionId: "m1", wallets: ["a", "c"], capitalUsd: 1_400 },
      { conditionId: "m2", wallets: ["a", "b"], capitalUsd: 800 },
      { conditionId: "m3", wallets: ["b", "c"], capitalUsd: 300 },
    ]);
  });

  it("orders clusters by whales, then capital; the thresholds are parameters", () => {
    const stands = [
      ...["a", "b"].flatMap((w) => [stand(w, "small", "s1", 10_000), stand(w, "small", "s2", 10_000)]),
      ...["a", "b", "c"].flatMap((w) => [stand(w, "wide", "w1", -200), stand(w, "wide", "w2", -200)]),
    ];
    expect(convictionClusters(stands, rules).map((c) => c.eventSlug)).toEqual(["wide"]);
    const loose = convictionClusters(stands, { ...rules, minWhales: 2 });
    expect(loose.map((c) => [c.eventSlug, c.side, c.members.length, c.capitalUsd])).toEqual([
      ["wide", "NO", 3, 1_200],
      ["small", "YES", 2, 40_000],
    ]);
    expect(convictionClusters(stands, { ...rules, minMarkets: 3 })).toEqual([]);
  });
});
