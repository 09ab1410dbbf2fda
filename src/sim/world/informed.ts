/**
 * The informed layer (issue 52): insiders and their decoys, planted as ground truth for informed-flow signals, from
 * a random stream of its own so that the rest of the world moves as little as possible. Planned before the
 * audiences are built (its fresh wallets are in none); informed-trading.ts places the bets in the history.
 *
 * - insider: a fresh wallet (a retail wallet of the population turned, with no history), funded shortly before its
 *   bet by a funder it shares with the rest of its group, directly or through one or two hop accounts; it bets large
 *   on the outcome its market resolves to, hours before trading stops (within a day of the resolution), often at
 *   long odds.
 * A decoy looks like an insider on every axis but one:
 * - fresh_loser: a group like the insiders' that bets on the outcome that loses (the axis: the outcome);
 * - late_whale: an established whale of the population (funded long ago, with a second whale wallet, by one owner's
 *   account; trading for months) making such a bet (the axis: a history);
 * - hub_funded_fresh: a fresh wallet funded straight from an exchange hot wallet shared by thousands (the axis: a
 *   funder of its own).
 */
import type { Catalog } from "./catalog.js";
import { alignUp } from "./chain.js";
import { dollars, pickHub, type FundingLedger, type OwnedWallets } from "./funding.js";
import { ARCHETYPE_CODE, type Population } from "./population.js";
import type { Rng } from "./random.js";
import type { InformedKind, ResolvedWorldOptions, WorldMarket } from "./types.js";

const HOUR = 3_600;
const DAY = 86_400;

/** Insider groups per wallet of the world (at least MIN_GROUPS). */
const WALLETS_PER_GROUP = 700;
const MIN_GROUPS = 3;
/** A bet goes in this many hours before trading stops (the market resolves 1 to 30 hours after: catalog.ts). */
const BET_HOURS: [number, number] = [0.25, 8];
/** A fresh wallet is funded this many hours before its bet. */
const FUNDED_HOURS_BEFORE: [number, number] = [1, 36];
/**
 * The backed outcome's price a few hours before trading stops: between the bounds (a penny ticket cannot take a
 * large bet, a sure thing is no bet), at or below LONG_ODDS for most informed groups.
 */
const PRICE_BOUNDS: [number, number] = [0.08, 0.9];
export const LONG_ODDS = 0.35;
const LONG_ODDS_CHANCE = 0.7;
/** A fresh wallet's bet, USD. */
const FRESH_BET_USD: [number, number] = [4_000, 40_000];

export interface InformedBet {
  readonly wallet: number;
  readonly kind: InformedKind;
  readonly market: number;
  readonly outcome: 0 | 1;
  /** The bet's first order; the rest follow within minutes (informed-trading.ts). */
  readonly ts: number;
  readonly targetUsd: number;
  /** A fresh wallet's funding group (FundingGroup.index), or -1 (a late whale's is made with its funding). */
  readonly group: number;
  /** When a fresh wallet received the collateral it bets; -1 for a late whale. */
  readonly fundedAt: number;
}

export class InformedPlan {
  /** What each bet came to (informed-trading.ts): collateral spent and shares bought (micro), first and last fill. */
  readonly spentMicro: Float64Array;
  readonly shares: Float64Array;
  readonly firstTs: Uint32Array;
  readonly lastTs: Uint32Array;
  private readonly byWallet: Map<number, number>;

  constructor(
    readonly bets: readonly InformedBet[],
    /** Established wallets of the layer that share an owner's account (funded by fundEstablishedWallets). */
    readonly owners: readonly OwnedWallets[],
  ) {
    this.spentMicro = new Float64Array(bets.length);
    this.shares = new Float64Array(bets.length);
    this.firstTs = new Uint32Array(bets.length);
    this.lastTs = new Uint32Array(bets.length);
    this.byWallet = new Map(bets.map((b, i) => [b.wallet, i]));
  }

  /** The bet of wallet w, or -1 (a wallet makes one informed bet at most). */
  betOf(w: number): number {
    return this.byWallet.get(w) ?? -1;
  }
}

interface Candidate {
  readonly market: WorldMarket;
  /** The winner's price a few hours before trading stops (0..1). */
  readonly winnerPrice: number;
}

/** Markets an informed bet can go to: resolved to YES or NO inside the window. */
function candidates(o: ResolvedWorldOptions, catalog: Catalog): Candidate[] {
  const out: Candidate[] = [];
  for (const m of catalog.markets) {
    if (m.status !== "resolved" || m.truth === 2) continue;
    // Room before for the funding (days), and after for the ordinary trading's fill budget to settle.
    if (m.tradingStop < o.start + 14 * DAY || m.tradingStop > o.end - 2 * DAY) continue;
    if (m.tradingStop - m.startDate < 2 * DAY) continue;
    const yes = catalog.paths[m.index]!.yesAt((m.tradingStop - 4 * HOUR - o.start) / DAY) / 1e6;
    out.push({ market: m, winnerPrice: m.truth === 0 ? yes : 1 - yes });
  }
  return out;
}

export function planInformed(
  o: ResolvedWorldOptions,
  catalog: Catalog,
  pop: Population,
  ledger: FundingLedger,
  rng: Rng,
): InformedPlan {
  const pool = candidates(o, catalog);
  const retail = rng.shuffle(pop.wallets.filter((w) => pop.archetypeCode[w.index] === ARCHETYPE_CODE.retail));
  let nextFresh = 0;
  const takeFresh = () => (nextFresh < retail.length ? retail[nextFresh++]!.index : -1);
  const bets: InformedBet[] = [];

  /** A market for a bet on the winner (or the loser): long odds most of the time, never a sure thing. */
  const pick = (onWinner: boolean, used: Set<number> | null): WorldMarket | null => {
    const price = (c: Candidate) => (onWinner ? c.winnerPrice : 1 - c.winnerPrice);
    const free = pool.filter(
      (c) => !used?.has(c.market.index) && price(c) >= PRICE_BOUNDS[0] && price(c) <= PRICE_BOUNDS[1],
    );
    const long = free.filter((c) => price(c) <= LONG_ODDS);
    const from = long.length > 0 && rng.chance(LONG_ODDS_CHANCE) ? long : free;
    if (from.length === 0) return null;
    const chosen = rng.pick(from).market;
    used?.add(chosen.index);
    return chosen;
  };
  const betTime = (m: WorldMarket) => alignUp(m.tradingStop - rng.between(BET_HOURS[0], BET_HOURS[1]) * HOUR);
  const fundedBefore = (ts: number) => alignUp(ts - rng.between(FUNDED_HOURS_BEFORE[0], FUNDED_HOURS_BEFORE[1]) * HOUR);

  const groups = Math.max(MIN_GROUPS, Math.round(o.wallets / WALLETS_PER_GROUP));
  for (const [kind, count] of [
    ["insider", groups],
    ["fresh_loser", Math.max(2, Math.round(groups / 2))],
  ] as const) {
    const used = new Set<number>();
    for (let g = 0; g < count; g++) {
      const market = pick(kind === "insider", used);
      if (!market) break;
      const outcome = (kind === "insider" ? market.truth : 1 - market.truth) as 0 | 1;
      const members: number[] = [];
      for (let n = rng.intBetween(3, 5); n > 0; n--) {
        const w = takeFresh();
        if (w >= 0) members.push(w);
      }
      if (members.length < 2) break;
      bets.push(...fundGroup(kind, market, outcome, members));
    }
  }
  for (let k = Math.max(3, Math.round(groups * 1.5)); k > 0; k--) {
    const market = pick(true, null);
    const w = market ? takeFresh() : -1;
    if (!market || w < 0) break;
    const ts = betTime(market);
    const target = rng.logBetween(...FRESH_BET_USD);
    const fundedAt = fundedBefore(ts);
    ledger.transfer(
      fundedAt,
      pickHub(rng).address,
      pop.wallets[w]!.proxyWallet,
      dollars(target * rng.between(1.02, 1.2)),
    );
    turnFresh(pop, w, "hub_funded_fresh", fundedAt, target);
    bets.push({
      wallet: w,
      kind: "hub_funded_fresh",
      market: market.index,
      outcome: market.truth as 0 | 1,
      ts,
      targetUsd: target,
      group: -1,
      fundedAt,
    });
  }
  // Late whales come in pairs one owner has funded from one account since they were created (funding.ts), so that
  // they share a funder as an insider group does and differ from one only in their history.
  const whales = rng.shuffle(
    pop.wallets.filter((w) => pop.archetypeCode[w.index] === ARCHETYPE_CODE.whale && pop.flipper[w.index] === 0),
  );
  const owners: OwnedWallets[] = [];
  for (let k = 0; k < Math.max(1, Math.round(groups / 3)) && 2 * k + 1 < whales.length; k++) {
    const market = pick(true, null);
    if (!market) break;
    const pair = [whales[2 * k]!.index, whales[2 * k + 1]!.index];
    owners.push({ kind: "late_whale", members: pair, market: market.index });
    for (const w of pair)
      bets.push({
        wallet: w,
        kind: "late_whale",
        market: market.index,
        outcome: market.truth as 0 | 1,
        ts: betTime(market),
        targetUsd: Math.max(20_000, pop.sizeMedianUsd[w]! * rng.between(0.8, 1.5)),
        group: -1,
        fundedAt: -1,
      });
  }
  return new InformedPlan(
    bets.sort((a, b) => a.ts - b.ts || a.wallet - b.wallet),
    owners,
  );

  /**
   * A group's funding: a funder funded by a hub days before; with hops, one or two branches of hop accounts in
   * between; each member funded hours before its bet, with what it bets and a margin.
   */
  function fundGroup(
    kind: "insider" | "fresh_loser",
    market: WorldMarket,
    outcome: 0 | 1,
    members: number[],
  ): InformedBet[] {
    const hops = rng.chance(0.4) ? 0 : rng.chance(0.65) ? 1 : 2;
    const branches = hops === 0 ? 1 : Math.min(members.length, rng.intBetween(1, 2));
    const funder = ledger.account();
    const chains = Array.from({ length: branches }, () => Array.from({ length: hops }, () => ledger.account()));
    const planned = members.map((w, i) => {
      const ts = betTime(market);
      const target = rng.logBetween(...FRESH_BET_USD);
      return {
        w,
        ts,
        target,
        fundedAt: fundedBefore(ts),
        amount: dollars(target * rng.between(1.02, 1.2)),
        chain: chains[i % branches]!,
      };
    });
    const funderOut: { ts: number; amount: number }[] = [];
    for (const chain of chains) {
      const mine = planned.filter((p) => p.chain === chain);
      const nearest = chain.length ? chain[chain.length - 1]! : funder;
      for (const p of mine) ledger.transfer(p.fundedAt, nearest, pop.wallets[p.w]!.proxyWallet, p.amount);
      // Each hop is funded by the one above it (the funder above the first), hours before it passes the money on.
      let outgoing = mine.map((p) => ({ ts: p.fundedAt, amount: p.amount }));
      for (let h = chain.length - 1; h >= 0; h--)
        outgoing = [ledger.fundBefore(h > 0 ? chain[h - 1]! : funder, chain[h]!, outgoing, [HOUR, DAY], rng)];
      funderOut.push(...outgoing);
    }
    ledger.fundBefore(pickHub(rng).address, funder, funderOut, [DAY, 10 * DAY], rng);
    const group = ledger.addGroup({
      kind,
      funder,
      members: planned.map((p) => p.w),
      paths: planned.map((p) => [...p.chain].reverse().concat(funder)),
      market: market.index,
    });
    return planned.map((p) => {
      turnFresh(pop, p.w, kind, p.fundedAt, p.target);
      return {
        wallet: p.w,
        kind,
        market: market.index,
        outcome,
        ts: p.ts,
        targetUsd: p.target,
        group,
        fundedAt: p.fundedAt,
      };
    });
  }
}

/**
 * Turns a retail wallet of the population into a fresh wallet of the informed layer, created when funded. Its
 * profile's zero weights keep it out of every audience; it keeps its drawn market count, so that building the
 * audiences draws as it did before the layer existed.
 */
function turnFresh(
  pop: Population,
  w: number,
  archetype: "insider" | "fresh_loser" | "hub_funded_fresh",
  fundedAt: number,
  targetUsd: number,
): void {
  pop.archetypeCode[w] = ARCHETYPE_CODE[archetype];
  pop.sizeMedianUsd[w] = targetUsd;
  pop.wallets[w] = { ...pop.wallets[w]!, archetype, knowledge: archetype === "insider" ? 1 : 0, createdAt: fundedAt };
}

/** 1 for the wallets the informed layer turned fresh (they are funded by it, not as established wallets). */
export function freshWallets(pop: Population): Uint8Array {
  const fresh = new Uint8Array(pop.wallets.length);
  for (const code of [ARCHETYPE_CODE.insider, ARCHETYPE_CODE.fresh_loser, ARCHETYPE_CODE.hub_funded_fresh])
    pop.archetypeCode.forEach((c, w) => {
      if (c === code) fresh[w] = 1;
    });
  return fresh;
}
