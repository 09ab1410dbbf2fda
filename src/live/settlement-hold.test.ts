import { describe, expect, it } from "vitest";
import { ManualClock } from "../platform/clock.js";
import { ManualScheduler } from "./scheduler.js";
import { SettlementHold } from "./settlement-hold.js";

interface Trade {
  txHash: string;
  receivedAtMs: number;
  id: string;
}

function setup(holdMs = 700) {
  const scheduler = new ManualScheduler(new ManualClock(1_000_000));
  const released: Array<{ atMs: number; ids: string[] }> = [];
  const hold = new SettlementHold<Trade>(scheduler, holdMs, (rows) =>
    released.push({ atMs: scheduler.nowMs(), ids: rows.map((r) => r.id) }),
  );
  const add = (txHash: string, id: string) => hold.add({ txHash, id, receivedAtMs: scheduler.nowMs() });
  return { scheduler, hold, released, add };
}

describe("SettlementHold", () => {
  it("releases a transaction's rows together when its first row's hold ends, not before", () => {
    const { scheduler, released, add } = setup();
    add("0xa", "a1");
    scheduler.advance(300);
    add("0xa", "a2");
    add("0xb", "b1");
    scheduler.advance(399);
    expect(released).toEqual([]);
    scheduler.advance(1);
    expect(released).toEqual([{ atMs: 1_000_700, ids: ["a1", "a2"] }]);
    scheduler.advance(300);
    expect(released).toEqual([
      { atMs: 1_000_700, ids: ["a1", "a2"] },
      { atMs: 1_001_000, ids: ["b1"] },
    ]);
    expect(scheduler.pending).toBe(0);
  });

  it("starts a new group for a row that comes after its transaction was released (a lone fill at the edge)", () => {
    const { scheduler, released, add } = setup();
    add("0xa", "a1");
    scheduler.advance(700);
    add("0xa", "a2");
    scheduler.advance(700);
    expect(released.map((r) => r.ids)).toEqual([["a1"], ["a2"]]);
  });

  it("holds from when the relay received a row, not from when it reached the hold", () => {
    const { scheduler, hold, released } = setup();
    hold.add({ txHash: "0xa", id: "late", receivedAtMs: scheduler.nowMs() - 500 });
    scheduler.advance(200);
    expect(released).toEqual([{ atMs: 1_000_200, ids: ["late"] }]);
  });

  it("flushes everything at once when stopping", () => {
    const { hold, released, add } = setup();
    add("0xa", "a1");
    add("0xb", "b1");
    hold.flush();
    expect(released.map((r) => r.ids)).toEqual([["a1"], ["b1"]]);
    expect(hold.held).toBe(0);
  });
});
