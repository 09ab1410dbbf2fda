import { describe, expect, it } from "vitest";
import { replay } from "./state.js";
import { T0, buy } from "./testing/events.js";
import { averageEntryPrice, makerShare, roleProfile } from "./role-profile.js";

const boards = { roleMakerShare: 0.6, roleFavouriteAvgEntry: 0.8, roleLongshotAvgEntry: 0.25 };
const W = "0xeeee000000000000000000000000000000000007";

describe("role_profile (docs/METRICS.md)", () => {
  it("profiles roles by maker share first, then entry price", () => {
    expect(roleProfile(0.9, 0.9, boards)).toBe("market maker");
    expect(roleProfile(0.1, 0.85, boards)).toBe("favourite buyer");
    expect(roleProfile(null, 0.1, boards)).toBe("longshot buyer");
    expect(roleProfile(null, null, boards)).toBe("directional");
  });

  it("reads the maker share of a volume, and the average entry weighted by shares bought", () => {
    expect(makerShare(30, 50)).toBe(0.6);
    expect(makerShare(0, 0)).toBeNull();
    // 100 @ 0.40 and 300 @ 0.80: (40 + 240) / 400 = 0.70
    const state = replay([buy(W, "m1", 0, 100, 0.4), buy(W, "m2", 1, 300, 0.8, { ts: T0 + 1 })]);
    expect(averageEntryPrice(state, state.wallet(W))).toBeCloseTo(0.7, 12);
    expect(averageEntryPrice(state, undefined)).toBeNull();
  });
});
