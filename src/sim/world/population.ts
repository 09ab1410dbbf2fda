/**
 * The wallets of the world, drawn from archetypes seen on the venue. Each wallet carries its archetype as
 * ground truth, plus the private traits that drive its behaviour (size, activity, how many markets it trades).
 */
import { ID_DOMAIN, address } from "./ids.js";
import { bio, handle, pseudonym } from "./names.js";
import type { Rng } from "./random.js";
import {
  ARCHETYPES,
  CATEGORIES,
  WALLET_ARCHETYPES,
  type Archetype,
  type PopulationArchetype,
  type ResolvedWorldOptions,
  type WorldWallet,
} from "./types.js";

const DAY = 86_400;

export interface ArchetypeProfile {
  /** Share of all wallets, and the least count (when the world has room for it). */
  share: number;
  min: number;
  /** Relative chance of being the taker of a match in a market the wallet follows. */
  takerWeight: number;
  /** Relative chance of being a resting maker order in such a market (0: never a maker). */
  makerWeight: number;
  /** Number of markets followed. */
  markets: [number, number];
  /** Typical trade size in USD (each wallet draws its own median log-uniformly in this range). */
  sizeUsd: [number, number];
  knowledge: [number, number];
  /** Chance of having a profile name. */
  named: number;
  /** Chance of ever redeeming a winning / a losing-only position. */
  redeemWin: number;
  redeemLose: number;
}

/** Market makers follow many markets and mostly rest orders; their small taker weight is for rebalancing only. */
export const PROFILES: Record<Archetype, ArchetypeProfile> = {
  retail: {
    share: 0,
    min: 0,
    takerWeight: 1,
    makerWeight: 0.6,
    markets: [1, 12],
    sizeUsd: [8, 80],
    knowledge: [0, 0],
    named: 0.25,
    redeemWin: 0.92,
    redeemLose: 0.3,
  },
  noise: {
    share: 0.15,
    min: 20,
    takerWeight: 1.6,
    makerWeight: 1,
    markets: [5, 40],
    sizeUsd: [30, 3000],
    knowledge: [0, 0],
    named: 0.35,
    redeemWin: 0.95,
    redeemLose: 0.4,
  },
  skilled: {
    share: 0.03,
    min: 20,
    takerWeight: 2.2,
    makerWeight: 0,
    markets: [70, 140],
    sizeUsd: [150, 3000],
    knowledge: [0.5, 0.8],
    named: 0.7,
    redeemWin: 0.98,
    redeemLose: 0.7,
  },
  favourite_farmer: {
    share: 0.02,
    min: 20,
    takerWeight: 3,
    makerWeight: 0,
    markets: [30, 90],
    sizeUsd: [300, 5000],
    knowledge: [0, 0],
    named: 0.5,
    redeemWin: 1,
    redeemLose: 0.8,
  },
  volume_bot: {
    share: 0.012,
    min: 20,
    takerWeight: 14,
    makerWeight: 3,
    markets: [25, 80],
    sizeUsd: [3, 12],
    knowledge: [0, 0],
    named: 0.4,
    redeemWin: 0.9,
    redeemLose: 0.5,
  },
  market_maker: {
    share: 0.01,
    min: 20,
    takerWeight: 0.15,
    makerWeight: 50,
    markets: [100, 200],
    sizeUsd: [200, 2000],
    knowledge: [0, 0],
    named: 0.6,
    redeemWin: 1,
    redeemLose: 0.9,
  },
  wash_trader: {
    share: 0.016,
    min: 20,
    takerWeight: 4,
    makerWeight: 0,
    markets: [6, 15],
    sizeUsd: [100, 1500],
    knowledge: [0, 0],
    named: 0.3,
    redeemWin: 0.9,
    redeemLose: 0.5,
  },
  whale: {
    share: 0.012,
    min: 20,
    takerWeight: 2.5,
    makerWeight: 0,
    markets: [12, 35],
    sizeUsd: [40_000, 150_000],
    knowledge: [0.3, 0.6],
    named: 0.7,
    redeemWin: 0.97,
    redeemLose: 0.8,
  },
  aligned_whale: {
    share: 0.01,
    min: 20,
    takerWeight: 1.8,
    makerWeight: 0,
    markets: [12, 25],
    sizeUsd: [25_000, 80_000],
    knowledge: [0.35, 0.6],
    named: 0.7,
    redeemWin: 0.97,
    redeemLose: 0.8,
  },
  negrisk_converter: {
    share: 0.012,
    min: 20,
    takerWeight: 2.5,
    makerWeight: 0,
    markets: [4, 10],
    sizeUsd: [300, 3000],
    knowledge: [0, 0],
    named: 0.4,
    redeemWin: 0.95,
    redeemLose: 0.6,
  },
  // The informed layer's fresh wallets (informed.ts): never drawn by the population, never in an audience (no
  // weights); they trade only their planned bet, and redeem as the profiles say.
  insider: informedProfile(0.97, 0.5),
  fresh_loser: informedProfile(0.9, 0.2),
  hub_funded_fresh: informedProfile(0.95, 0.3),
};

function informedProfile(redeemWin: number, redeemLose: number): ArchetypeProfile {
  return {
    share: 0,
    min: 0,
    takerWeight: 0,
    makerWeight: 0,
    markets: [0, 0],
    sizeUsd: [4_000, 40_000],
    knowledge: [0, 0],
    named: 0.2,
    redeemWin,
    redeemLose,
  };
}

/** The share of whales that reverse their side in some markets (`flipper`). */
const FLIPPER_CHANCE = 0.5;
/** A flipper's knowledge: FLIPPER_KNOWLEDGE_BASE + the profile's draw × FLIPPER_KNOWLEDGE_SCALE. */
const FLIPPER_KNOWLEDGE_BASE = 0.475;
const FLIPPER_KNOWLEDGE_SCALE = 0.75;

/** Private traits of the wallets (same index as `wallets`). */
export interface Population {
  wallets: WorldWallet[];
  archetypeCode: Uint8Array;
  sizeMedianUsd: Float64Array;
  marketCount: Int32Array;
  /** Two favourite categories per wallet (indexes into CATEGORIES). */
  favouriteCategories: Uint8Array;
  /** Whales that reverse their side in some markets. */
  flipper: Uint8Array;
  /** Members of each wash ring and of each aligned-whale group. */
  washRings: number[][];
  alignedGroups: number[][];
}

/** Archetype → its code in `Population.archetypeCode` (the index in WALLET_ARCHETYPES). */
export const ARCHETYPE_CODE: Readonly<Record<Archetype, number>> = Object.fromEntries(
  WALLET_ARCHETYPES.map((a, i) => [a, i]),
) as Record<Archetype, number>;

/** A lookup table by archetype code: 1 for the listed archetypes. */
export function archetypeMask(archetypes: readonly Archetype[]): Uint8Array {
  return Uint8Array.from(WALLET_ARCHETYPES, (a) => (archetypes.includes(a) ? 1 : 0));
}

/** How many wallets of each archetype a world of `total` wallets gets (before the informed layer takes its own). */
export function archetypeCounts(total: number): Record<PopulationArchetype, number> {
  const counts = {} as Record<PopulationArchetype, number>;
  let special = 0;
  for (const a of ARCHETYPES) {
    if (a === "retail") continue;
    const p = PROFILES[a];
    const grouped = a === "wash_trader" || a === "aligned_whale";
    const floor = Math.min(p.min, Math.max(grouped ? 3 : 1, Math.floor(total / 60)));
    counts[a] = Math.max(floor, Math.round(p.share * total));
    special += counts[a];
  }
  counts.retail = Math.max(0, total - special);
  return counts;
}

/** Splits `count` members into groups of 3..5. */
function groupSizes(rng: Rng, count: number): number[] {
  const sizes: number[] = [];
  let left = count;
  while (left > 0) {
    let size = left <= 5 ? left : rng.intBetween(3, 5);
    if (left - size > 0 && left - size < 3) size = left - 3 >= 3 ? left - 3 : left;
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

export function buildPopulation(o: ResolvedWorldOptions, key: readonly [number, number], rng: Rng): Population {
  const counts = archetypeCounts(o.wallets);
  const labels: { archetype: PopulationArchetype; group: number }[] = [];
  const ringSizes = groupSizes(rng, counts.wash_trader);
  const alignedSizes = groupSizes(rng, counts.aligned_whale);
  for (const a of ARCHETYPES) {
    if (a === "wash_trader")
      ringSizes.forEach((n, g) => {
        for (let i = 0; i < n; i++) labels.push({ archetype: a, group: g });
      });
    else if (a === "aligned_whale")
      alignedSizes.forEach((n, g) => {
        for (let i = 0; i < n; i++) labels.push({ archetype: a, group: g });
      });
    else for (let i = 0; i < counts[a]; i++) labels.push({ archetype: a, group: -1 });
  }
  rng.shuffle(labels);

  const n = labels.length;
  const pop: Population = {
    wallets: [],
    archetypeCode: new Uint8Array(n),
    sizeMedianUsd: new Float64Array(n),
    marketCount: new Int32Array(n),
    favouriteCategories: new Uint8Array(n * 2),
    flipper: new Uint8Array(n),
    washRings: ringSizes.map(() => []),
    alignedGroups: alignedSizes.map(() => []),
  };
  const names = new Set<string>();
  for (let i = 0; i < n; i++) {
    const { archetype, group } = labels[i]!;
    const p = PROFILES[archetype];
    const drawn = p.knowledge[1] > 0 ? rng.between(p.knowledge[0], p.knowledge[1]) : 0;
    const flipper = archetype === "whale" && rng.chance(FLIPPER_CHANCE);
    // A flipper backs the winner more often (0.3..0.6 maps to 0.7..0.925): it pays for the wrong first stands of
    // its reversals and still ends in profit, as the reversing whales worth following do (flipping whales, behaviour.ts).
    const knowledge = flipper ? FLIPPER_KNOWLEDGE_BASE + drawn * FLIPPER_KNOWLEDGE_SCALE : drawn;
    let name = "";
    if (rng.chance(p.named)) {
      name = handle(rng);
      while (names.has(name)) name = `${name}${rng.intBetween(0, 9)}`;
      names.add(name);
    }
    pop.wallets.push({
      index: i,
      proxyWallet: address(key, ID_DOMAIN.walletProxy, i),
      signer: address(key, ID_DOMAIN.walletSigner, i),
      name,
      pseudonym: pseudonym(rng),
      bio: name ? bio(rng) : "",
      profileImage:
        name && rng.chance(0.5)
          ? `https://polymarket-upload.s3.us-east-2.amazonaws.com/profile-image-${1_000_000 + i}.png`
          : "",
      archetype,
      group,
      knowledge,
      createdAt: Math.round(o.start - rng.between(1, 700) * DAY),
    });
    pop.archetypeCode[i] = ARCHETYPE_CODE[archetype];
    pop.sizeMedianUsd[i] = rng.logBetween(p.sizeUsd[0], p.sizeUsd[1] * 1.0001);
    const [lo, hi] = p.markets;
    pop.marketCount[i] = Math.max(
      1,
      Math.min(
        o.markets,
        archetype === "retail" ? Math.min(hi, 1 + Math.floor(rng.exponential(3))) : rng.intBetween(lo, hi),
      ),
    );
    const fav = rng.int(CATEGORIES.length);
    pop.favouriteCategories[i * 2] = fav;
    pop.favouriteCategories[i * 2 + 1] = rng.chance(0.5) ? fav : rng.int(CATEGORIES.length);
    pop.flipper[i] = flipper ? 1 : 0;
    if (archetype === "wash_trader") pop.washRings[group]!.push(i);
    if (archetype === "aligned_whale") pop.alignedGroups[group]!.push(i);
  }
  return pop;
}
