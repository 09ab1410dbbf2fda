import { describe, expect, it } from "vitest";
import { settlementTypeOf, type SettlementRow } from "./settlement-type.js";

const YES = "111";
const NO = "222";
const row = (tokenId: string, side: "BUY" | "SELL", shares: number, conditionId = "0xc1"): SettlementRow => ({
  conditionId,
  tokenId,
  side,
  size: shares * 1e6,
});

describe("settlementTypeOf", () => {
  it("labels a mint: two BUY rows of one size on both outcomes (NO at 0.03, YES at 0.97)", () => {
    expect(settlementTypeOf([row(NO, "BUY", 100), row(YES, "BUY", 100)])).toBe("MINT");
  });

  it("labels a mint whose taker meets several makers", () => {
    expect(settlementTypeOf([row(YES, "BUY", 100), row(NO, "BUY", 30), row(NO, "BUY", 70)])).toBe("MINT");
  });

  it("labels a merge: SELL rows balancing on both outcomes", () => {
    expect(settlementTypeOf([row(YES, "SELL", 50), row(NO, "SELL", 20), row(NO, "SELL", 30)])).toBe("MERGE");
  });

  it("labels a complementary match: one token from sellers to a buyer", () => {
    expect(settlementTypeOf([row(YES, "BUY", 40), row(YES, "SELL", 25), row(YES, "SELL", 15)])).toBe("COMPLEMENTARY");
  });

  it("labels a transaction holding a complementary component COMPLEMENTARY, whatever else it holds", () => {
    // A taker buying 100 YES from a seller (60) and against a NO buyer (40, minted).
    expect(settlementTypeOf([row(YES, "BUY", 100), row(YES, "SELL", 60), row(NO, "BUY", 40)])).toBe("COMPLEMENTARY");
  });

  it("gives no label to a lone fill", () => {
    expect(settlementTypeOf([row(YES, "BUY", 100)])).toBeNull();
  });

  it("gives no label when rows are missing: nothing balances", () => {
    expect(settlementTypeOf([row(YES, "BUY", 100), row(NO, "BUY", 30)])).toBeNull();
    expect(settlementTypeOf([row(YES, "BUY", 40), row(YES, "SELL", 25)])).toBeNull();
    expect(settlementTypeOf([row(NO, "BUY", 30), row(NO, "BUY", 70)])).toBeNull();
  });

  it("gives no label to a complex batch: two markets in one transaction", () => {
    expect(
      settlementTypeOf([
        row(YES, "BUY", 10),
        row(NO, "BUY", 10),
        row("333", "BUY", 5, "0xc2"),
        row("444", "BUY", 5, "0xc2"),
      ]),
    ).toBeNull();
  });

  it("absorbs a micro-unit of rounding per row", () => {
    expect(settlementTypeOf([{ ...row(YES, "BUY", 1), size: 1_000_001 }, row(NO, "BUY", 1)])).toBe("MINT");
  });
});
