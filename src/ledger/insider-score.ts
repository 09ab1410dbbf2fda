/**
 * The insider score of a bet (issue 52; docs/METRICS.md, "Insider score"): how much one wallet's position in one
 * market outcome looks like money that knew the result. Seven components, each a number from 0 to 1 with a fixed
 * weight; the score is their weighted sum on 0..100, with a component that cannot be known yet (the outcome of an
 * open market) left out and the other weights scaled up. The weights are set so that a bet lacking any one of
 * freshness, a shared funder, or (once resolved) the right outcome stays under the default threshold of 80: those are
 * the three axes an insider's look-alikes miss (a late whale, a fresh wallet from an exchange, a fresh group that
 * lost).
 */

const HOUR = 3_600;
const DAY = 86_400;

export const INSIDER_COMPONENTS = [
  "freshness",
  "shared_funder",
  "outcome",
  "timing",
  "size",
  "odds",
  "concentration",
] as const;
export type InsiderComponent = (typeof INSIDER_COMPONENTS)[number];

export const INSIDER_WEIGHTS: Readonly<Record<InsiderComponent, number>> = {
  freshness: 0.25,
  shared_funder: 0.25,
  outcome: 0.25,
  timing: 0.1,
  size: 0.08,
  odds: 0.04,
  concentration: 0.03,
};

/** What is known of one bet: a wallet's position in one outcome of one market. */
export interface InsiderBet {
  /** Collateral the position bought, USD. */
  readonly betUsd: number;
  /** Its average entry price, 0..1. */
  readonly avgPrice: number;
  /** Its first and last fill, unix seconds. */
  readonly firstTs: number;
  readonly lastTs: number;
  /** When the wallet first showed: its first funding transfer, else its first trade (unix seconds). */
  readonly walletSince: number;
  /** Markets the wallet traded before this bet's first fill. */
  readonly marketsBefore: number;
  /** The wallet's collateral bought over all its positions, USD. */
  readonly walletBoughtUsd: number;
  /** The market's volume and liquidity, USD. */
  readonly marketVolumeUsd: number;
  readonly marketLiquidityUsd: number;
  /** When the market resolved, else when it is due to (null: unknown). */
  readonly marketEnd: number | null;
  /** Whether the backed outcome won: null while the market is open. */
  readonly won: boolean | null;
  /** Whether the wallet is in a funding cluster, and how many other members backed the same outcome. */
  readonly inCluster: boolean;
  readonly clusterBackers: number;
}

export interface ScoredComponent {
  readonly name: InsiderComponent;
  /** 0..1; null when it cannot be known yet (it then counts for nothing). */
  readonly value: number | null;
  readonly weight: number;
  /** What the value was computed from, in words and numbers. */
  readonly basis: string;
}

export interface InsiderScore {
  /** 0..100. */
  readonly score: number;
  /** 0..1: the posterior mean that the bet is informed (see `insiderConfidence`). */
  readonly confidence: number;
  readonly components: readonly ScoredComponent[];
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** Size share of the market's volume that counts fully. */
export const FULL_VOLUME_SHARE = 0.02;

export function insiderComponents(bet: InsiderBet): ScoredComponent[] {
  const ageDays = Math.max(0, bet.firstTs - bet.walletSince) / DAY;
  const hoursBefore = bet.marketEnd === null ? null : (bet.marketEnd - bet.lastTs) / HOUR;
  const volumeShare = bet.marketVolumeUsd > 0 ? bet.betUsd / bet.marketVolumeUsd : 1;
  const liquidityShare = bet.marketLiquidityUsd > 0 ? bet.betUsd / bet.marketLiquidityUsd : 0;
  const values: Record<InsiderComponent, [number | null, string]> = {
    // A first market, within days of the wallet's first funding: 1; each market before halves, then thirds, it.
    freshness: [
      (1 / (1 + bet.marketsBefore)) * clamp01(1 - (ageDays - 3) / 11),
      `${bet.marketsBefore} markets before, wallet ${ageDays.toFixed(1)} days old`,
    ],
    shared_funder: [
      bet.clusterBackers > 0 ? 1 : bet.inCluster ? 0.5 : 0,
      bet.inCluster
        ? `in a funding cluster; ${bet.clusterBackers} other members backed this outcome`
        : "no shared funder",
    ],
    outcome: [bet.won === null ? null : bet.won ? 1 : 0, bet.won === null ? "market open" : bet.won ? "won" : "lost"],
    timing: [
      hoursBefore === null ? 0 : clamp01(1 - (hoursBefore - 24) / 144),
      hoursBefore === null ? "market end unknown" : `last fill ${hoursBefore.toFixed(1)} h before the market's end`,
    ],
    size: [
      clamp01(Math.max(volumeShare / FULL_VOLUME_SHARE, liquidityShare)),
      `${(100 * volumeShare).toFixed(2)}% of the market's volume, ${(100 * liquidityShare).toFixed(1)}% of its liquidity`,
    ],
    odds: [clamp01((0.8 - bet.avgPrice) / 0.5), `bought at ${bet.avgPrice.toFixed(3)} on average`],
    concentration: [
      bet.walletBoughtUsd > 0 ? clamp01(bet.betUsd / bet.walletBoughtUsd) : 1,
      `${bet.walletBoughtUsd > 0 ? ((100 * bet.betUsd) / bet.walletBoughtUsd).toFixed(0) : 100}% of what the wallet ever bought`,
    ],
  };
  return INSIDER_COMPONENTS.map((name) => ({
    name,
    value: values[name][0],
    weight: INSIDER_WEIGHTS[name],
    basis: values[name][1],
  }));
}

/**
 * How sure the score is, for a wallet that showed one bet: a Beta(1, 1) prior on the chance that the bet is informed,
 * updated with what corroborates or contradicts it beyond the bet itself: each other member of its funding cluster
 * that backed the same outcome is one success, the resolution one success (won) or one failure (lost). The posterior
 * mean is (1 + successes) / (2 + successes + failures): 0.5 for a lone wallet's open bet, whatever its score.
 */
export function insiderConfidence(bet: Pick<InsiderBet, "clusterBackers" | "won">): number {
  const successes = bet.clusterBackers + (bet.won === true ? 1 : 0);
  const failures = bet.won === false ? 1 : 0;
  return (1 + successes) / (2 + successes + failures);
}

/**
 * The score a whole count of hundredths of a point is: the scorer rounds its weighted sum to such a count, and the
 * store keeps a score as its count, refusing any other (src/store/insider-score-hundredths.ts).
 */
export function scoreOfHundredths(hundredths: number): number {
  return hundredths / 100;
}

export function insiderScore(bet: InsiderBet): InsiderScore {
  const components = insiderComponents(bet);
  const known = components.filter((c) => c.value !== null);
  const weight = known.reduce((s, c) => s + c.weight, 0);
  const sum = known.reduce((s, c) => s + c.weight * c.value!, 0);
  return {
    score: weight > 0 ? scoreOfHundredths(Math.round((10_000 * sum) / weight)) : 0,
    confidence: Math.round(10_000 * insiderConfidence(bet)) / 10_000,
    components,
  };
}

/** The facts of a bet stored beside its own figures (betUsd, avgPrice, firstTs, lastTs), in their stored order. */
const STORED_FACTS = [
  "walletSince",
  "marketsBefore",
  "walletBoughtUsd",
  "marketVolumeUsd",
  "marketLiquidityUsd",
  "marketEnd",
  "won",
  "inCluster",
  "clusterBackers",
] as const;

type OwnFigures = Pick<InsiderBet, "betUsd" | "avgPrice" | "firstTs" | "lastTs">;

/**
 * The facts of a bet beyond its own figures as a short JSON array (about 60 bytes, where its components in words
 * take 640): what `insider_scores` keeps, the components computed again on read. Money to the cent.
 */
export function encodeInsiderFacts(bet: InsiderBet): string {
  return JSON.stringify(
    STORED_FACTS.map((name) => {
      const value = bet[name];
      if (typeof value === "boolean") return value ? 1 : 0;
      return name.endsWith("Usd") && value !== null ? Math.round(value * 100) / 100 : value;
    }),
  );
}

/** The bet again, from its own figures and its encoded facts. */
export function decodeInsiderFacts(own: OwnFigures, facts: string): InsiderBet {
  const v = JSON.parse(facts) as (number | null)[];
  const at = (name: (typeof STORED_FACTS)[number]) => v[STORED_FACTS.indexOf(name)] ?? null;
  return {
    ...own,
    walletSince: Number(at("walletSince")),
    marketsBefore: Number(at("marketsBefore")),
    walletBoughtUsd: Number(at("walletBoughtUsd")),
    marketVolumeUsd: Number(at("marketVolumeUsd")),
    marketLiquidityUsd: Number(at("marketLiquidityUsd")),
    marketEnd: at("marketEnd"),
    won: at("won") === null ? null : at("won") === 1,
    inCluster: at("inCluster") === 1,
    clusterBackers: Number(at("clusterBackers")),
  };
}
