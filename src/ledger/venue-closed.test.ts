import { describe, expect, it } from "vitest";
import { replay } from "./state.js";
import { T0, buy, market, redeem, sell } from "./testing/events.js";
import { venueClosedPositions } from "./venue-closed.js";

const W = "0xdddd000000000000000000000000000000000004";

describe("the venue's closed-positions list as the ledger computes it", () => {
  // Markets resolve at T0 + 100; the list is read at T0 + 1000.
  const resolved = (id: string, resolution: "YES" | "NO") => market(id, { resolution, resolvedAt: T0 + 100 });
  const facts = [
    resolved("sold-up", "NO"),
    resolved("sold-down", "YES"),
    resolved("fee", "NO"),
    resolved("kept-loser", "NO"),
    resolved("redeemed-loser", "NO"),
    resolved("kept-winner", "YES"),
    resolved("redeemed-winner", "YES"),
    market("open"),
  ];
  const events = [
    // YES 10 @ 0.40 sold @ 0.60 before the resolution: realized +2 -> a win
    buy(W, "sold-up", 0, 10, 0.4),
    sell(W, "sold-up", 0, 10, 0.6, { ts: T0 + 1 }),
    // YES 10 @ 0.50 sold @ 0.30: realized -2 -> a loss
    buy(W, "sold-down", 0, 10, 0.5),
    sell(W, "sold-down", 0, 10, 0.3, { ts: T0 + 1 }),
    // YES 100 @ 0.50 sold @ 0.51 with a 3 USD fee: realized +1 (the venue's realizedPnl leaves fees out) -> a win
    buy(W, "fee", 0, 100, 0.5, { fee: 3 }),
    sell(W, "fee", 0, 100, 0.51, { ts: T0 + 1 }),
    // YES 10 @ 0.30 on a market that resolved NO, never redeemed: the venue still lists it as held
    buy(W, "kept-loser", 0, 10, 0.3),
    // YES 10 @ 0.20 on a NO market, redeemed for nothing after the resolution: realized -2 -> a loss
    buy(W, "redeemed-loser", 0, 10, 0.2),
    redeem(W, "redeemed-loser", null, T0 + 200),
    // YES 10 @ 0.70 on a YES market, not redeemed: held (redeemable) on the venue
    buy(W, "kept-winner", 0, 10, 0.7),
    // YES 10 @ 0.25 on a YES market, redeemed at 1: realized +7.5 -> a win
    buy(W, "redeemed-winner", 0, 10, 0.25),
    redeem(W, "redeemed-winner", null, T0 + 200),
    // an open position
    buy(W, "open", 0, 10, 0.5),
  ];

  it("lists the positions a wallet's own event brought to zero, counted by their realized P&L before fees", () => {
    const state = replay(events, facts, T0 + 1000);
    expect(venueClosedPositions(state, state.wallet(W)!)).toEqual({
      held: 5,
      wins: 3,
      losses: 2,
      grossProfit: 2 + 1 + 7.5,
      grossLoss: 2 + 2,
    });
  });

  it("gives the same list in whatever order the resolutions reach the positions", () => {
    // Sweeping at each event's time, or all at the end, must not change which positions the venue lists.
    const swept = replay(events, facts);
    swept.advanceTo(T0 + 150);
    swept.advanceTo(T0 + 1000);
    const atOnce = replay(events, facts, T0 + 1000);
    expect(venueClosedPositions(swept, swept.wallet(W)!)).toEqual(venueClosedPositions(atOnce, atOnce.wallet(W)!));
  });
});
