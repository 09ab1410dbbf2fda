import { describe, expect, it } from "vitest";
import { assessWallet, computeRankings, replay } from "../ledger/index.js";
import { DAY, T0, buy, defaultLedgerConfig, market, micro, redeem, sell } from "../ledger/testing/events.js";
import { positionRows, positionSnapshotRowStream, positionsDigest, walletStatsRow } from "./ledger-rows.js";

const config = defaultLedgerConfig();
const W = "0xeeee000000000000000000000000000000000005";
const V = "0xeeee000000000000000000000000000000000006";

describe("position snapshots", () => {
  it("give each wallet's open shares and cost per market and side, dated at 00:00 UTC", () => {
    // W: m1 YES 100 @ 0.40 (cost 40) and NO 50 @ 0.50 (cost 25); m2 closed -> no row. V: m1 NO 10 @ 0.30 (cost 3)
    const state = replay([
      buy(W, "m1", 0, 100, 0.4),
      buy(W, "m1", 1, 50, 0.5),
      buy(W, "m2", 0, 10, 0.5),
      sell(W, "m2", 0, 10, 0.6, { ts: T0 + 1 }),
      buy(V, "m1", 1, 10, 0.3),
    ]);
    const rows = [...positionSnapshotRowStream(state, T0 + 5 * 3_600)];
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.wallet === W)).toEqual({
      day: T0,
      wallet: W,
      condition_id: "m1",
      yes_shares: micro(100),
      yes_cost: 40,
      no_shares: micro(50),
      no_cost: 25,
    });
    expect(rows.find((r) => r.wallet === V)).toMatchObject({
      yes_shares: 0,
      yes_cost: 0,
      no_shares: micro(10),
      no_cost: 3,
    });
    // with a 30 USD floor per side: W's YES leg (40) keeps its market, with both legs; V (3) is on no side
    expect([...positionSnapshotRowStream(state, T0 + 5 * 3_600, 30)]).toEqual([
      {
        day: T0,
        wallet: W,
        condition_id: "m1",
        yes_shares: micro(100),
        yes_cost: 40,
        no_shares: micro(50),
        no_cost: 25,
      },
    ]);
  });
});

describe("store rows", () => {
  it("map a position onto the positions table", () => {
    const state = replay([buy(W, "m1", 1, 20, 0.25, { fee: 0.1 })], [market("m1")]);
    expect(positionRows(state, W)).toEqual([
      {
        wallet: W,
        token_id: "m1-no",
        condition_id: "m1",
        outcome_index: 1,
        shares: micro(20),
        avg_price: 0.25,
        total_bought: micro(20),
        realized_pnl: 0,
        fees: micro(0.1),
        first_ts: T0,
        last_ts: T0,
        closed_ts: null,
        status: "open",
      },
    ]);
  });

  it("map an assessment onto the wallet_stats table", () => {
    const state = replay(
      [buy(W, "m1", 0, 10, 0.5), sell(W, "m1", 0, 10, 0.6, { ts: T0 + 1 })],
      [market("m1", { category: "Crypto", resolution: "YES", resolvedAt: T0 + 2 })],
      T0 + 3,
    );
    const assessment = assessWallet(state, W, { now: T0 + 3 }, config)!;
    const rankings = computeRankings(
      [{ wallet: W, resolved: 1, totalPnl: 1, winRate: 100, totalVolume: 11, profitFactor: 99.99 }],
      { rankMinResolvedMarkets: 1 },
    );
    const row = walletStatsRow(assessment, rankings.get(W), T0 + 4);
    expect(row).toMatchObject({
      wallet: W,
      computed_at: T0 + 4,
      total_trades: 2,
      total_volume: 11,
      resolved: 1,
      wins: 1,
      losses: 0,
      win_source: "market",
      total_pnl: 1,
      profit_factor: 99.99,
      is_smart: 0,
      is_farmer: 0,
      farmer_reason: null,
      has_skill: 0,
      rank_pnl: 1,
      median_hold_days: null,
      hold_positions_count: 1,
    });
    expect(JSON.parse(row.categories)).toMatchObject({ CRYPTO: 100 });
  });
});

/**
 * The positions digest written with a wallet's statistics row: it moves with a redemption, which changes the
 * wallet's positions and none of the row's figures (a resolved winner's P&L is booked at the resolution), and it is
 * the same whatever order the ledger holds the positions in, so that the Deriver and a rebuild write the same row.
 */
const R = "0xaaaa000000000000000000000000000000000001";
const resolvedYes = [market("m1", { resolution: "YES", resolvedAt: T0 + DAY }), market("m2")];
const redeemTrades = [buy(R, "m1", 0, 100, 0.25), buy(R, "m1", 1, 40, 0.7, { ts: T0 + 5 }), buy(R, "m2", 0, 10, 0.5)];
const digestOf = (state: ReturnType<typeof replay>) => positionsDigest(state, state.wallet(R));

describe("positionsDigest", () => {
  it("moves with a redemption of a resolved winner, which leaves the settled P&L as it was", () => {
    const held = replay(redeemTrades, resolvedYes, T0 + 2 * DAY);
    const redeemed = replay([...redeemTrades, redeem(R, "m1", 1, T0 + 2 * DAY)], resolvedYes, T0 + 2 * DAY);
    // The winner's 100 shares paid out at 1: what the wallet settled is the same before and after (75 - 28).
    const settled = (s: typeof held) =>
      [0, 1].map((outcome) => s.settledNet(s.position(R, "m1", outcome as 0 | 1)!.index));
    expect(settled(redeemed)).toEqual(settled(held));
    expect(held.position(R, "m1", 0)!.shares).toBeGreaterThan(0);
    expect(redeemed.position(R, "m1", 0)!.shares).toBe(0);
    expect(digestOf(redeemed)).not.toBe(digestOf(held));
  });

  it("is the same whatever order the positions were opened in", () => {
    const forward = replay(redeemTrades, resolvedYes, T0 + 2 * DAY);
    const backward = replay([...redeemTrades].reverse(), resolvedYes, T0 + 2 * DAY);
    expect(digestOf(backward)).toBe(digestOf(forward));
    expect(digestOf(forward)).not.toBe(positionsDigest(forward, undefined));
  });
});
