/**
 * INGEST_START's date to block: the search answers what a scan of every block would, on chains with steady and
 * with irregular block times and with a node whose history starts late, and a steady chain costs a handful of calls.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VenueShapeError, type ChainClient } from "../venue/index.js";
import { firstBlockAtOrAfter } from "./ingest-start.js";

/** A chain of the given block timestamps whose node answers blocks from `historyFrom` on; counts the calls. */
function chainOf(timestamps: readonly number[], historyFrom = 0): { chain: ChainClient; calls: () => number } {
  let calls = 0;
  const chain = {
    async block(n: number) {
      calls++;
      if (n < historyFrom || n >= timestamps.length)
        throw new VenueShapeError(`rpc block ${n}`, [{ path: "", message: "block not found" }]);
      return { number: n, timestamp: timestamps[n]!, hash: "0x" };
    },
  } as unknown as ChainClient;
  return { chain, calls: () => calls };
}

/** The answer by scanning: the first block the node has at or after `ts`, head + 1 when none. */
function scanned(timestamps: readonly number[], ts: number, historyFrom: number): number {
  for (let n = historyFrom; n < timestamps.length; n++) if (timestamps[n]! >= ts) return n;
  return timestamps.length;
}

describe("firstBlockAtOrAfter", () => {
  it("answers as a scan of every block would, whatever the block times and the node's first block", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 3_000 }),
        fc.integer({ min: 1_700_000_000, max: 1_700_001_000 }),
        fc.double({ min: -0.1, max: 1.1, noNaN: true }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        async (gaps, genesis, where, lateHistory) => {
          const timestamps: number[] = [];
          for (const gap of gaps) timestamps.push((timestamps.at(-1) ?? genesis) + gap);
          const historyFrom = Math.floor(lateHistory * timestamps.length);
          const first = timestamps[0]!;
          const ts = Math.round(first + where * (timestamps.at(-1)! - first));
          const { chain } = chainOf(timestamps, historyFrom);
          const head = timestamps.length - 1;
          expect(await firstBlockAtOrAfter(chain, ts, head)).toBe(scanned(timestamps, ts, historyFrom));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("finds a day's first block of a steady 2-second chain in a handful of calls, 2.6 million blocks back", async () => {
    const head = 80_000_000;
    const genesis = 1_600_000_000;
    const timestamps = new Proxy([] as number[], {
      get: (target, key) =>
        key === "length"
          ? head + 1
          : typeof key === "string" && /^\d+$/.test(key)
            ? genesis + 2 * Number(key)
            : Reflect.get(target, key),
    });
    const { chain, calls } = chainOf(timestamps);
    const ts = genesis + 2 * (head - 2_600_000) - 1;
    expect(await firstBlockAtOrAfter(chain, ts, head)).toBe(head - 2_600_000);
    expect(calls()).toBeLessThanOrEqual(6);
  });
});
