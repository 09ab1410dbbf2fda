import { describe, expect, it } from "vitest";
import { majoritySide, teamOf, whaleConsensus, yesPct } from "./consensus.js";
import { replay } from "./state.js";
import { T0, buy, market } from "./testing/events.js";

const A = "0xcccc000000000000000000000000000000000001";
const B = "0xcccc000000000000000000000000000000000002";
const C = "0xcccc000000000000000000000000000000000003";

describe("whale consensus (docs/METRICS.md, market consensus)", () => {
  it("puts a net position at cost on a team from the minimum on, never at 0", () => {
    expect(teamOf(150, 100)).toBe("YES");
    expect(teamOf(-100, 100)).toBe("NO");
    expect(teamOf(99.99, 100)).toBeNull();
    expect(teamOf(0, 0)).toBeNull();
    expect(majoritySide(3, 1)).toBe("YES");
    expect(majoritySide(2, 2)).toBeNull();
    expect(yesPct(3, 1)).toBe(75);
    expect(yesPct(0, 0)).toBeNull();
  });

  it("counts each whale once per market, on the side of its net open position", () => {
    // A: YES 400 @ 0.5 (200) against NO 100 @ 0.6 (60): YES by 140. B: NO 300 @ 0.5 (150). C: YES 100 @ 0.5 (50): below 100.
    const state = replay(
      [
        buy(A, "m1", 0, 400, 0.5),
        buy(A, "m1", 1, 100, 0.6, { ts: T0 + 1 }),
        buy(B, "m1", 1, 300, 0.5),
        buy(C, "m1", 0, 100, 0.5),
      ],
      [market("m1")],
    );
    const books = [A, B, C].map((w) => state.wallet(w)!);
    expect(whaleConsensus(state, books, 100)).toEqual(new Map([["m1", { yes: 1, no: 1 }]]));
  });
});
