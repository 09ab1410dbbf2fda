import { describe, expect, it } from "vitest";
import { PositionTable } from "./books.js";

describe("PositionTable", () => {
  it("finds every position and its other side across growth and rehashing", () => {
    const table = new PositionTable();
    const made = new Map<string, number>();
    let x = 12_345;
    const next = () => (x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0);
    for (let i = 0; i < 20_000; i++) {
      const wallet = next() % 3_000;
      const token = next() % 800;
      const key = `${wallet}/${token}`;
      if (made.has(key)) continue;
      made.set(key, table.create(wallet, token, 0, -1, -1));
    }
    expect(table.count).toBe(made.size);
    for (const [key, index] of made) {
      const [wallet, token] = key.split("/").map(Number) as [number, number];
      expect(table.find(wallet, token)).toBe(index);
      expect(table.sibling(index)).toBe(made.get(`${wallet}/${token ^ 1}`) ?? -1);
    }
    expect(table.find(3_001, 1)).toBe(-1);
  });

  it("books the reference buy and sell on a record", () => {
    // buy 100 @ 0.40, buy 50 @ 0.70 -> avg 0.50; sell 200 @ 0.80 with 150 held -> 150 * 0.30 = 45
    const table = new PositionTable();
    const p = table.create(7, 4, 100, -1, -1);
    table.buy(p, 400_000, 100_000_000, 100);
    table.buy(p, 700_000, 50_000_000, 110);
    table.sell(p, 800_000, 200_000_000);
    expect(table.read(p)).toMatchObject({
      shares: 0,
      avgPrice: 500_000,
      totalBought: 150_000_000,
      realizedPnl: 45_000_000,
      firstBuyTs: 100,
      conditionIndex: 2,
      outcomeIndex: 0,
    });
  });
});
