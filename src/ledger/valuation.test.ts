import { describe, expect, it } from "vitest";
import { replay } from "./state.js";
import { DAY, T0, buy, market, sell } from "./testing/events.js";
import { dailySettledPnl, ledgerTotalPnl } from "./valuation.js";

const W = "0xeeee000000000000000000000000000000000005";

describe("a wallet's P&L (docs/METRICS.md, P&L points)", () => {
  // day 0: +2 realized (10 @ 0.5 -> 0.7); day 2: -1 (10 @ 0.5 -> 0.4); open m3: 10 @ 0.5, now 0.8 -> +3 unrealized
  const state = replay(
    [
      buy(W, "m1", 0, 10, 0.5, { ts: T0 + 10 }),
      sell(W, "m1", 0, 10, 0.7, { ts: T0 + 20 }),
      buy(W, "m2", 0, 10, 0.5, { ts: T0 + 2 * DAY }),
      sell(W, "m2", 0, 10, 0.4, { ts: T0 + 2 * DAY + 5 }),
      buy(W, "m3", 0, 10, 0.5, { ts: T0 + 2 * DAY + 9 }),
    ],
    [market("m3", { priceYes: 0.8 })],
  );

  it("in total: settled net P&L plus open positions at current prices", () => {
    expect(ledgerTotalPnl(state, state.wallet(W)!)).toBeCloseTo(4, 10);
  });

  it("day by day: cumulative settled P&L at the end of each day that booked some, open positions at cost", () => {
    expect(dailySettledPnl(state, W)).toEqual([
      { t: T0 + DAY, pnl: 2 },
      { t: T0 + 3 * DAY, pnl: 1 },
    ]);
  });
});
