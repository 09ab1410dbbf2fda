import { describe, expect, it } from "vitest";
import { CONTRACTS } from "../../venue/contracts.js";
import { V2_CUTOVER_TS, blockAt, blockTimestamp } from "./chain.js";
import { generateWorld, resolveWorldOptions } from "./generate.js";
import { formatWorldStats, worldStats } from "./stats.js";
import { TEST_END, smallWorld } from "./testing/worlds.js";
import { ARCHETYPES } from "./types.js";
import { worldDigest } from "./world.js";

describe("generateWorld", () => {
  it("gives an identical world for the same options and another world for another seed", () => {
    const a = smallWorld(42);
    const b = smallWorld(42);
    expect(worldDigest(a)).toBe(worldDigest(b));
    expect(JSON.stringify(a.fill(1234))).toBe(JSON.stringify(b.fill(1234)));
    expect(a.txHashOfMatch(77)).toBe(b.txHashOfMatch(77));
    expect(worldDigest(smallWorld(43))).not.toBe(worldDigest(a));
    expect(worldDigest(smallWorld("42"))).not.toBe(worldDigest(a));
  });

  it("holds the requested number of fills and stays inside its window", () => {
    const w = smallWorld(7);
    expect(w.fillCount).toBeGreaterThanOrEqual(12_000 - 1);
    expect(w.fillCount).toBeLessThanOrEqual(12_000);
    expect(w.end).toBe(TEST_END);
    expect(w.start).toBe(TEST_END - 60 * 86_400);
    expect(w.tables.matchTs[0]).toBeGreaterThanOrEqual(w.start);
    expect(w.tables.lastTs).toBeLessThan(w.end);
  });

  it("rejects options it cannot honour", () => {
    expect(() => resolveWorldOptions({ seed: 1, end: 1.5 })).toThrow(/end/);
    expect(() => resolveWorldOptions({ seed: 1, end: TEST_END, markets: 0 })).toThrow(/markets/);
    expect(() => resolveWorldOptions({ seed: 1.5, end: TEST_END })).toThrow(/seed/);
    expect(resolveWorldOptions({ seed: "demo", end: TEST_END })).toMatchObject({
      markets: 500,
      wallets: 5_000,
      fills: 150_000,
      days: 90,
    });
  });

  it("settles on V1 exchanges before the cutover and V2 after, per negRisk", () => {
    const w = smallWorld(3);
    let v1 = 0;
    let v2 = 0;
    for (let j = 0; j < w.matchCount; j += 7) {
      const m = w.match(j);
      const negRisk = w.markets[m.market]!.negRisk;
      const expected =
        m.ts < V2_CUTOVER_TS
          ? negRisk
            ? CONTRACTS.negRiskCtfExchangeV1
            : CONTRACTS.ctfExchangeV1
          : negRisk
            ? CONTRACTS.negRiskCtfExchangeV2
            : CONTRACTS.ctfExchangeV2;
      expect(w.exchangeOfMatch(j)).toBe(expected);
      expect(m.exchangeVersion).toBe(m.ts < V2_CUTOVER_TS ? 1 : 2);
      expect(blockTimestamp(m.block)).toBe(m.ts);
      expect(blockAt(m.ts)).toBe(m.block);
      if (m.exchangeVersion === 1) v1++;
      else v2++;
    }
    expect(v1).toBeGreaterThan(0);
    expect(v2).toBeGreaterThan(0);
  });

  it("uses the venue's identifier formats", () => {
    const w = smallWorld(5);
    const slugs = new Set<string>();
    for (const m of w.markets) {
      expect(m.id).toMatch(/^\d+$/);
      expect(m.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(m.yesTokenId).toMatch(/^\d{1,78}$/);
      expect(BigInt(m.noTokenId) < 2n ** 256n).toBe(true);
      expect(m.startDate).toBeLessThan(m.endDate + 1);
      expect(m.tradingStop).toBeLessThanOrEqual(m.endDate);
      expect(slugs.has(m.slug)).toBe(false);
      slugs.add(m.slug);
      if (m.negRisk)
        expect(m.questionId).toBe(
          `${m.negRiskMarketId!.slice(0, 64)}${m.negRiskQuestionIndex!.toString(16).padStart(2, "0")}`,
        );
    }
    for (const wallet of w.wallets) {
      expect(wallet.proxyWallet).toMatch(/^0x[0-9a-f]{40}$/);
      expect(wallet.signer).toMatch(/^0x[0-9a-f]{40}$/);
      expect(wallet.pseudonym).toMatch(/^[A-Z][a-z]+-[A-Z][a-z]+$/);
      expect(w.walletIndex(wallet.proxyWallet.toUpperCase().replace("0X", "0x"))).toBe(wallet.index);
    }
    expect(new Set(w.wallets.map((x) => x.proxyWallet)).size).toBe(w.wallets.length);
    expect(w.txHashOfMatch(0)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(w.txHashOfOp(0)).not.toBe(w.txHashOfMatch(0));
    expect(w.tokenIndex(w.markets[3]!.noTokenId)).toBe(7);
    expect(w.marketIndexByCondition(w.markets[3]!.conditionId)).toBe(3);
  });

  it("resolves every NegRisk event to exactly one YES, and charges the category's fee", () => {
    const w = smallWorld(11, { markets: 120 });
    const rates = { CRYPTO: 0.07, POLITICS: 0.04, TECH: 0.04, ECONOMICS: 0.05, GEOPOLITICS: 0 } as Record<
      string,
      number
    >;
    for (const e of w.events) {
      const ms = e.marketIndexes.map((i) => w.markets[i]!);
      if (e.negRisk && ms.every((m) => m.status === "resolved"))
        expect(ms.filter((m) => m.resolution === "YES")).toHaveLength(1);
      if (e.negRisk) expect(ms.filter((m) => m.truth === 0)).toHaveLength(1);
      for (const m of ms) if (m.category in rates) expect(m.fee.rate).toBe(rates[m.category]);
    }
  });

  it("lists territory markets with the venue's slug families", () => {
    const w = smallWorld(2, { markets: 120 });
    const territory = w.markets.filter((m) => m.territory);
    expect(territory.length).toBeGreaterThanOrEqual(8);
    for (const m of territory) {
      expect(m.category).toBe("GEOPOLITICS");
      expect(m.tags.map((t) => t.slug)).toContain("ukraine-map");
      expect(m.slug).toMatch(/^will-russia-(capture|capture-all-of|enter)-[a-z-]+-by-[a-z]+-\d+$/);
    }
    const slugs = territory.map((m) => m.slug).join(" ");
    expect(slugs).toMatch(/will-russia-capture-all-of-chasiv-yar-by-/);
    expect(slugs).toMatch(/will-russia-capture-orikhiv-by-/);
    expect(slugs).toMatch(/will-russia-enter-[a-z-]+-by-/);
  });

  it("has every archetype at the default size, at least 20 of each", () => {
    const w = generateWorld({ seed: 1, end: TEST_END, fills: 3_000, days: 30 });
    const stats = worldStats(w);
    expect(stats.wallets).toBe(5_000);
    expect(stats.markets).toBe(500);
    for (const a of ARCHETYPES) expect(stats.archetypes[a], a).toBeGreaterThanOrEqual(20);
    expect(stats.washRings).toBeGreaterThanOrEqual(4);
    expect(stats.alignedGroups).toBeGreaterThanOrEqual(4);
  });

  it("reports its make-up", () => {
    const w = smallWorld(8, { markets: 100, wallets: 800, fills: 20_000 });
    const s = worldStats(w);
    expect(s.fills).toBe(w.fillCount);
    expect(s.fillShareByType.MINT).toBeGreaterThan(0.65);
    expect(s.fillShareByType.MINT).toBeLessThan(0.9);
    expect(s.fillShareByType.MINT + s.fillShareByType.MERGE + s.fillShareByType.COMPLEMENTARY).toBeCloseTo(1, 9);
    expect(s.negRiskShare).toBeGreaterThan(0.2);
    expect(s.marketsByStatus.resolved + s.marketsByStatus.open + s.marketsByStatus.pending).toBe(100);
    expect(s.v1Fills + s.v2Fills).toBe(s.fills);
    expect(s.ops.REDEEM).toBeGreaterThan(0);
    expect(s.ops.CONVERSION).toBeGreaterThan(0);
    const text = formatWorldStats(s);
    expect(text).toMatch(/MINT \d+\.\d%/);
    expect(text).toMatch(/market_maker/);
  });
});
