/**
 * Who follows which market. Each wallet picks the markets it trades (by popularity, its favourite categories
 * and its archetype); each market then has a taker list and a maker list with cumulative weights, so that
 * picking a counterparty is one binary search. Stored as compressed rows (offsets + items) per market.
 */
import type { Catalog } from "./catalog.js";
import type { Population } from "./population.js";
import { PROFILES } from "./population.js";
import { searchCumulative, type Rng } from "./random.js";
import { CATEGORIES, WALLET_ARCHETYPES, type ResolvedWorldOptions } from "./types.js";

const DAY = 86_400;
/** A flipping whale's taker weight in its markets, relative to a whale's: it comes back often enough to turn. */
const FLIPPER_TAKER_BOOST = 3;

export interface Audience {
  takerOffsets: Int32Array;
  takerWallets: Int32Array;
  takerCum: Float64Array;
  makerOffsets: Int32Array;
  makerWallets: Int32Array;
  makerCum: Float64Array;
  /** Events each aligned-whale group stands together in. */
  groupEvents: number[][];
  /** Markets each wash ring trades. */
  ringMarkets: number[][];
}

/** Trading days of a market inside the world's window. */
export function tradingDays(o: ResolvedWorldOptions, startDate: number, stop: number): number {
  return Math.max(0, (Math.min(stop, o.end) - Math.max(startDate, o.start)) / DAY);
}

class WeightedPool {
  readonly cum: Float64Array;
  constructor(
    readonly items: Int32Array,
    weights: Float64Array,
  ) {
    this.cum = new Float64Array(items.length);
    let s = 0;
    for (let i = 0; i < items.length; i++) this.cum[i] = s += weights[i]!;
  }
  get total(): number {
    return this.cum.length ? this.cum[this.cum.length - 1]! : 0;
  }
  draw(rng: Rng): number {
    return this.items[searchCumulative(this.cum, 0, this.cum.length, rng.next() * this.total)]!;
  }
}

function pool(indexes: number[], weightOf: (i: number) => number): WeightedPool {
  const kept = indexes.filter((i) => weightOf(i) > 0);
  return new WeightedPool(Int32Array.from(kept), Float64Array.from(kept, weightOf));
}

export function buildAudience(o: ResolvedWorldOptions, catalog: Catalog, pop: Population, rng: Rng): Audience {
  const { markets, events } = catalog;
  const M = markets.length;
  const activity = Float64Array.from(
    markets,
    (m) => m.popularity * Math.sqrt(tradingDays(o, m.startDate, m.tradingStop)),
  );
  const endsInWindow = (i: number) => markets[i]!.tradingStop <= o.end;
  const all = [...Array(M).keys()];
  const global = pool(all, (i) => activity[i]!);
  const ending = pool(all, (i) => activity[i]! * (endsInWindow(i) ? 3 : 0.3));
  const byCategory = CATEGORIES.map((c) =>
    pool(
      all.filter((i) => markets[i]!.category === c),
      (i) => activity[i]!,
    ),
  );
  const negRiskEvents = events.filter((e) => e.negRisk && e.marketIndexes.length >= 3);
  const eventActivity = (e: (typeof events)[number]) => e.marketIndexes.reduce((s, i) => s + activity[i]!, 0);
  const negRiskPool = pool(
    negRiskEvents.map((e) => e.index),
    (i) => eventActivity(events[i]!),
  );
  const groupEventPool = pool(
    negRiskEvents.map((e) => e.index),
    (i) => eventActivity(events[i]!) * (endsInWindow(events[i]!.marketIndexes[0]!) ? 3 : 0.5),
  );

  const entryMarket: number[] = [];
  const entryWallet: number[] = [];
  const entryTaker: number[] = [];
  const entryMaker: number[] = [];
  const add = (market: number, wallet: number, boost = 1) => {
    const p = PROFILES[WALLET_ARCHETYPES[pop.archetypeCode[wallet]!]!];
    entryMarket.push(market);
    entryWallet.push(wallet);
    entryTaker.push(p.takerWeight * boost);
    entryMaker.push(p.makerWeight);
  };
  const choose = (wallet: number, count: number, preferEnding: number, taken: Set<number>) => {
    const favs = [pop.favouriteCategories[wallet * 2]!, pop.favouriteCategories[wallet * 2 + 1]!];
    for (let tries = 0; taken.size < count && tries < count * 8; tries++) {
      let m: number;
      const u = rng.next();
      if (u < preferEnding && ending.total > 0) m = ending.draw(rng);
      else if (u < preferEnding + 0.6 * (1 - preferEnding) && byCategory[favs[tries & 1]!]!.total > 0)
        m = byCategory[favs[tries & 1]!]!.draw(rng);
      else if (global.total > 0) m = global.draw(rng);
      else return;
      taken.add(m);
    }
  };

  const ringMarkets: number[][] = pop.washRings.map((members) => {
    const taken = new Set<number>();
    if (members.length) choose(members[0]!, pop.marketCount[members[0]!]!, 0.3, taken);
    return [...taken];
  });
  const groupEvents: number[][] = pop.alignedGroups.map(() => {
    const chosen = new Set<number>();
    const want = rng.intBetween(1, 2);
    for (let t = 0; chosen.size < want && t < 10 && groupEventPool.total > 0; t++) chosen.add(groupEventPool.draw(rng));
    return [...chosen];
  });

  const W = pop.wallets.length;
  for (let w = 0; w < W; w++) {
    const archetype = WALLET_ARCHETYPES[pop.archetypeCode[w]!]!;
    const count = pop.marketCount[w]!;
    const taken = new Set<number>();
    switch (archetype) {
      case "wash_trader":
        for (const m of ringMarkets[pop.wallets[w]!.group]!) add(m, w);
        continue;
      case "negrisk_converter": {
        const chosen = new Set<number>();
        for (let t = 0; chosen.size < count && t < count * 4 && negRiskPool.total > 0; t++)
          chosen.add(negRiskPool.draw(rng));
        for (const e of chosen) for (const m of events[e]!.marketIndexes) add(m, w);
        continue;
      }
      case "aligned_whale": {
        const assigned = new Set<number>();
        for (const e of groupEvents[pop.wallets[w]!.group]!) for (const m of events[e]!.marketIndexes) assigned.add(m);
        for (const m of assigned) add(m, w, 5);
        choose(w, count + assigned.size, 0.5, taken);
        for (const m of taken) if (!assigned.has(m)) add(m, w);
        continue;
      }
      case "favourite_farmer":
        choose(w, count, 0.85, taken);
        break;
      case "skilled":
        choose(w, count, 0.75, taken);
        break;
      default:
        choose(w, count, 0.2, taken);
    }
    // A flipping whale watches its markets closely, so that it comes back to turn (flipping whales, behaviour.ts).
    const boost = pop.flipper[w] === 1 ? FLIPPER_TAKER_BOOST : 1;
    for (const m of taken) add(m, w, boost);
  }

  // Every market gets at least one market maker, so that MINT and MERGE always find a counterparty.
  const makers = [...Array(W).keys()].filter((w) => WALLET_ARCHETYPES[pop.archetypeCode[w]!] === "market_maker");
  const hasMaker = new Uint8Array(M);
  for (let i = 0; i < entryMarket.length; i++)
    if (entryMaker[i]! >= PROFILES.market_maker.makerWeight) hasMaker[entryMarket[i]!] = 1;
  let next = 0;
  for (let m = 0; m < M && makers.length; m++) if (!hasMaker[m]) add(m, makers[next++ % makers.length]!);

  const taker = compress(M, entryMarket, entryWallet, entryTaker);
  const maker = compress(M, entryMarket, entryWallet, entryMaker);
  return {
    takerOffsets: taker.offsets,
    takerWallets: taker.wallets,
    takerCum: taker.cum,
    makerOffsets: maker.offsets,
    makerWallets: maker.wallets,
    makerCum: maker.cum,
    groupEvents,
    ringMarkets,
  };
}

/** Entries with a positive weight, grouped by market, with cumulative weights within each market. */
function compress(M: number, market: number[], wallet: number[], weight: number[]) {
  const offsets = new Int32Array(M + 1);
  for (let i = 0; i < market.length; i++) if (weight[i]! > 0) offsets[market[i]! + 1]!++;
  for (let m = 0; m < M; m++) offsets[m + 1]! += offsets[m]!;
  const fill = offsets.slice(0, M);
  const wallets = new Int32Array(offsets[M]!);
  const w = new Float64Array(offsets[M]!);
  for (let i = 0; i < market.length; i++) {
    if (weight[i]! <= 0) continue;
    const at = fill[market[i]!]!++;
    wallets[at] = wallet[i]!;
    w[at] = weight[i]!;
  }
  const cum = new Float64Array(w.length);
  for (let m = 0; m < M; m++) {
    let s = 0;
    for (let i = offsets[m]!; i < offsets[m + 1]!; i++) cum[i] = s += w[i]!;
  }
  return { offsets, wallets, cum };
}
