import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { WhaleFill } from "./whale-fill-window.js";
import { candidatesNewestFirst } from "./window-positions.js";

const WALLETS = ["0xa", "0xb", "0xc", "0xd"];
const CONDITIONS = ["0x1", "0x2", "0x3"];

const fill = (wallet: string, condition: string, i: number): WhaleFill => ({
  id: i + 1,
  ts: 1_000 + i,
  wallet,
  condition_id: condition,
  outcome_index: 0,
  side: "BUY",
  price: 0.5,
  size: 1,
  usd: 1,
  tx_hash: "0x",
  entry_type: null,
  role: null,
});

const window = fc
  .array(fc.tuple(fc.constantFrom(...WALLETS), fc.constantFrom(...CONDITIONS)), { maxLength: 60 })
  .map((pairs) => pairs.map(([w, c], i) => fill(w, c, i)));
const filter = fc.record({
  wallets: fc.option(fc.subarray([...WALLETS, "0xnone"], { minLength: 1 }).map((w) => new Set(w))),
  conditionId: fc.option(fc.constantFrom(...CONDITIONS, "0xnone")),
});

describe("a filtered walk of the whale fills' window", () => {
  it("yields, newest first and below the end, every fill the filters match and only fills one of them names", () => {
    fc.assert(
      fc.property(window, filter, fc.nat(), (fills, f, at) => {
        const end = fills.length === 0 ? 0 : at % (fills.length + 1);
        const walked = [...candidatesNewestFirst(fills, end, f)];
        expect(walked).toEqual([...walked].sort((a, b) => b - a));
        expect(new Set(walked).size).toBe(walked.length);
        expect(walked.every((i) => i >= 0 && i < end)).toBe(true);
        const byWallet = (x: WhaleFill) => f.wallets === null || f.wallets.has(x.wallet);
        const byMarket = (x: WhaleFill) => f.conditionId === null || x.condition_id === f.conditionId;
        const matching = fills.slice(0, end).flatMap((x, i) => (byWallet(x) && byMarket(x) ? [i] : []));
        expect(matching.every((i) => walked.includes(i))).toBe(true);
        if (f.wallets !== null || f.conditionId !== null)
          expect(
            walked.every(
              (i) =>
                f.wallets?.has(fills[i]!.wallet) === true ||
                (f.conditionId !== null && fills[i]!.condition_id === f.conditionId),
            ),
          ).toBe(true);
        else expect(walked.length).toBe(end);
      }),
    );
  });

  it("builds the positions once per copy of the window: a new copy is walked by its own", () => {
    const first = [fill("0xa", "0x1", 0), fill("0xb", "0x1", 1)];
    expect([...candidatesNewestFirst(first, 2, { wallets: new Set(["0xb"]), conditionId: null })]).toEqual([1]);
    const next = [fill("0xb", "0x2", 0), fill("0xa", "0x1", 1), fill("0xb", "0x1", 2)];
    expect([...candidatesNewestFirst(next, 3, { wallets: new Set(["0xb"]), conditionId: null })]).toEqual([2, 0]);
  });
});
