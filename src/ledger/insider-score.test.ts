import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scoreHundredths } from "../store/insider-score-hundredths.js";
import {
  decodeInsiderFacts,
  encodeInsiderFacts,
  insiderScore,
  scoreOfHundredths,
  type InsiderBet,
} from "./insider-score.js";

const T = 1_780_000_000;
const HOUR = 3_600;

/** A fresh wallet's bet, a day after its first funding, backed by two members of its cluster, 12 h before the end. */
const INSIDER: InsiderBet = {
  betUsd: 10_000,
  avgPrice: 0.3,
  firstTs: T,
  lastTs: T + 600,
  walletSince: T - 24 * HOUR,
  marketsBefore: 0,
  walletBoughtUsd: 10_000,
  marketVolumeUsd: 200_000,
  marketLiquidityUsd: 50_000,
  marketEnd: T + 600 + 12 * HOUR,
  won: true,
  inCluster: true,
  clusterBackers: 2,
};

const componentValue = (bet: InsiderBet, name: string) =>
  insiderScore(bet).components.find((c) => c.name === name)!.value;

describe("insider score", () => {
  it("scores a fresh, funded, late, long-odds, winning bet backed by its cluster 100, with confidence 4/5", () => {
    const scored = insiderScore(INSIDER);
    expect(scored.score).toBe(100);
    expect(scored.confidence).toBe(0.8);
    expect(scored.components.map((c) => [c.name, c.value, c.weight])).toEqual([
      ["freshness", 1, 0.25],
      ["shared_funder", 1, 0.25],
      ["outcome", 1, 0.25],
      ["timing", 1, 0.1],
      ["size", 1, 0.08],
      ["odds", 1, 0.04],
      ["concentration", 1, 0.03],
    ]);
  });

  it("scores a late whale's winning bet as the weights say (hand-computed: 39.39)", () => {
    const whale: InsiderBet = {
      ...INSIDER,
      walletSince: T - 200 * 24 * HOUR,
      marketsBefore: 9,
      walletBoughtUsd: 500_000,
      marketVolumeUsd: 1_000_000,
      marketLiquidityUsd: 100_000,
      avgPrice: 0.55,
      marketEnd: INSIDER.lastTs + 48 * HOUR,
      inCluster: false,
      clusterBackers: 0,
    };
    // 0.25·0 + 0.25·0 + 0.25·1 + 0.10·(1 − 24/144) + 0.08·0.5 + 0.04·0.5 + 0.03·0.02
    expect(insiderScore(whale).score).toBe(39.39);
    expect(componentValue(whale, "timing")).toBeCloseTo(5 / 6, 12);
    expect(insiderScore(whale).confidence).toBeCloseTo(2 / 3, 4);
  });

  it("leaves an open market's outcome out: the other weights count for the rest", () => {
    const open = { ...INSIDER, won: null };
    expect(componentValue(open, "outcome")).toBeNull();
    expect(insiderScore(open).score).toBe(100);
    expect(insiderScore(open).confidence).toBe(0.75);
    expect(insiderScore({ ...open, clusterBackers: 0, inCluster: false }).confidence).toBe(0.5);
  });

  it("keeps a bet that misses freshness, a shared funder or the right outcome at 75 or less", () => {
    const perfect = fc.record({ betUsd: fc.double({ min: 1_000, max: 1e6, noNaN: true }) });
    fc.assert(
      fc.property(perfect, fc.constantFrom("fresh", "funder", "outcome"), ({ betUsd }, missing) => {
        const bet: InsiderBet = {
          ...INSIDER,
          betUsd,
          walletBoughtUsd: betUsd,
          ...(missing === "fresh" ? { marketsBefore: 20, walletSince: T - 90 * 24 * HOUR } : {}),
          ...(missing === "funder" ? { inCluster: false, clusterBackers: 0 } : {}),
          ...(missing === "outcome" ? { won: false } : {}),
        };
        expect(insiderScore(bet).score).toBeLessThanOrEqual(75);
      }),
    );
  });

  it("stays within 0..100, in hundredths the store keeps, and its confidence within (0, 1)", () => {
    const bet = fc.record({
      betUsd: fc.double({ min: 0, max: 1e7, noNaN: true }),
      avgPrice: fc.double({ min: 0, max: 1, noNaN: true }),
      marketsBefore: fc.nat(500),
      ageDays: fc.double({ min: 0, max: 1_000, noNaN: true }),
      hoursBefore: fc.option(fc.double({ min: -100, max: 10_000, noNaN: true })),
      won: fc.option(fc.boolean()),
      clusterBackers: fc.nat(50),
    });
    fc.assert(
      fc.property(bet, (b) => {
        const scored = insiderScore({
          ...INSIDER,
          betUsd: b.betUsd,
          avgPrice: b.avgPrice,
          marketsBefore: b.marketsBefore,
          walletSince: T - b.ageDays * 24 * HOUR,
          marketEnd: b.hoursBefore === null ? null : INSIDER.lastTs + b.hoursBefore * HOUR,
          won: b.won,
          inCluster: b.clusterBackers > 0,
          clusterBackers: b.clusterBackers,
        });
        expect(scored.score).toBeGreaterThanOrEqual(0);
        expect(scored.score).toBeLessThanOrEqual(100);
        expect(scoreOfHundredths(scoreHundredths(scored.score))).toBe(scored.score);
        expect(scored.confidence).toBeGreaterThan(0);
        expect(scored.confidence).toBeLessThan(1);
      }),
    );
  });

  it("keeps a bet's facts in a short array that gives the bet back, money to the cent", () => {
    const stored = encodeInsiderFacts({ ...INSIDER, walletBoughtUsd: 10_000.004, marketEnd: null, won: null });
    expect(stored).toBe(`[${T - 24 * HOUR},0,10000,200000,50000,null,null,1,2]`);
    const own = {
      betUsd: INSIDER.betUsd,
      avgPrice: INSIDER.avgPrice,
      firstTs: INSIDER.firstTs,
      lastTs: INSIDER.lastTs,
    };
    expect(decodeInsiderFacts(own, stored)).toEqual({ ...INSIDER, marketEnd: null, won: null });
    fc.assert(
      fc.property(
        fc.record({
          betUsd: fc.double({ min: 1, max: 1e7, noNaN: true }),
          walletBoughtUsd: fc.double({ min: 1, max: 1e8, noNaN: true }),
          marketsBefore: fc.nat(50),
          won: fc.constantFrom(true, false, null),
          inCluster: fc.boolean(),
          clusterBackers: fc.nat(5),
        }),
        (drawn) => {
          const bet = { ...INSIDER, ...drawn };
          const back = decodeInsiderFacts(bet, encodeInsiderFacts(bet));
          expect({ ...back, walletBoughtUsd: 0 }).toEqual({ ...bet, walletBoughtUsd: 0 });
          expect(Math.abs(back.walletBoughtUsd - bet.walletBoughtUsd)).toBeLessThanOrEqual(0.005 + 1e-9);
        },
      ),
    );
  });
});
