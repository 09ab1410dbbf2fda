import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { IndexedMarket, MarketIndex } from "./market-index.js";
import { resolvedMarkets } from "./markets-lists.js";

const DAY = 86_400;

/** An index of resolved markets dated at these seconds (only the fields the list reads matter here). */
function indexOf(dates: readonly number[]): MarketIndex {
  const markets = dates.map(
    (at, i) =>
      ({
        id: String(1000 + i),
        condition_id: `0x${i}`,
        slug: `m-${i}`,
        question: `Q${i}?`,
        resolution: "YES",
        resolved_at: at,
        closed: true,
        closed_time: at,
        end_date: at,
        volume: 0,
        whales_yes: 0,
        whales_no: 0,
      }) as unknown as IndexedMarket,
  );
  return { markets } as unknown as MarketIndex;
}

describe("resolvedMarkets' until", () => {
  it("is the first second at which the clock alone changes the list without a prefix", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -20 * DAY, max: 2 * DAY }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 10 }),
        (offsets, days) => {
          const now = 1_700_000_000;
          const index = indexOf(offsets.map((o) => now + o));
          const filters = {
            days,
            limit: 100,
            offset: 0,
            slugPrefix: "",
            endFrom: null,
            endTo: null,
            includePending: false,
          };
          const at = (t: number) => {
            const { until: _until, ...list } = resolvedMarkets(index, filters, t);
            return list;
          };
          const { until } = resolvedMarkets(index, filters, now);
          expect(until).toBeGreaterThan(now);
          for (const t of [now + 1, Math.floor((now + Math.min(until, now + 3 * DAY)) / 2), until - 1])
            if (t < until && t > now) expect(at(t), `t = now + ${t - now}`).toEqual(at(now));
          if (Number.isFinite(until)) expect(at(until)).not.toEqual(at(now));
        },
      ),
    );
  });
});
