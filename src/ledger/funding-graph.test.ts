import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { busyFunders, fundingClusters, fundingPaths, hubTest, type FundingEdge } from "./funding-graph.js";

const edge = (from: string, to: string, usd = 100, firstTs = 1): FundingEdge => ({
  from,
  to,
  usd,
  transfers: 1,
  firstTs,
});

/**
 * A hand-drawn graph: the exchange H funds the account F, which funds the hop account A1 (which funds wallets W1 and
 * W2) and the wallet W3; H funds W4, W5, the personal account P (which funds W6 only) and the wallet W7, which
 * funds the wallet W8.
 */
const EDGES = [
  edge("h", "f", 5_000),
  edge("f", "a1", 2_000),
  edge("a1", "w1", 1_000),
  edge("a1", "w2", 900),
  edge("f", "w3", 1_500),
  edge("h", "w4"),
  edge("h", "w5"),
  edge("h", "p", 300),
  edge("p", "w6", 250),
  edge("h", "w7", 700),
  edge("w7", "w8", 200),
];
const WALLETS = ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"];
const isHub = hubTest(new Map([["h", {}]]), new Set());
const into = (edges: readonly FundingEdge[]) => (a: string) => edges.filter((e) => e.to === a);

describe("funding clusters", () => {
  it("groups wallets by a shared funder within the hop limit, named after the source farthest back", () => {
    expect(fundingClusters(WALLETS, EDGES, isHub, 3)).toEqual([
      {
        funder: "f",
        members: [
          { wallet: "w1", funderHops: 2 },
          { wallet: "w2", funderHops: 2 },
          { wallet: "w3", funderHops: 1 },
        ],
      },
      {
        funder: "w7",
        members: [
          { wallet: "w7", funderHops: 0 },
          { wallet: "w8", funderHops: 1 },
        ],
      },
    ]);
  });

  it("sees only the funders within the hop limit", () => {
    const clusters = fundingClusters(WALLETS, EDGES, isHub, 1);
    expect(clusters.map((c) => [c.funder, c.members.map((m) => m.wallet)])).toEqual([
      ["a1", ["w1", "w2"]],
      ["w7", ["w7", "w8"]],
    ]);
  });

  it("lets no hub group anybody: wallets withdrawn from one exchange share nothing", () => {
    expect(fundingClusters(["w4", "w5"], EDGES, isHub, 3)).toEqual([]);
  });

  it("counts an account that funded many addresses as a hub", () => {
    expect([...busyFunders(EDGES, 3)]).toEqual(["h"]);
    expect([...busyFunders(EDGES, 2)].sort()).toEqual(["a1", "f", "h"]);
  });

  it("keeps clusters disjoint, of two wallets or more, whatever the order of the edges", () => {
    const address = fc.constantFrom("a", "b", "c", "d", "h", "w1", "w2", "w3", "w4", "w5", "w6");
    const edges = fc.array(
      fc.tuple(address, address).filter(([from, to]) => from !== to),
      { maxLength: 30 },
    );
    const wallets = ["w1", "w2", "w3", "w4", "w5", "w6"];
    fc.assert(
      fc.property(edges, fc.integer({ min: 1, max: 4 }), (pairs, hops) => {
        const list = pairs.map(([from, to]) => edge(from, to));
        const clusters = fundingClusters(wallets, list, isHub, hops);
        const members = clusters.flatMap((c) => c.members.map((m) => m.wallet));
        expect(new Set(members).size).toBe(members.length);
        for (const c of clusters) expect(c.members.length).toBeGreaterThanOrEqual(2);
        expect(fundingClusters(wallets, [...list].reverse(), isHub, hops)).toEqual(clusters);
        // Two wallets funded directly by one account that is not a hub are together.
        for (const e of list)
          for (const g of list)
            if (
              e.from === g.from &&
              e.from !== "h" &&
              wallets.includes(e.to) &&
              wallets.includes(g.to) &&
              e.to !== g.to
            ) {
              const of = (w: string) => clusters.findIndex((c) => c.members.some((m) => m.wallet === w));
              expect(of(e.to)).toBeGreaterThanOrEqual(0);
              expect(of(e.to)).toBe(of(g.to));
            }
      }),
    );
  });
});

describe("funding paths", () => {
  it("follows the biggest funders back to a hub", () => {
    expect(fundingPaths("w1", into(EDGES), isHub, 3)).toEqual([
      { addresses: ["a1", "f", "h"], ends: "hub", usd: 1_000 },
    ]);
    expect(fundingPaths("w6", into(EDGES), isHub, 3)).toEqual([{ addresses: ["p", "h"], ends: "hub", usd: 250 }]);
  });

  it("stops at the hop limit, and says when an account's own funding is unknown", () => {
    expect(fundingPaths("w2", into(EDGES), isHub, 2)).toEqual([
      { addresses: ["a1", "f"], ends: "hop_limit", usd: 900 },
    ]);
    const partial = EDGES.filter((e) => e.to !== "f");
    expect(fundingPaths("w3", into(partial), isHub, 3)).toEqual([{ addresses: ["f"], ends: "unfunded", usd: 1_500 }]);
    expect(fundingPaths("nobody", into(EDGES), isHub, 3)).toEqual([]);
  });

  it("lists the biggest funder's path first", () => {
    const edges = [...EDGES, edge("h", "w1", 5_000)];
    expect(fundingPaths("w1", into(edges), isHub, 3).map((p) => p.addresses)).toEqual([["h"], ["a1", "f", "h"]]);
  });
});
