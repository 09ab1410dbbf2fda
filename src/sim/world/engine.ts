/**
 * The matching engine: turns one trading moment in one market into a match (a taker order against one or
 * more maker orders), keeping every wallet's balances non-negative. The match type follows from the sides:
 * taker BUY vs maker BUY of the complement = MINT, SELL vs SELL of the complement = MERGE, otherwise
 * COMPLEMENTARY (the same token changes hands). All fills of a match share its type.
 */
import type { Audience } from "./audience.js";
import { Behaviour, sharesFor, type Intent } from "./behaviour.js";
import { Holdings, type MarketBook } from "./books.js";
import type { Catalog } from "./catalog.js";
import { FLAG_NO, FLAG_SELL, type TradeTables } from "./columns.js";
import { ARCHETYPE_CODE, archetypeMask, type Population } from "./population.js";
import { searchCumulative, type Rng } from "./random.js";
import { BUY, COMPLEMENTARY, MERGE, MINT, SELL, YES, type ResolvedWorldOptions } from "./types.js";

const DAY = 86_400;
const LOT = 10_000;
const PRICE_ONE = 1_000_000;
/** Largest one-sided inventory (shares, micro) a market maker carries in one market: it stays nearly flat. */
const MM_IMBALANCE = 800 * 1_000_000;
const MAX_MAKERS = 10;

/** Archetypes that rest maker orders for anyone; the others only take (wash rings trade within the ring). */
const MAKER_CAPABLE = archetypeMask(["retail", "noise", "volume_bot", "market_maker"]);
/** Archetypes with knowledge: market makers do not quote to them, so the crowd carries their counterparty risk. */
const INFORMED = archetypeMask(["skilled", "whale", "aligned_whale"]);
const RETAIL = ARCHETYPE_CODE.retail;
const NOISE = ARCHETYPE_CODE.noise;
const BOT = ARCHETYPE_CODE.volume_bot;
const MARKET_MAKER = ARCHETYPE_CODE.market_maker;
const WASH = ARCHETYPE_CODE.wash_trader;

export interface SimContext {
  o: ResolvedWorldOptions;
  catalog: Catalog;
  pop: Population;
  audience: Audience;
  tables: TradeTables;
  holdings: Holdings;
}

export class TradingEngine {
  readonly behaviour: Behaviour;
  private readonly makerWallets = new Int32Array(MAX_MAKERS);
  private readonly makerSizes = new Float64Array(MAX_MAKERS);
  private makerCount = 0;
  private informedTaker = false;
  private taker = -1;
  private mmLimit = MM_IMBALANCE;
  private now = 0;
  private readonly intent: Intent = { outcome: 0, side: 0, shares: 0 };
  private readonly groupMarkets: Set<number>[];

  constructor(private readonly ctx: SimContext) {
    const { events } = ctx.catalog;
    this.groupMarkets = ctx.audience.groupEvents.map((es) => new Set(es.flatMap((e) => events[e]!.marketIndexes)));
    this.behaviour = new Behaviour(ctx.pop, ctx.catalog.markets, this.groupMarkets);
  }

  /** The price a match at `ts` trades at: the path's price with a little noise, on the 0.01 tick, 0.01..0.99. */
  tradePrice(m: number, ts: number, rng: Rng): number {
    const mid = this.ctx.catalog.paths[m]!.yesAt((ts - this.ctx.o.start) / DAY);
    const ticks = Math.round((mid + 4_000 * rng.normal()) / 10_000);
    return Math.min(99, Math.max(1, ticks)) * 10_000;
  }

  /** Generates one match in market m at ts with at most `maxFills` fills; returns the fills written (0: none). */
  match(m: number, ts: number, rng: Rng, maxFills = 1 + MAX_MAKERS): number {
    if (maxFills < 2) return 0;
    maxFills = Math.min(maxFills, 1 + MAX_MAKERS);
    const { audience, holdings, pop } = this.ctx;
    const lo = audience.takerOffsets[m]!;
    const hi = audience.takerOffsets[m + 1]!;
    if (lo === hi) return 0;
    const total = audience.takerCum[hi - 1]!;
    const yes = this.tradePrice(m, ts, rng);
    const book = holdings.book(m);
    this.now = ts;
    for (let attempt = 0; attempt < 8; attempt++) {
      const w = audience.takerWallets[searchCumulative(audience.takerCum, lo, hi, rng.next() * total)]!;
      if (pop.archetypeCode[w] === WASH) {
        const n = this.ringMatch(w, m, ts, yes, book, rng);
        if (n) return n;
        continue;
      }
      if (this.behaviour.decide(w, m, yes, ts, book, rng, this.intent))
        return this.execute(m, ts, yes, w, book, rng, maxFills - 1);
    }
    return 0;
  }

  /**
   * One order of an informed bet (informed-trading.ts): wallet w buys `usd` worth of `outcome` from the market's
   * resting orders at the moment's price, with at most `maxFills` fills. Returns the fills written (0: none).
   */
  placeBet(w: number, m: number, ts: number, outcome: number, usd: number, rng: Rng, maxFills: number): number {
    if (maxFills < 2) return 0;
    const yes = this.tradePrice(m, ts, rng);
    this.now = ts;
    this.intent.outcome = outcome;
    this.intent.side = BUY;
    this.intent.shares = sharesFor(usd, outcome === YES ? yes : PRICE_ONE - yes);
    return this.execute(m, ts, yes, w, this.ctx.holdings.book(m), rng, Math.min(maxFills, 1 + MAX_MAKERS) - 1);
  }

  private execute(
    m: number,
    ts: number,
    yes: number,
    w: number,
    book: MarketBook,
    rng: Rng,
    maxMakers: number,
  ): number {
    this.informedTaker = INFORMED[this.ctx.pop.archetypeCode[w]!] === 1;
    const o = this.intent.outcome;
    const price = o === YES ? yes : PRICE_ONE - yes;
    if (this.intent.side === BUY) {
      const target = this.intent.shares;
      if (rng.chance(0.02) && this.pickMakers(m, book, o, true, price, target, w, maxMakers, rng))
        return this.commit(ts, m, yes, COMPLEMENTARY, w, o, BUY, o, SELL);
      if (this.pickMakers(m, book, 1 - o, false, PRICE_ONE - price, target, w, maxMakers, rng))
        return this.commit(ts, m, yes, MINT, w, o, BUY, 1 - o, BUY);
      return 0;
    }
    const target = Math.min(this.intent.shares, book.shares(w, o));
    if (target < LOT) return 0;
    const mergeFirst = rng.chance(0.55);
    if (mergeFirst && this.pickMakers(m, book, 1 - o, true, PRICE_ONE - price, target, w, maxMakers, rng))
      return this.commit(ts, m, yes, MERGE, w, o, SELL, 1 - o, SELL);
    if (this.pickMakers(m, book, o, false, price, target, w, maxMakers, rng))
      return this.commit(ts, m, yes, COMPLEMENTARY, w, o, SELL, o, BUY);
    if (!mergeFirst && this.pickMakers(m, book, 1 - o, true, PRICE_ONE - price, target, w, maxMakers, rng))
      return this.commit(ts, m, yes, MERGE, w, o, SELL, 1 - o, SELL);
    return 0;
  }

  /**
   * Chooses up to `maxMakers` maker orders for `outcome` at `price` adding up to at most `target` shares:
   * sellers from the holders of the token, buyers from the market's resting-order wallets. Returns the count.
   */
  private pickMakers(
    m: number,
    book: MarketBook,
    outcome: number,
    sells: boolean,
    price: number,
    target: number,
    taker: number,
    maxMakers: number,
    rng: Rng,
  ): number {
    const { audience, pop } = this.ctx;
    const lo = audience.makerOffsets[m]!;
    const hi = audience.makerOffsets[m + 1]!;
    if (!sells && lo === hi) return 0;
    const total = sells ? 0 : audience.makerCum[hi - 1]!;
    // Market makers wind their inventory down toward the end of trading, so they finish nearly flat.
    const market = this.ctx.catalog.markets[m]!;
    const left = (market.tradingStop - this.now) / Math.max(2 * DAY, 0.6 * (market.tradingStop - market.startDate));
    this.mmLimit = Math.floor((MM_IMBALANCE * Math.min(1, Math.max(0, left))) / LOT) * LOT;
    const u = rng.next();
    // Bigger orders sweep more resting orders.
    const depth = Math.max(0, Math.floor(Math.log2((target * price) / 1e12 / 2_000)));
    const desired = Math.min(maxMakers, (u < 0.55 ? 1 : u < 0.82 ? 2 : u < 0.95 ? 3 : 4) + depth);
    const picked = this.makerWallets;
    let count = 0;
    let remaining = target;
    this.taker = taker;
    this.makerCount = 0;
    for (let s = 0; s < desired && remaining >= LOT; s++) {
      for (let tries = 0; tries < 5; tries++) {
        const w = sells
          ? book.randomHolder(outcome, LOT, rng, 4, this.eligible)
          : audience.makerWallets[searchCumulative(audience.makerCum, lo, hi, rng.next() * total)]!;
        if (w < 0) break;
        if (!sells && !this.eligible(w)) continue;
        const archetype = pop.archetypeCode[w]!;
        let cap = remaining;
        if (archetype === BOT) cap = Math.min(cap, Math.floor((rng.between(2, 19.99) * 1e12) / price / LOT) * LOT);
        else if (archetype === RETAIL || archetype === NOISE)
          cap = Math.min(
            cap,
            sharesFor(rng.logNormal(pop.sizeMedianUsd[w]! * (archetype === NOISE ? 10 : 4), 0.9), price),
          );
        if (sells) {
          cap = Math.min(cap, book.shares(w, outcome));
          // Selling one side leaves the other: a market maker sells only what keeps it within its limit.
          if (archetype === MARKET_MAKER)
            cap = Math.min(cap, this.mmLimit - (book.shares(w, 1 - outcome) - book.shares(w, outcome)));
        } else if ((archetype === RETAIL || archetype === NOISE) && book.shares(w, 1 - outcome) > 0) {
          // A directional trader rests buy orders on the side it holds, not against its own position.
          continue;
        } else if (archetype === MARKET_MAKER) {
          // Market makers do not buy lottery tickets, and keep each market's inventory nearly flat.
          if (price < 50_000 || price > 950_000) continue;
          cap = Math.min(cap, this.mmLimit - (book.shares(w, outcome) - book.shares(w, 1 - outcome)));
        }
        const part =
          s === desired - 1
            ? cap
            : Math.min(cap, Math.max(1_000_000, Math.floor((remaining * rng.between(0.25, 0.75)) / LOT) * LOT));
        if (part < LOT) continue;
        picked[count] = w;
        this.makerSizes[count] = part;
        this.makerCount = ++count;
        remaining -= part;
        break;
      }
    }
    this.makerCount = count;
    return count;
  }

  /** May wallet w rest a maker order against the current taker (and is it not already in this match)? */
  private readonly eligible = (w: number): boolean => {
    const archetype = this.ctx.pop.archetypeCode[w]!;
    if (w === this.taker || MAKER_CAPABLE[archetype] !== 1 || (archetype === MARKET_MAKER && this.informedTaker))
      return false;
    for (let i = 0; i < this.makerCount; i++) if (this.makerWallets[i] === w) return false;
    return true;
  };

  /** Writes the match prepared in the scratch arrays and moves the shares. Returns its fill count. */
  private commit(
    ts: number,
    m: number,
    yes: number,
    type: number,
    taker: number,
    o: number,
    side: number,
    makerOutcome: number,
    makerSide: number,
  ): number {
    const count = this.makerCount;
    const takerPrice = o === YES ? yes : PRICE_ONE - yes;
    const takerFlags = (o ? FLAG_NO : 0) | (side === SELL ? FLAG_SELL : 0);
    const makerFlags = (makerOutcome ? FLAG_NO : 0) | (makerSide === SELL ? FLAG_SELL : 0);
    this.ctx.tables.addMatch(
      ts,
      m,
      takerPrice,
      type,
      taker,
      takerFlags,
      count,
      this.makerWallets,
      this.makerSizes,
      makerFlags,
    );
    const book = this.ctx.holdings.book(m);
    let total = 0;
    for (let k = 0; k < count; k++) {
      const size = this.makerSizes[k]!;
      total += size;
      book.add(this.makerWallets[k]!, makerOutcome, makerSide === BUY ? size : -size);
    }
    book.add(taker, o, side === BUY ? total : -total);
    return count + 1;
  }

  /**
   * Wash trading: the taker trades only with another member of its ring, opening a position (MINT, or buying
   * from the partner) or closing one (MERGE with the partner, or selling to it), so the ring nets to zero.
   */
  private ringMatch(w: number, m: number, ts: number, yes: number, book: MarketBook, rng: Rng): number {
    const { pop } = this.ctx;
    const ring = pop.washRings[pop.wallets[w]!.group]!;
    if (ring.length < 2) return 0;
    let partner = ring[rng.int(ring.length)]!;
    if (partner === w) partner = ring[(ring.indexOf(w) + 1) % ring.length]!;
    this.makerWallets[0] = partner;
    this.makerCount = 1;
    const heldYes = book.shares(w, YES);
    const heldNo = book.shares(w, 1);
    if (heldYes + heldNo > 0 && rng.chance(0.85)) {
      const o = heldYes >= heldNo ? YES : 1;
      const usual = sharesFor(rng.logNormal(pop.sizeMedianUsd[w]!, 0.6), o === YES ? yes : PRICE_ONE - yes);
      const size = Math.min(book.shares(w, o), 2 * usual);
      this.makerSizes[0] = size;
      if (book.shares(partner, 1 - o) >= size) return this.commit(ts, m, yes, MERGE, w, o, SELL, 1 - o, SELL);
      return this.commit(ts, m, yes, COMPLEMENTARY, w, o, SELL, o, BUY);
    }
    const o = rng.int(2);
    const size = sharesFor(rng.logNormal(pop.sizeMedianUsd[w]!, 0.6), o === YES ? yes : PRICE_ONE - yes);
    this.makerSizes[0] = size;
    if (book.shares(partner, o) >= size && rng.chance(0.5))
      return this.commit(ts, m, yes, COMPLEMENTARY, w, o, BUY, o, SELL);
    return this.commit(ts, m, yes, MINT, w, o, BUY, 1 - o, BUY);
  }
}
