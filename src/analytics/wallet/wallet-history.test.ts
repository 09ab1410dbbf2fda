import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CHANGES_MAX_LOOKBACK,
  CHANGES_MIN_AGE,
  PERIOD_WINDOWS,
  PNL_PERIODS,
  POINTS_KEPT_SECONDS,
  changesSinceUntil,
  pnlHistoryUntil,
} from "./wallet-history.js";

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

describe("pnlHistoryUntil", () => {
  /** The points a period's window shows at `now`, written out from the contract's rule (span back to now). */
  const shown = (points: readonly number[], span: number | null, now: number) =>
    points.filter((t) => t <= now && (span === null || t >= now - span));

  it("bounds a kept pnl-history answer to the seconds in which the clock leaves its points in the window", () => {
    const hour = 3_600;
    fc.assert(
      fc.property(
        fc.constantFrom(...PNL_PERIODS),
        // hourly points up to 40 days back, some of them
        fc.uniqueArray(fc.integer({ min: 0, max: 40 * 24 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: hour - 1 }),
        (period, hoursBack, offset) => {
          const now = 1_700_000_000 + offset;
          const points = hoursBack.map((h) => Math.floor(now / hour) * hour - h * hour).sort((a, b) => a - b);
          const span = PERIOD_WINDOWS[period].seconds;
          const answer = shown(points, span, now);
          const until = pnlHistoryUntil(
            period,
            answer.map((t) => ({ t })),
            now,
          );
          expect(until).toBeGreaterThan(now);
          expect(until - now).toBeLessThanOrEqual(POINTS_KEPT_SECONDS);
          for (const t of [now + 1, Math.floor((now + until) / 2), until - 1])
            if (t < until) expect(shown(points, span, t), `t = now + ${t - now}`).toEqual(answer);
          // Kept no longer than needed where the oldest point leaves the window.
          if (until - now < POINTS_KEPT_SECONDS) expect(shown(points, span, until)).not.toEqual(answer);
        },
      ),
    );
  });
});
