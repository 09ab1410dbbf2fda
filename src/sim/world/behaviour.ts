/**
 * What a wallet wants to do when it comes to a market: its intent (outcome, BUY or SELL, shares), decided by
 * its archetype. Edge comes only from `knowledge`: the chance that a wallet backs the side the market will
 * resolve to. Prices are calibrated (prices.ts), so a wallet without knowledge has no edge as a taker.
 */
import type { MarketBook } from "./books.js";
import { ARCHETYPE_CODE as A, type Population } from "./population.js";
import type { Rng } from "./random.js";
import { BUY, NO, SELL, YES, type WorldMarket } from "./types.js";

const DAY = 86_400;
const SHARE = 1_000_000;
const LOT = 10_000;
const PRICE_ONE = 1_000_000;
/** A market maker takes liquidity only to repair an inventory gap of this many shares (micro). */
const MM_REBALANCE = 300 * SHARE;

export interface Intent {
  outcome: number;
  side: number;
  /** Target shares, micro-units, a multiple of LOT. */
  shares: number;
}

/** A wallet's view of one market: the side it backs, and for flipping whales when it changes its mind. */
interface View {
  side: number;
  flipAt: number;
  flipped: boolean;
}

/** Informed wallets size down on cheap tokens (a risk budget, not a lottery ticket). */
function informedUsd(usd: number, price: number): number {
  return usd * Math.min(1, Math.max(0.15, price / 300_000));
}

/** Shares (micro, whole lots, at least one share) that `usd` buys at `priceMicro`. */
export function sharesFor(usd: number, priceMicro: number): number {
  return Math.max(SHARE, Math.floor(((usd * 1e6) / priceMicro) * 100) * LOT);
}

/*
 * Flipping whales (`flipper`, population.ts) are there for the whale-flips routes: a Smart Money whale whose net
 * exposure in a market (YES cost minus NO cost) changed sign between a daily snapshot and now. A flipper that sold
 * its whole old side in one visit before buying the new one rarely finished a reversal (a whale comes to one of
 * its markets a few times in all), and one that staked its full size on the wrong side first lost money and was
 * never Smart Money. So: a flipper starts with a trial stake; once turned, it buys the new side until that side
 * outweighs the old, and only then sells the old side on half of its visits, so the net turns on its first visit
 * after the flip; it comes to its markets three times as often as a whale (FLIPPER_TAKER_BOOST, audience.ts) and
 * knows more (population.ts), so it pays for its wrong first stands and ends in profit, as the reversing whales
 * worth following do. At the demo's size this leaves a few reversals of Smart Money whales in any 7 days.
 */

/** The chance that a flipping whale plans a reversal in a market it comes to (with time left for it). */
const FLIP_CHANCE = 0.55;
/** A flipping whale's stake on its first (wrong) side, relative to its usual size. */
const FLIP_TRIAL_STAKE = 0.4;

/** How often a trader without edge, out of its side of a market, buys the other side instead. */
const OTHER_SIDE_CHANCE = 0.05;

function lots(shares: number): number {
  return Math.floor(shares / LOT) * LOT;
}

export class Behaviour {
  private readonly views = new Map<number, View>();
  // The decision in progress (set by decide, read by the helpers below).
  private out: Intent = { outcome: 0, side: 0, shares: 0 };
  private yes = 0;

  constructor(
    private readonly pop: Population,
    private readonly markets: readonly WorldMarket[],
    /** Per aligned-whale group, the markets of the events it stands together in. */
    private readonly groupMarkets: readonly Set<number>[],
  ) {}

  /** Fills `out` and returns true, or returns false when the wallet has nothing to do here (pick another). */
  decide(wallet: number, m: number, yesPrice: number, ts: number, book: MarketBook, rng: Rng, out: Intent): boolean {
    this.out = out;
    this.yes = yesPrice;
    const market = this.markets[m]!;
    const median = this.pop.sizeMedianUsd[wallet]!;
    switch (this.pop.archetypeCode[wallet]) {
      case A.retail:
        if (rng.chance(0.06) && this.sellSome(wallet, book, rng)) return true;
        return this.buy(this.usualSide(wallet, market, ts, book, rng), Math.max(1, rng.logNormal(median, 1)));
      case A.noise:
        if (rng.chance(0.08) && this.sellSome(wallet, book, rng)) return true;
        return this.buy(this.usualSide(wallet, market, ts, book, rng), Math.max(2, rng.logNormal(median, 1.2)));
      case A.skilled: {
        // backs one side per market, the winning one with probability `knowledge`
        const side = this.view(wallet, market, ts, rng, false).side;
        return this.buy(side, informedUsd(Math.max(20, rng.logNormal(median, 0.8)), this.priceOf(side)));
      }
      case A.favourite_farmer: // only the favourite, only above 0.95
        if (yesPrice >= 960_000) return this.buy(YES, Math.max(50, rng.logNormal(median, 0.9)));
        if (yesPrice <= 40_000) return this.buy(NO, Math.max(50, rng.logNormal(median, 0.9)));
        return false;
      case A.volume_bot: {
        // tiny round trips in liquid mid-priced markets
        const y = book.shares(wallet, YES);
        const n = book.shares(wallet, NO);
        if (y + n > 0 && rng.chance(0.35)) {
          const o = y >= n ? YES : NO;
          const cap = lots((rng.between(1, 19.99) * 1e12) / this.priceOf(o));
          return this.sell(o, Math.min(o === YES ? y : n, Math.max(LOT, cap)));
        }
        if (yesPrice < 150_000 || yesPrice > 850_000) return false;
        return this.buy(rng.int(2), rng.between(1, 19.99));
      }
      case A.market_maker: {
        // as a taker only to repair a lopsided inventory
        const gap = book.shares(wallet, YES) - book.shares(wallet, NO);
        if (Math.abs(gap) < MM_REBALANCE) return false;
        out.outcome = gap > 0 ? NO : YES;
        out.side = BUY;
        out.shares = lots(Math.abs(gap));
        return true;
      }
      case A.whale:
        return this.whale(wallet, market, ts, book, rng, median, true);
      case A.aligned_whale: // in its group's events, the side the group believes in
        if (this.groupMarkets[this.pop.wallets[wallet]!.group]!.has(m)) {
          const side = market.truth === YES ? YES : NO;
          return this.buy(side, informedUsd(Math.max(5_000, rng.logNormal(median, 0.5)), this.priceOf(side)));
        }
        return this.whale(wallet, market, ts, book, rng, median, false);
      case A.negrisk_converter: {
        // collects NO of long shots, later converts them (operations.ts)
        if (!market.negRisk) return this.buy(rng.int(2), Math.max(5, rng.logNormal(median, 1)));
        const y = book.shares(wallet, YES);
        if (y > 0 && rng.chance(0.15)) return this.sell(YES, Math.max(LOT, lots(y * rng.between(0.3, 1))));
        if (yesPrice <= 500_000) return this.buy(NO, Math.max(20, rng.logNormal(median, 0.8)));
        return false;
      }
      default:
        return false;
    }
  }

  /**
   * A trader without edge picks a side per market (at random: its view knows nothing) and keeps to it while it
   * holds it; once out of it, it now and then changes its mind and buys the other side.
   */
  private usualSide(wallet: number, market: WorldMarket, ts: number, book: MarketBook, rng: Rng): number {
    const side = this.view(wallet, market, ts, rng, false).side;
    return book.shares(wallet, side) === 0 && rng.chance(OTHER_SIDE_CHANCE) ? 1 - side : side;
  }

  private priceOf(outcome: number): number {
    return outcome === YES ? this.yes : PRICE_ONE - this.yes;
  }

  private buy(outcome: number, usd: number): boolean {
    this.out.outcome = outcome;
    this.out.side = BUY;
    this.out.shares = sharesFor(usd, this.priceOf(outcome));
    return true;
  }

  private sell(outcome: number, shares: number): boolean {
    if (shares < LOT) return false;
    this.out.outcome = outcome;
    this.out.side = SELL;
    this.out.shares = shares;
    return true;
  }

  /** Sells 30-100% of one held outcome (chosen in proportion to the holdings). */
  private sellSome(wallet: number, book: MarketBook, rng: Rng): boolean {
    const y = book.shares(wallet, YES);
    const n = book.shares(wallet, NO);
    if (y + n === 0) return false;
    const o = rng.next() * (y + n) < y ? YES : NO;
    return this.sell(o, Math.max(LOT, lots((o === YES ? y : n) * rng.between(0.3, 1))));
  }

  /** The wallet's view of the market, drawn on first contact. */
  private view(wallet: number, market: WorldMarket, ts: number, rng: Rng, mayFlip: boolean): View {
    const key = wallet * this.markets.length + market.index;
    let view = this.views.get(key);
    if (!view) {
      const winner = market.truth < 2 ? market.truth : rng.int(2);
      const flip =
        mayFlip && this.pop.flipper[wallet] === 1 && rng.chance(FLIP_CHANCE) && market.tradingStop - ts > 4 * DAY;
      const knows = rng.chance(this.pop.wallets[wallet]!.knowledge);
      view = {
        side: flip ? 1 - winner : knows ? winner : rng.int(2),
        flipAt: flip ? ts + rng.between(1, Math.min(20, (market.tradingStop - ts) / DAY / 2)) * DAY : 0,
        flipped: false,
      };
      this.views.set(key, view);
    }
    return view;
  }

  /**
   * Whales build positions on their side. A flipping whale starts on the wrong side with a trial stake
   * (FLIP_TRIAL_STAKE of its usual size); once it turns, it buys the new side until that outweighs the stale one,
   * then sells the stale side on half of its visits (flipping whales, above).
   */
  private whale(
    wallet: number,
    market: WorldMarket,
    ts: number,
    book: MarketBook,
    rng: Rng,
    median: number,
    mayFlip: boolean,
  ): boolean {
    const view = this.view(wallet, market, ts, rng, mayFlip);
    if (view.flipAt > 0 && ts >= view.flipAt && !view.flipped) {
      view.flipped = true;
      view.side = 1 - view.side;
    }
    const stale = book.shares(wallet, 1 - view.side);
    // Turned: the new side first, until it outweighs the stale one; then the stale side goes on half of the visits.
    const outweighs = book.shares(wallet, view.side) * this.priceOf(view.side) >= stale * this.priceOf(1 - view.side);
    if (view.flipped && stale > 0 && outweighs && rng.chance(0.5)) return this.sell(1 - view.side, stale);
    const stake = view.flipAt > 0 && !view.flipped ? FLIP_TRIAL_STAKE : 1;
    return this.buy(
      view.side,
      informedUsd(Math.max(10_000, rng.logNormal(median, 0.5)) * stake, this.priceOf(view.side)),
    );
  }
}
