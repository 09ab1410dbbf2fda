/**
 * The farmer test of docs/METRICS.md: four archetypes whose win rate or P&L says nothing about
 * forecasting skill. The verdict names the test that caught the wallet.
 */
import type { Config } from "../config/index.js";
import { MICRO } from "../venue/units.js";
import type { WalletSummary } from "./summary.js";
import type { Direction } from "./types.js";

export const FARMER_TESTS = [
  "favourite_farming",
  "reward_volume_farming",
  "two_sided_farming",
  "wash_trading",
] as const;
export type FarmerTest = (typeof FARMER_TESTS)[number];

export interface FarmerMetrics {
  /** Volume-weighted average buy price 0..1; null without buys. */
  readonly avgBuyPrice: number | null;
  readonly fills: number;
  readonly avgFillUsd: number;
  /** Rewards and rebates, USD. */
  readonly incomeUsd: number;
  /** The ledger's settled net P&L plus unrealized, USD. */
  readonly tradingPnlUsd: number;
  readonly volumeUsd: number;
  /**
   * Markets the wallet held shares in, and the share of them held on both YES and NO at once in balance: at some
   * moment the smaller side held at least FARMER_TWO_SIDED_MIN_BALANCE of the larger side's shares.
   */
  readonly marketsHeld: number;
  readonly bothSidesMarketShare: number;
  /**
   * Share of volume settled by MINT or MERGE matches. Not a farmer measure (most buys settle as MINT, whoever is
   * on the other side); kept to compare with the rule it replaced (bench/derive.bench.ts).
   */
  readonly mintMergeVolumeShare: number;
  /** The wallet's own splits and merges (collateral into both outcomes and back), as a share of its fill volume. */
  readonly splitMergeVolumeShare: number;
  /** Share of volume round-tripped with the small ring of counterparties; null when counterparties are unknown. */
  readonly washRingVolumeShare: number | null;
}

export interface FarmerVerdict {
  readonly isFarmer: boolean;
  /** The first test failed, in docs/METRICS.md's order; null for a non-farmer. */
  readonly test: FarmerTest | null;
  readonly failed: readonly FarmerTest[];
  /** One readable line per failed test, with the figures that failed it. */
  readonly reasons: readonly string[];
}

export function farmerMetrics(
  summary: WalletSummary,
  cfg: Pick<Config["farmer"], "twoSidedMinBalance">,
  washRingVolumeShare: number | null = null,
): FarmerMetrics {
  const volumeUsd = summary.volume / MICRO;
  const bothSides = summary.marketHedges.filter((hedge) => hedge > 0 && hedge >= cfg.twoSidedMinBalance).length;
  return {
    avgBuyPrice: summary.buyShares > 0 ? summary.buyUsd / summary.buyShares : null,
    fills: summary.trades,
    avgFillUsd: summary.trades > 0 ? volumeUsd / summary.trades : 0,
    incomeUsd: summary.income / MICRO,
    tradingPnlUsd: summary.realizedNet / MICRO + summary.unrealizedUsd,
    volumeUsd,
    marketsHeld: summary.marketsHeld,
    bothSidesMarketShare: summary.marketsHeld > 0 ? bothSides / summary.marketsHeld : 0,
    mintMergeVolumeShare: summary.volume > 0 ? summary.mintMergeUsd / summary.volume : 0,
    splitMergeVolumeShare: summary.volume > 0 ? summary.splitMergeUsd / summary.volume : 0,
    washRingVolumeShare,
  };
}

export function checkFarmer(m: FarmerMetrics, cfg: Config["farmer"]): FarmerVerdict {
  const failed: FarmerTest[] = [];
  const reasons: string[] = [];
  const fail = (test: FarmerTest, reason: string) => {
    if (!failed.includes(test)) failed.push(test);
    reasons.push(reason);
  };

  if (m.avgBuyPrice !== null && m.avgBuyPrice > cfg.favouriteMinAvgBuyPrice) {
    fail("favourite_farming", `average buy price ${round(m.avgBuyPrice, 4)} > ${cfg.favouriteMinAvgBuyPrice}`);
  }
  if (m.fills > cfg.botMinFills && m.avgFillUsd < cfg.botMaxAvgFillUsd) {
    fail("reward_volume_farming", `${m.fills} fills averaging ${round(m.avgFillUsd, 2)} USD`);
  }
  // Income beyond the trading P&L in either direction: a loser's small rebate does not make it a farmer,
  // a market maker whose rewards exceed its trading loss does.
  if (m.incomeUsd > 0 && m.incomeUsd > Math.abs(m.tradingPnlUsd)) {
    fail(
      "reward_volume_farming",
      `rewards and rebates ${round(m.incomeUsd, 2)} USD > |trading P&L| ${round(Math.abs(m.tradingPnlUsd), 2)} USD`,
    );
  }
  // Both two-sided measures need a sample: one hedged market, or a few trades netting near zero, are not farming.
  const twoSidedSample = m.marketsHeld >= cfg.twoSidedMinMarkets;
  if (twoSidedSample && m.bothSidesMarketShare >= cfg.twoSidedMarketShare) {
    fail(
      "two_sided_farming",
      `${round(100 * m.bothSidesMarketShare, 1)}% of ${m.marketsHeld} markets held on both sides in balance`,
    );
  }
  // The wallet's own splits and merges: fills that merely settled as MINT or MERGE say nothing (most buys do).
  if (
    twoSidedSample &&
    m.splitMergeVolumeShare > cfg.splitMergeVolumeShare &&
    Math.abs(m.tradingPnlUsd) < cfg.nearZeroPnlShare * m.volumeUsd
  ) {
    fail(
      "two_sided_farming",
      `own splits and merges ${round(100 * m.splitMergeVolumeShare, 1)}% of volume with P&L ${round(m.tradingPnlUsd, 2)} USD`,
    );
  }
  if (m.washRingVolumeShare !== null && m.washRingVolumeShare >= cfg.washRingVolumeShare) {
    fail(
      "wash_trading",
      `${round(100 * m.washRingVolumeShare, 1)}% of volume round-tripped with a ring of counterparties`,
    );
  }
  return { isFarmer: failed.length > 0, test: failed[0] ?? null, failed, reasons };
}

/** A fill with its counterparty (the `fills` table's `counterparty`), micro-units. */
export interface CounterpartyFill {
  readonly counterparty: string | null;
  readonly tokenId: string;
  readonly side: Direction;
  readonly size: number;
  readonly usd: number;
}

export interface WashRing {
  /** Share of the wallet's volume that went back and forth with the ring, leaving no net position. */
  readonly share: number;
  readonly counterparties: readonly string[];
}

/**
 * The wash-trading measure: per counterparty and token, the part of the wallet's trading that nets to
 * zero (the smaller of shares bought from and sold to it, valued at both legs' average prices); the
 * ring is the few counterparties with most of it.
 */
export function washRing(
  fills: Iterable<CounterpartyFill>,
  totalVolume: number,
  cfg: Pick<Config["farmer"], "washRingMaxCounterparties">,
): WashRing {
  const ring = offsettingRing(fills, cfg);
  return { share: washShare(ring.volume, totalVolume), counterparties: ring.counterparties };
}

/** The ring's share of a wallet's volume, from the volume it round-tripped (`offsettingRing`). */
export function washShare(ringVolume: number, totalVolume: number): number {
  return totalVolume > 0 ? ringVolume / totalVolume : 0;
}

/** The ring of `washRing` and the volume it round-tripped, which does not depend on the wallet's volume. */
export function offsettingRing(
  fills: Iterable<CounterpartyFill>,
  cfg: Pick<Config["farmer"], "washRingMaxCounterparties">,
): { volume: number; counterparties: string[] } {
  const legs = new Map<string, Map<string, { bought: number; boughtUsd: number; sold: number; soldUsd: number }>>();
  for (const fill of fills) {
    if (!fill.counterparty || fill.size <= 0) continue;
    let byToken = legs.get(fill.counterparty);
    if (!byToken) legs.set(fill.counterparty, (byToken = new Map()));
    let leg = byToken.get(fill.tokenId);
    if (!leg) byToken.set(fill.tokenId, (leg = { bought: 0, boughtUsd: 0, sold: 0, soldUsd: 0 }));
    if (fill.side === "BUY") {
      leg.bought += fill.size;
      leg.boughtUsd += fill.usd;
    } else {
      leg.sold += fill.size;
      leg.soldUsd += fill.usd;
    }
  }
  const offsetting: Array<[string, number]> = [];
  for (const [counterparty, byToken] of legs) {
    let volume = 0;
    for (const leg of byToken.values()) {
      const matched = Math.min(leg.bought, leg.sold);
      if (matched > 0) volume += matched * (leg.boughtUsd / leg.bought + leg.soldUsd / leg.sold);
    }
    if (volume > 0) offsetting.push([counterparty, volume]);
  }
  offsetting.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const ring = offsetting.slice(0, cfg.washRingMaxCounterparties);
  return { volume: ring.reduce((sum, [, volume]) => sum + volume, 0), counterparties: ring.map(([c]) => c) };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
