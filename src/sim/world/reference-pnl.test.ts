import { describe, expect, it } from "vitest";
import {
  ReferenceLedger,
  ledgerBuy,
  ledgerSell,
  mulDivTrunc,
  negRiskYesPrice,
  newPosition,
  referencePnl,
} from "./reference-pnl.js";
import { TEST_END, balancesOf, smallWorld } from "./testing/worlds.js";

const S = 1_000_000; // one share, or one dollar, in micro-units
const price = (p: number) => Math.round(p * S);

describe("reference P&L method (docs/METRICS.md, positions and P&L), hand-computed", () => {
  it("averages buys and realizes sells against the average", () => {
    const p = newPosition();
    ledgerBuy(p, price(0.4), 100 * S);
    ledgerBuy(p, price(0.6), 100 * S);
    expect(p).toMatchObject({ amount: 200 * S, avgPrice: price(0.5), totalBought: 200 * S, realizedPnl: 0 });
    ledgerSell(p, price(0.7), 50 * S); // 50 * (0.70 - 0.50) = 10
    expect(p).toMatchObject({ amount: 150 * S, avgPrice: price(0.5), realizedPnl: 10 * S, totalBought: 200 * S });
    ledgerSell(p, price(0.2), 500 * S); // only the 150 held: 150 * (0.20 - 0.50) = -45
    expect(p).toMatchObject({ amount: 0, realizedPnl: -35 * S });
  });

  it("truncates like the subgraph's integer division", () => {
    const p = newPosition();
    ledgerBuy(p, price(0.1), 1 * S);
    ledgerBuy(p, price(0.2), 2 * S); // (100000 * 1e6 + 200000 * 2e6) / 3e6 = 166666.67 -> 166666
    expect(p.avgPrice).toBe(166_666);
    ledgerSell(p, price(0.3), 1); // 1 * (300000 - 166666) / 1e6 = 0.133 -> 0
    expect(p.realizedPnl).toBe(0);
    ledgerSell(p, price(0.1), 3); // 3 * (100000 - 166666) / 1e6 = -0.199998 -> 0 (toward zero)
    expect(p.realizedPnl).toBe(0);
    expect(mulDivTrunc(-7, 3, 2)).toBe(-10); // BigInt semantics: -21 / 2 = -10
    // beyond 2^53 the BigInt path gives the exact answer
    expect(mulDivTrunc(9_000_000_000_000, 999_999, S)).toBe(Number((9_000_000_000_000n * 999_999n) / 1_000_000n));
    const big = newPosition();
    ledgerBuy(big, price(0.37), 5_000_000 * S);
    ledgerBuy(big, price(0.81), 3_000_000 * S); // (0.37 * 5 + 0.81 * 3) / 8 = 0.535
    expect(big.avgPrice).toBe(535_000);
  });

  it("books a split as buys at 0.50 and a merge as sells at 0.50", () => {
    const l = new ReferenceLedger();
    l.split(0, 100 * S, 1);
    expect(l.positions.get(0)).toMatchObject({ amount: 100 * S, avgPrice: price(0.5), totalBought: 100 * S });
    expect(l.positions.get(1)).toMatchObject({ amount: 100 * S, avgPrice: price(0.5), totalBought: 100 * S });
    l.sell(0, price(0.8), 60 * S, 2); // 60 * 0.30 = 18
    l.merge(0, 40 * S, 3); // 40 * 0 on each side
    expect(l.positions.get(0)).toMatchObject({ amount: 0, realizedPnl: 18 * S });
    expect(l.positions.get(1)).toMatchObject({ amount: 60 * S, realizedPnl: 0 });
    l.buy(1, price(0.3), 40 * S, 4); // NO avg (0.5 * 60 + 0.3 * 40) / 100 = 0.42
    expect(l.positions.get(1)!.avgPrice).toBe(price(0.42));
  });

  it("books a redemption as a sale of the held amount at the payout", () => {
    const l = new ReferenceLedger();
    l.buy(2, price(0.3), 100 * S, 1); // YES of market 1
    l.buy(3, price(0.6), 50 * S, 1); // NO of market 1
    l.redeem(1, S, 0, 9); // YES won
    expect(l.positions.get(2)).toMatchObject({ amount: 0, realizedPnl: 70 * S, lastTs: 9 });
    expect(l.positions.get(3)).toMatchObject({ amount: 0, realizedPnl: -30 * S });
    const half = new ReferenceLedger();
    half.buy(0, price(0.3), 10 * S, 1);
    half.redeem(0, price(0.5), price(0.5), 2); // 10 * (0.5 - 0.3) = 2
    expect(half.positions.get(0)!.realizedPnl).toBe(2 * S);
  });

  it("moves cost basis through a NegRisk conversion", () => {
    // Four questions (markets 0..3); NO of questions 0 and 1 at 0.90 and 0.80, 100 shares each.
    const l = new ReferenceLedger();
    l.buy(1, price(0.9), 100 * S, 1);
    l.buy(3, price(0.8), 100 * S, 1);
    l.convert([0, 1, 2, 3], 0b0011, 100 * S, 0, 2);
    // NO sold at their own average: no realized P&L.
    expect(l.positions.get(1)).toMatchObject({ amount: 0, realizedPnl: 0 });
    expect(l.positions.get(3)).toMatchObject({ amount: 0, realizedPnl: 0 });
    // noPrice 0.85; yesPrice = (0.85 * 2 - 1) / (4 - 2) = 0.35 for YES of questions 2 and 3.
    expect(negRiskYesPrice(price(0.85), 2, 4)).toBe(price(0.35));
    expect(l.positions.get(4)).toMatchObject({ amount: 100 * S, avgPrice: price(0.35), totalBought: 100 * S });
    expect(l.positions.get(6)).toMatchObject({ amount: 100 * S, avgPrice: price(0.35) });
    expect(l.positions.has(0)).toBe(false); // no YES of a question given up
    // with a 1% adapter fee the YES received are amount - fee
    const f = new ReferenceLedger();
    f.buy(1, price(0.9), 100 * S, 1);
    f.convert([0, 1, 2], 0b001, 100 * S, 100, 2);
    // noPrice 0.90, one NO: yesPrice = (0.9 - 0) / 2 = 0.45
    expect(f.positions.get(2)).toMatchObject({ amount: 99 * S, avgPrice: price(0.45) });
    expect(f.positions.get(4)).toMatchObject({ amount: 99 * S, avgPrice: price(0.45) });
    expect(negRiskYesPrice(price(0.3), 2, 3)).toBe(-price(0.4)); // (0.6 - 1) / 1: negative, as the subgraph computes
  });
});

describe("referencePnl on a generated world", () => {
  const world = smallWorld(21, { markets: 80, wallets: 500, fills: 15_000 });
  const wallets = [...world.wallets.keys()].filter((w) => world.fillsOfWallet(w).length > 0).slice(0, 60);

  it("ends the P&L curve at realized plus unrealized, and matches positions to balances", () => {
    for (const w of wallets) {
      const r = referencePnl(world, w);
      const last = r.curve[r.curve.length - 1]!;
      expect(last.t).toBe(world.end);
      expect(last.p).toBeCloseTo(r.totalPnl, 5);
      const sum =
        r.positions.reduce((s, p) => s + p.realizedPnl + p.cashPnl, 0) +
        r.closedPositions.reduce((s, p) => s + p.realizedPnl, 0);
      expect(sum).toBeCloseTo(r.totalPnl, 3);
      for (let i = 1; i < r.curve.length; i++) expect(r.curve[i]!.t).toBeGreaterThan(r.curve[i - 1]!.t);
      for (const p of r.positions) {
        expect(p.initialValue).toBeCloseTo(p.size * p.avgPrice, 9);
        expect(p.currentValue).toBeCloseTo(p.size * p.curPrice, 9);
        expect(p.cashPnl).toBeCloseTo(p.currentValue - p.initialValue, 9);
        expect(p.redeemable).toBe(world.markets[p.market]!.status === "resolved");
      }
      for (const c of r.closedPositions) expect(c.micro.amount).toBe(0);
      const balances = balancesOf(world, w);
      for (const p of r.positions) expect(p.micro.amount).toBe(balances.get(p.token));
      for (const [token, amount] of balances)
        if (amount > 0) expect(r.positions.some((p) => p.token === token)).toBe(true);
    }
  });

  it("keeps unredeemed losers as redeemable positions at price 0, out of the closed list", () => {
    let found = 0;
    for (const w of world.wallets.keys()) {
      const r = referencePnl(world, w);
      for (const p of r.positions) {
        if (!p.redeemable || p.curPrice !== 0) continue;
        found++;
        expect(p.cashPnl).toBeCloseTo(-p.initialValue, 9);
        expect(r.closedPositions.some((c) => c.token === p.token)).toBe(false);
      }
      if (found > 5) break;
    }
    expect(found).toBeGreaterThan(0);
  });

  it("answers as of an earlier instant", () => {
    const w = wallets[0]!;
    const mid = world.start + (TEST_END - world.start) / 2;
    const r = referencePnl(world, w, mid);
    expect(r.asOf).toBe(mid);
    expect(r.curve.every((pt) => pt.t <= mid)).toBe(true);
    for (const p of [...r.positions, ...r.closedPositions]) expect(p.micro.lastTs).toBeLessThanOrEqual(mid);
  });
});
