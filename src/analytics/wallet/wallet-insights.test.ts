import { describe, expect, it } from "vitest";
import { storeBackends } from "../../../test/support/backends.js";
import { insertRows } from "../../store/derived-tables.js";
import { mergePnlPoints } from "../../store/pnl-series.js";
import type { PositionsTable } from "../../store/schema.js";
import { walletHighlights } from "./wallet-insights.js";

const DAY = 86_400;
const D = 20_000;
const WALLET = "0x00000000000000000000000000000000000000b1";
const condition = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

function position(n: number, p: Partial<PositionsTable>): PositionsTable {
  return {
    wallet: WALLET,
    token_id: String(n),
    condition_id: condition(n),
    outcome_index: 0,
    shares: 0,
    avg_price: 0.5,
    total_bought: 10_000_000,
    realized_pnl: 0,
    fees: 0,
    first_ts: (D - 10) * DAY,
    last_ts: (D - 10) * DAY,
    closed_ts: null,
    status: "closed",
    ...p,
  };
}

describe.each(storeBackends)("highlights on $kind", (backend) => {
  it("settle the day in progress as the daily points do: a resolved winner not yet redeemed is already booked", async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.transaction((tx) =>
        insertRows(tx, "positions", [
          // Day D − 3: sold at a loss of $30.
          position(1, { realized_pnl: -30_000_000, last_ts: (D - 3) * DAY + 100, closed_ts: (D - 3) * DAY + 100 }),
          // Day D − 2: resolved YES, 100 shares bought at 0.80 still held: settled +$20 at the resolution.
          position(2, {
            shares: 100_000_000,
            avg_price: 0.8,
            total_bought: 100_000_000,
            last_ts: (D - 3) * DAY + 200,
            closed_ts: (D - 2) * DAY + 300,
          }),
          // Day D: sold at a loss of $1 (the day's close) ...
          position(3, { outcome_index: 1, realized_pnl: -1_000_000, last_ts: D * DAY + 600, closed_ts: D * DAY + 600 }),
          // ... and $5 realized selling part of a position still open; its market resolved NO since, but the ledger
          // has not reached that resolution yet (the position is open): its 10 shares at 0.50 are not settled.
          position(4, { shares: 10_000_000, realized_pnl: 5_000_000, last_ts: D * DAY + 700, status: "open" }),
        ]),
      );
      const resolution = (n: number, outcome: "YES" | "NO", t: number) => ({
        condition_id: condition(n),
        resolution: outcome,
        payout_numerators: outcome === "YES" ? '["1","0"]' : '["0","1"]',
        resolved_at: t,
        block_number: n,
        tx_hash: condition(n),
        log_index: 0,
      });
      await store.db
        .insertInto("market_resolutions")
        .values([resolution(2, "YES", (D - 2) * DAY + 300), resolution(4, "NO", D * DAY + 800)])
        .execute();
      // The ledger's daily points (cumulative settled net P&L, dated at the end of their day): −30 after D − 3,
      // −30 + 20 = −10 after D − 2. Day D has none yet.
      await store.transaction((tx) =>
        mergePnlPoints(tx, [
          { wallet: WALLET, resolution: "day", t: (D - 2) * DAY, pnl: -30 },
          { wallet: WALLET, resolution: "day", t: (D - 1) * DAY, pnl: -10 },
        ]),
      );

      // Settled now: −30 + 20 − 1 + 5 = −6, so day D booked −6 − (−10) = +4 with one close: profitable, as is D − 2
      // (+20, one close). Summing realized P&L alone (−26) would give day D −16.
      const body = await walletHighlights(store, WALLET, D * DAY + 1_000);
      expect(body.current_streak_days).toBe(1);
      expect(body.profitable_days).toBe(2);
      expect(body.best_streak_days).toBe(1);
      expect(body.best_streak).toEqual({ start_date: "2024-10-02", end_date: "2024-10-02", pnl: 20 });
      // The biggest win reads realized P&L net of fees (docs/METRICS.md): the unredeemed winner counts 0 there.
      expect(body.biggest_win).toBeNull();
    } finally {
      await dispose();
    }
  });
});
