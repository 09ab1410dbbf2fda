import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aheadOfNews, type AheadRules, type NewsTrade } from "./ahead-of-news.js";
import type { Direction, EntryType, OutcomeIndex } from "./types.js";

const EVENT = 1_780_000_000;
const HOUR = 3_600;
const RULES: AheadRules = { hoursBefore: 6, hoursAfter: 2, minMove: 0.1, minUsd: 100 };

let tx = 0;
/** A fill of `shares` of an outcome at `price` dollars, `at` seconds from the event. */
function trade(
  wallet: string,
  at: number,
  outcomeIndex: OutcomeIndex,
  side: Direction,
  shares: number,
  price: number,
  entryType: EntryType | null = "COMPLEMENTARY",
): NewsTrade {
  const size = Math.round(shares * 1e6);
  return {
    wallet,
    txHash: `0x${(++tx).toString(16)}`,
    ts: EVENT + at,
    outcomeIndex,
    side,
    size,
    usd: Math.round(shares * price * 1e6),
    price,
    entryType,
  };
}

/**
 * The window start is 0.30 (A, 8 h before); the last trade at or before the event is E's at YES 0.35; the last within
 * two hours after is G's sale of NO at 0.30, YES 0.70: a move of +0.35, YES rising. Toward YES before the event: B
 * bought 2,000 YES at 0.32 ($640); I's sale of NO settled as MINT is a purchase of 1,000 YES for 1,000 - 600 = $400;
 * C sold 1,000 NO at 0.66, 1,000 YES for $340; D bought NO (against); E's $70 is under the $100 minimum.
 */
const TRADES: NewsTrade[] = [
  trade("A", -8 * HOUR, 0, "BUY", 1_000, 0.3),
  trade("B", -5 * HOUR, 0, "BUY", 2_000, 0.32),
  trade("I", -4 * HOUR, 1, "SELL", 1_000, 0.6, "MINT"),
  trade("C", -3 * HOUR, 1, "SELL", 1_000, 0.66),
  trade("D", -2 * HOUR, 1, "BUY", 500, 0.65),
  trade("E", -1 * HOUR, 0, "BUY", 200, 0.35),
  trade("F", HOUR / 2, 0, "BUY", 1_000, 0.6),
  trade("G", 1.5 * HOUR, 1, "SELL", 100, 0.3),
  trade("H", 3 * HOUR, 0, "BUY", 100, 0.9),
];

describe("ahead of the news", () => {
  it("finds the wallets that traded toward the move in the hours before the event, worked by hand", () => {
    const found = aheadOfNews(TRADES, EVENT, RULES, 0.3);
    expect(found.move.priceWindowStart).toBe(0.3);
    expect(found.move.priceBefore).toBeCloseTo(0.35, 9);
    expect(found.move.priceAfter).toBeCloseTo(0.7, 9);
    expect(found.move.move).toBeCloseTo(0.35, 9);
    expect(found.move.rising).toBe(0);
    expect(found.wallets.map((w) => w.wallet)).toEqual(["B", "I", "C"]);
    const [b, i, c] = found.wallets;
    expect([b!.shares, b!.usd, b!.avgPrice, b!.leadHours]).toEqual([2_000, 640, 0.32, 5]);
    expect(b!.gainUsd).toBeCloseTo(2_000 * 0.7 - 640, 6);
    expect([i!.shares, i!.usd, i!.avgPrice, i!.leadHours]).toEqual([1_000, 400, 0.4, 4]);
    expect(i!.gainUsd).toBeCloseTo(700 - 400, 6);
    expect([c!.shares, c!.usd, c!.leadHours]).toEqual([1_000, 340, 3]);
    expect(c!.gainUsd).toBeCloseTo(700 - 340, 6);
    expect(c!.trades.map((t) => t.wallet)).toEqual(["C"]);
  });

  it("names nobody when the move is under the minimum or there is no trade after the event", () => {
    const small = aheadOfNews(TRADES, EVENT, { ...RULES, minMove: 0.36 }, 0.3);
    expect(small.move.rising).toBeNull();
    expect(small.wallets).toEqual([]);
    const before = TRADES.filter((t) => t.ts <= EVENT);
    const none = aheadOfNews(before, EVENT, RULES, 0.3);
    expect(none.move.priceAfter).toBeNull();
    expect(none.move.move).toBeNull();
    expect(none.wallets).toEqual([]);
  });

  it("takes the window's opening price as the price before when nothing traded in the window", () => {
    const after = TRADES.filter((t) => t.ts > EVENT);
    const found = aheadOfNews(after, EVENT, RULES, 0.3);
    expect(found.move.priceBefore).toBe(0.3);
    expect(found.move.move).toBeCloseTo(0.4, 9);
    expect(found.wallets).toEqual([]);
  });

  it("is the same with the outcomes' names swapped: the wallets, their shares, costs and gains, on the other outcome", () => {
    const tradeArb = fc.record({
      wallet: fc.constantFrom("w1", "w2", "w3", "w4"),
      at: fc.integer({ min: -8 * HOUR, max: 3 * HOUR }),
      outcomeIndex: fc.constantFrom(0, 1) as fc.Arbitrary<OutcomeIndex>,
      side: fc.constantFrom("BUY", "SELL") as fc.Arbitrary<Direction>,
      shares: fc.integer({ min: 1, max: 5_000 }),
      cents: fc.integer({ min: 1, max: 99 }),
      entryType: fc.constantFrom("COMPLEMENTARY", "MINT", "MERGE", null) as fc.Arbitrary<EntryType | null>,
    });
    fc.assert(
      fc.property(fc.array(tradeArb, { maxLength: 40 }), (drafts) => {
        const trades = drafts
          .map((d) => trade(d.wallet, d.at, d.outcomeIndex, d.side, d.shares, d.cents / 100, d.entryType))
          .sort((a, b) => a.ts - b.ts);
        const swapped = trades.map((t) => ({
          ...t,
          outcomeIndex: (1 - t.outcomeIndex) as OutcomeIndex,
        }));
        // Swapping the names turns each YES price p into a NO price p: the YES prices become 1 - p.
        const plain = aheadOfNews(trades, EVENT, { ...RULES, minUsd: 0 }, null);
        const mirrored = aheadOfNews(swapped, EVENT, { ...RULES, minUsd: 0 }, null);
        expect(mirrored.move.rising).toBe(plain.move.rising === null ? null : 1 - plain.move.rising);
        expect(mirrored.wallets.map((w) => w.wallet)).toEqual(plain.wallets.map((w) => w.wallet));
        mirrored.wallets.forEach((w, k) => {
          const p = plain.wallets[k]!;
          expect(w.outcomeIndex).toBe(1 - p.outcomeIndex);
          expect(w.shares).toBeCloseTo(p.shares, 6);
          expect(w.usd).toBeCloseTo(p.usd, 6);
          expect(w.gainUsd).toBeCloseTo(p.gainUsd, 6);
        });
        for (const w of plain.wallets) expect(w.firstTs).toBeGreaterThanOrEqual(EVENT - RULES.hoursBefore * HOUR);
      }),
    );
  });
});
