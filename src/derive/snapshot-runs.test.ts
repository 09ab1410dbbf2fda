/**
 * A first derivation's snapshot runs (src/derive/snapshot-runs.ts): the runs it gives out hold, on each day taken,
 * exactly that day's rows, and no two runs of a position could have been one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PositionSnapshotRunsTable, PositionSnapshotsTable } from "../store/schema.js";
import { SnapshotRunBuilder } from "./snapshot-runs.js";

const DAY = 86_400;
const KEYS = ["a:1", "a:2", "b:1", "b:3"];

function rowsOf(day: number, positions: readonly number[]): PositionSnapshotsTable[] {
  return positions.flatMap((v, i) => {
    if (v === 0) return [];
    const [wallet, market] = KEYS[i]!.split(":") as [string, string];
    return [{ day, wallet, condition_id: market, yes_shares: v, yes_cost: v / 3, no_shares: 0, no_cost: 0 }];
  });
}

const key = (r: { wallet: string; condition_id: string }) => `${r.wallet}:${r.condition_id}`;

describe("SnapshotRunBuilder", () => {
  it("gives out runs that hold each taken day's rows, as few as the changes allow", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(0, 1, 2), { minLength: KEYS.length, maxLength: KEYS.length }), {
          minLength: 1,
          maxLength: 10,
        }),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 10, maxLength: 10 }),
        (days, gaps) => {
          const builder = new SnapshotRunBuilder();
          const runs: PositionSnapshotRunsTable[] = [];
          const taken: Array<{ day: number; rows: PositionSnapshotsTable[] }> = [];
          let day = 100 * DAY;
          days.forEach((positions, i) => {
            day += gaps[i]! * DAY;
            const rows = rowsOf(day, positions);
            taken.push({ day, rows });
            runs.push(...builder.take(day, rows));
          });
          runs.push(...builder.finish());
          for (const { day, rows } of taken) {
            const held = runs
              .filter((r) => r.from_day <= day && r.until_day > day)
              .map(({ from_day: _from, until_day: _until, ...values }) => ({ day, ...values }));
            expect(held.sort((x, y) => key(x).localeCompare(key(y)))).toEqual(rows);
          }
          // A run ends the day after the last day it held; the next run of the same position differs, or starts
          // after a day that did not hold it.
          const byKey = new Map<string, PositionSnapshotRunsTable[]>();
          for (const r of runs) byKey.set(key(r), [...(byKey.get(key(r)) ?? []), r]);
          for (const list of byKey.values()) {
            list.sort((x, y) => x.from_day - y.from_day);
            for (let i = 1; i < list.length; i++) {
              const [before, after] = [list[i - 1]!, list[i]!];
              const sameValues = before.yes_shares === after.yes_shares && before.yes_cost === after.yes_cost;
              const adjacent =
                taken.findIndex((t) => t.day === after.from_day) ===
                taken.findIndex((t) => t.day === before.until_day - DAY) + 1;
              expect(sameValues && adjacent).toBe(false);
            }
          }
        },
      ),
    );
  });

  it("refuses a day that is not later than the last one taken", () => {
    const builder = new SnapshotRunBuilder();
    [...builder.take(2 * DAY, [])];
    expect(() => [...builder.take(2 * DAY, [])]).toThrow(/out of order/);
  });
});
