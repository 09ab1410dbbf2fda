/**
 * Non-trade transactions: market makers' splits and merges, NegRisk conversions (convertPositions semantics,
 * the venue's Polygon contracts), liquidity rewards, resolutions, and redemptions (some holders never redeem, mostly
 * holders of losing tokens). Each is planned on a day's timeline and executed in time order against the
 * balances, so it can never spend shares a wallet does not hold.
 */
import type { SimContext } from "./engine.js";
import { PROFILES } from "./population.js";
import type { Rng } from "./random.js";
import {
  DayItems,
  ITEM_CONVERT,
  ITEM_MERGE,
  ITEM_REDEEM,
  ITEM_RESOLVE,
  ITEM_REWARD,
  ITEM_SPLIT,
  ITEM_SWEEP,
  randomInstant,
  type PlannedItem,
} from "./timeline.js";
import {
  NO,
  OP_CONVERSION,
  OP_MERGE,
  OP_REDEEM,
  OP_RESOLUTION,
  OP_REWARD,
  OP_SPLIT,
  WALLET_ARCHETYPES,
  YES,
} from "./types.js";

const DAY = 86_400;
const LOT = 10_000;

export class Operations {
  private readonly future = new Map<number, PlannedItem[]>();
  private readonly resolvesByDay = new Map<number, number[]>();
  private readonly sweepsByDay = new Map<number, number[]>();
  private readonly marketMakers: number[] = [];
  private readonly bots: number[] = [];
  private readonly converters: number[] = [];
  /** Markets each market maker follows; NegRisk events each converter follows. */
  private readonly followedMarkets = new Map<number, number[]>();
  private readonly followedEvents = new Map<number, number[]>();

  constructor(private readonly ctx: SimContext) {
    const { o, catalog, pop, audience } = ctx;
    const dayOf = (ts: number) => Math.floor((ts - o.start) / DAY);
    for (const m of catalog.markets) {
      if (m.resolvedAt !== null && m.resolvedAt >= o.start) push(this.resolvesByDay, dayOf(m.resolvedAt), m.index);
      if (m.tradingStop >= o.start && m.tradingStop < o.end) push(this.sweepsByDay, dayOf(m.tradingStop), m.index);
    }
    pop.archetypeCode.forEach((code, w) => {
      const a = WALLET_ARCHETYPES[code];
      if (a === "market_maker") this.marketMakers.push(w);
      else if (a === "volume_bot") this.bots.push(w);
      else if (a === "negrisk_converter") this.converters.push(w);
    });
    for (let m = 0; m < catalog.markets.length; m++) {
      for (let i = audience.takerOffsets[m]!; i < audience.takerOffsets[m + 1]!; i++) {
        const w = audience.takerWallets[i]!;
        const a = WALLET_ARCHETYPES[pop.archetypeCode[w]!];
        if (a === "market_maker") push(this.followedMarkets, w, m);
        else if (a === "negrisk_converter" && catalog.markets[m]!.negRisk) {
          const e = catalog.markets[m]!.eventIndex;
          const list = this.followedEvents.get(w);
          if (!list?.includes(e)) push(this.followedEvents, w, e);
        }
      }
    }
  }

  /** The market's trading window clipped to [lo, hi). */
  private window(m: number, lo: number, hi: number): [number, number] {
    const market = this.ctx.catalog.markets[m]!;
    return [Math.max(lo, market.startDate, this.ctx.o.start), Math.min(hi, market.tradingStop)];
  }

  /** Plans the day's non-trade items onto `items`. */
  planDay(day: number, d0: number, d1: number, items: DayItems, rng: Rng): void {
    for (const w of this.marketMakers) {
      const trading = (this.followedMarkets.get(w) ?? []).filter((m) => {
        const [lo, hi] = this.window(m, d0, d1);
        return lo < hi;
      });
      if (trading.length && rng.chance(0.35)) {
        const m = rng.pick(trading);
        const ts = randomInstant(rng, ...this.window(m, d0, d1));
        if (ts >= 0) items.push(ts, ITEM_SPLIT, w, m, Math.round(rng.logBetween(500, 20_000)) * 1_000_000);
      }
      for (let k = 0; k < 2 && trading.length && rng.chance(0.5); k++) {
        const m = rng.pick(trading);
        const ts = randomInstant(rng, ...this.window(m, d0, d1));
        if (ts >= 0) items.push(ts, ITEM_MERGE, w, m);
      }
      if (rng.chance(0.8))
        items.push(randomInstant(rng, d0, d1), ITEM_REWARD, w, -1, Math.round(rng.between(5, 80) * 100) * 10_000);
    }
    for (const w of this.bots)
      if (rng.chance(0.8))
        items.push(randomInstant(rng, d0, d1), ITEM_REWARD, w, -1, Math.round(rng.between(1, 15) * 100) * 10_000);
    for (const w of this.converters) {
      for (const e of this.followedEvents.get(w) ?? []) {
        const first = this.ctx.catalog.events[e]!.marketIndexes[0]!;
        const [lo, hi] = this.window(first, d0, d1);
        if (lo < hi && rng.chance(0.3)) {
          const ts = randomInstant(rng, lo, hi);
          if (ts >= 0) items.push(ts, ITEM_CONVERT, w, e);
        }
      }
    }
    const markets = this.ctx.catalog.markets;
    for (const m of this.sweepsByDay.get(day) ?? []) items.push(markets[m]!.tradingStop, ITEM_SWEEP, m);
    for (const m of this.resolvesByDay.get(day) ?? []) items.push(markets[m]!.resolvedAt!, ITEM_RESOLVE, m);
    for (const it of this.future.get(day) ?? []) items.push(it.ts, it.kind, it.a, it.b, it.x, it.y);
    this.future.delete(day);
  }

  /** Executes planned item i (not a match). */
  execute(items: DayItems, i: number, rng: Rng): void {
    const { tables, holdings } = this.ctx;
    const ts = items.ts[i]!;
    const a = items.a[i]!;
    const b = items.b[i]!;
    switch (items.kind[i]) {
      case ITEM_SPLIT: {
        const amount = items.x[i]!;
        const book = holdings.book(b);
        book.add(a, YES, amount);
        book.add(a, NO, amount);
        tables.addOp(ts, OP_SPLIT, a, b, amount);
        return;
      }
      case ITEM_MERGE: {
        const book = holdings.book(b);
        const pairs = Math.min(book.shares(a, YES), book.shares(a, NO));
        const amount = Math.floor((pairs * rng.between(0.5, 1)) / LOT) * LOT;
        if (amount >= 1_000_000) this.merge(ts, a, b, amount);
        return;
      }
      case ITEM_SWEEP: {
        const book = holdings.book(a);
        for (const w of [...book.wallets]) {
          if (WALLET_ARCHETYPES[this.ctx.pop.archetypeCode[w]!] !== "market_maker") continue;
          const pairs = Math.min(book.shares(w, YES), book.shares(w, NO));
          if (pairs >= LOT) this.merge(ts, w, a, pairs);
        }
        return;
      }
      case ITEM_CONVERT:
        return this.convert(ts, a, b, rng);
      case ITEM_REWARD:
        tables.addOp(ts, OP_REWARD, a, -1, items.x[i]!);
        return;
      case ITEM_RESOLVE:
        this.scheduleRedemptions(a, ts, rng);
        holdings.drop(a);
        tables.addOp(ts, OP_RESOLUTION, -1, a, 0);
        return;
      case ITEM_REDEEM:
        tables.addOp(ts, OP_REDEEM, a, b, items.x[i]!, items.y[i]!);
        return;
      default:
        throw new Error(`unknown planned item kind ${items.kind[i]}`);
    }
  }

  private merge(ts: number, w: number, m: number, amount: number): void {
    const book = this.ctx.holdings.book(m);
    book.add(w, YES, -amount);
    book.add(w, NO, -amount);
    this.ctx.tables.addOp(ts, OP_MERGE, w, m, amount);
  }

  /**
   * convertPositions(marketId, indexSet, amount): the NO of every question in the set is given up; the wallet
   * receives amount - fee YES of every other question and (noCount - 1) * (amount - fee) collateral.
   */
  private convert(ts: number, w: number, e: number, rng: Rng): void {
    const event = this.ctx.catalog.events[e]!;
    const held = event.marketIndexes.map((m) => this.ctx.holdings.book(m).shares(w, NO));
    // Amounts are whole lots after the fee: with a fee, convert in units of 100 shares.
    const unit = event.convertFeeBips > 0 ? 100_000_000 : LOT;
    let chosen = held.map((h, q) => ({ h, q })).filter((x) => x.h >= unit);
    if (chosen.length === 0) return;
    if (chosen.length === held.length) chosen = chosen.sort((x, y) => y.h - x.h || x.q - y.q).slice(0, held.length - 1);
    const least = Math.min(...chosen.map((x) => x.h));
    const amount = Math.floor((least * rng.between(0.5, 1)) / unit) * unit;
    if (amount < unit) return;
    const fee = (amount * event.convertFeeBips) / 10_000;
    let indexSet = 0;
    for (const { q } of chosen) indexSet |= 1 << q;
    event.marketIndexes.forEach((m, q) => {
      const book = this.ctx.holdings.book(m);
      if (indexSet & (1 << q)) book.add(w, NO, -amount);
      else book.add(w, YES, amount - fee);
    });
    this.ctx.tables.addOp(ts, OP_CONVERSION, w, event.marketIndexes[0]!, amount, 0, indexSet);
  }

  private scheduleRedemptions(m: number, resolvedAt: number, rng: Rng): void {
    const { holdings, catalog, pop, o } = this.ctx;
    if (!holdings.has(m)) return;
    const book = holdings.book(m);
    const truth = catalog.markets[m]!.truth;
    const day = Math.floor((resolvedAt - o.start) / DAY);
    book.wallets.forEach((w, slot) => {
      const y = book.balances[0][slot]!;
      const n = book.balances[1][slot]!;
      if (y + n === 0) return;
      const wins = truth === 2 || (truth === YES ? y > 0 : n > 0);
      const p = PROFILES[WALLET_ARCHETYPES[pop.archetypeCode[w]!]!];
      if (!rng.chance(wins ? p.redeemWin : p.redeemLose)) return;
      const at = day + 1 + Math.floor(rng.exponential(2));
      const ts = randomInstant(rng, o.start + at * DAY, o.start + (at + 1) * DAY);
      if (ts < 0 || ts >= o.end) return;
      push(this.future, at, { ts, kind: ITEM_REDEEM, a: w, b: m, x: y, y: n });
    });
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
