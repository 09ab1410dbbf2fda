/**
 * Builders for ledger tests and benchmarks: events in human units (shares, USD, prices 0..1),
 * converted to the ledger's micro-unit integers.
 */
import { loadConfig } from "../../config/index.js";
import type { LedgerConfig } from "../assess.js";
import type { EntryType, LedgerActivity, LedgerFill, MarketFacts, OutcomeIndex } from "../types.js";

export const micro = (units: number): number => Math.round(units * 1_000_000);

export const DAY = 86_400;
/** 2026-01-01T00:00:00Z. */
export const T0 = 1_767_225_600;

export const defaultLedgerConfig = (): LedgerConfig => {
  const { ledger, farmer, smart } = loadConfig({});
  return { ledger, farmer, smart };
};

export const tokenOf = (conditionId: string, outcome: OutcomeIndex) => `${conditionId}-${outcome === 0 ? "yes" : "no"}`;

export interface FillOptions {
  ts?: number;
  fee?: number;
  entryType?: EntryType | null;
}

export function trade(
  wallet: string,
  conditionId: string,
  outcome: OutcomeIndex,
  side: "BUY" | "SELL",
  shares: number,
  price: number,
  options: FillOptions = {},
): LedgerFill {
  return {
    kind: "fill",
    wallet,
    tokenId: tokenOf(conditionId, outcome),
    conditionId,
    outcomeIndex: outcome,
    side,
    size: micro(shares),
    usd: micro(shares * price),
    price,
    fee: micro(options.fee ?? 0),
    ts: options.ts ?? T0,
    entryType: options.entryType ?? "COMPLEMENTARY",
  };
}

export const buy = (
  wallet: string,
  conditionId: string,
  outcome: OutcomeIndex,
  shares: number,
  price: number,
  options?: FillOptions,
) => trade(wallet, conditionId, outcome, "BUY", shares, price, options);

export const sell = (
  wallet: string,
  conditionId: string,
  outcome: OutcomeIndex,
  shares: number,
  price: number,
  options?: FillOptions,
) => trade(wallet, conditionId, outcome, "SELL", shares, price, options);

export const split = (wallet: string, conditionId: string, amount: number, ts = T0): LedgerActivity => ({
  kind: "activity",
  type: "SPLIT",
  wallet,
  conditionId,
  amount: micro(amount),
  ts,
});

export const merge = (wallet: string, conditionId: string, amount: number, ts = T0): LedgerActivity => ({
  kind: "activity",
  type: "MERGE",
  wallet,
  conditionId,
  amount: micro(amount),
  ts,
});

export const redeem = (wallet: string, conditionId: string, payoutYes: number | null, ts = T0): LedgerActivity => ({
  kind: "activity",
  type: "REDEEM",
  wallet,
  conditionId,
  payoutYes,
  ts,
});

export const convert = (
  wallet: string,
  negRiskEventId: string,
  indexSet: number[],
  amount: number,
  fee = 0,
  ts = T0,
): LedgerActivity => ({
  kind: "activity",
  type: "CONVERSION",
  wallet,
  negRiskEventId,
  indexSet,
  amount: micro(amount),
  fee: micro(fee),
  ts,
});

export const reward = (wallet: string, usd: number, ts = T0): LedgerActivity => ({
  kind: "activity",
  type: "REWARD",
  wallet,
  usd: micro(usd),
  ts,
});

export function market(conditionId: string, facts: Partial<MarketFacts> = {}): MarketFacts {
  return {
    conditionId,
    yesTokenId: tokenOf(conditionId, 0),
    noTokenId: tokenOf(conditionId, 1),
    category: null,
    negRiskEventId: null,
    resolution: null,
    resolvedAt: null,
    priceYes: null,
    ...facts,
  };
}
