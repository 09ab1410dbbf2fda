import { describe, expect, it } from "vitest";
import { assessWallet, computeRankings, replay } from "../ledger/index.js";
import { T0, buy, defaultLedgerConfig, market, micro, sell } from "../ledger/testing/events.js";
import { positionRows, positionSnapshotRows, walletStatsRow } from "./ledger-rows.js";

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
    const rows = positionSnapshotRows(state, T0 + 5 * 3_600);
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
    expect(positionSnapshotRows(state, T0 + 5 * 3_600, 30)).toEqual([
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
