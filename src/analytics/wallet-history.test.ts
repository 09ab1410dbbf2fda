import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CHANGES_MAX_LOOKBACK, CHANGES_MIN_AGE, changesSinceUntil } from "./wallet-history.js";

/** What the clock decides in changes-since's answer, written out from the contract's rules. */
const clockParts = (since: number, now: number) => ({
  effective: Math.max(since, now - CHANGES_MAX_LOOKBACK),
  counted: now - since >= CHANGES_MIN_AGE,
});

describe("changesSinceUntil", () => {
  it("bounds a kept changes-since answer to the seconds in which the clock changes neither its window nor whether it counts", () => {
    const day = 86_400;
    fc.assert(
      // since from ten minutes ahead of the clock to 40 days back
      fc.property(fc.integer({ min: -600, max: 40 * day }), (back) => {
        const now = 1_700_000_000;
        const since = now - back;
        const until = changesSinceUntil(since, now);
        expect(until).toBeGreaterThan(now);
        expect(until - now).toBeLessThanOrEqual(CHANGES_MIN_AGE);
        const at = clockParts(since, now);
        for (const t of [now + 1, Math.floor((now + until) / 2), until - 1])
          if (t < until) expect(clockParts(since, t), `t = now + ${t - now}`).toEqual(at);
        // Kept no longer than needed where the window starts moving or since comes of age.
        const next = clockParts(since, until);
        if (until - now < CHANGES_MIN_AGE && since >= now - CHANGES_MAX_LOOKBACK) expect(next).not.toEqual(at);
      }),
    );
  });
});
