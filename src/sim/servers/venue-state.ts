/**
 * The simulated venue's shared state: its world, its clock, the live feed that keeps the world trading, and
 * the derived numbers several endpoints share (market volumes, per-wallet reference P&L), cached per instant.
 *
 * Without live mode the venue's clock stands still at `now` (default: the world's end), so every answer is a
 * pure function of the options. In live mode the clock is the wall clock (never before the world's end) and
 * every answer first advances the world to it.
 */
import {
  FLAG_NO,
  FLAG_SELL,
  MERGE,
  MINT,
  OP_MERGE,
  OP_SPLIT,
  notionalMicro,
  referencePnl,
  startLive,
  type LiveAppend,
  type LiveFeed,
  type WalletReference,
  type World,
} from "../world/index.js";

const DAY = 86_400;
/** Live mode continues from the world's end when the wall clock is at most this far past it, else from now. */
const MAX_CATCH_UP_SECONDS = 2 * DAY;

export interface LiveModeOptions {
  /** Average new matches per second. */
  matchesPerSecond: number;
  /** Unix seconds to continue from (default: the world's end, or now when that is over two days ago). */
  from?: number;
}

export interface VenueStateOptions {
  /** The venue's fixed clock without live mode (unix seconds, never before the world's end). */
  now?: number;
  live?: LiveModeOptions | null;
  /** Wall clock in ms (tests pass a manual one). */
  clockMs?: () => number;
}

export interface MarketState {
  /** Trading has stopped (resolved or closed-but-pending). */
  closed: boolean;
  resolved: boolean;
}

export interface MarketStats {
  /**
   * Traded notional (the taker side of each match), USD, summed match by match in floating point as the venue's own
   * sums are: they carry its float noise (Gamma writes volumes such as 64234.19264499972).
   */
  volume: Float64Array;
  volume24h: Float64Array;
  volume1wk: Float64Array;
  volume1mo: Float64Array;
  volume1yr: Float64Array;
  /** YES price of the last match, micro; -1 before the first. */
  lastYesPrice: Int32Array;
  /** Outstanding YES+NO pairs (collateral locked), micro. */
  openInterest: Float64Array;
}

export class VenueState {
  readonly liveFeed: LiveFeed | null;
  /** The instant live mode started (unix seconds); null without live mode. */
  readonly liveStart: number | null;
  private readonly clockMs: () => number;
  private readonly fixedNow: number;
  private readonly listeners = new Set<(append: LiveAppend) => void>();
  private statsCache: { key: string; stats: MarketStats } | null = null;
  private readonly referenceCache = new Map<string, WalletReference>();

  constructor(
    readonly world: World,
    options: VenueStateOptions = {},
  ) {
    this.clockMs = options.clockMs ?? Date.now;
    this.fixedNow = Math.max(world.end, options.now ?? world.end);
    if (options.live) {
      const wall = this.wallNow();
      const from = options.live.from ?? (wall - world.end <= MAX_CATCH_UP_SECONDS ? world.end : wall);
      this.liveFeed = startLive(world, { from, matchesPerSecond: options.live.matchesPerSecond });
      this.liveStart = wall;
    } else {
      this.liveFeed = null;
      this.liveStart = null;
    }
  }

  /**
   * Markets Gamma does not list yet (by market index): a new market's listing can lag its first trades on chain.
   * The chain and the Data API know them all the while.
   */
  readonly unlisted = new Set<number>();

  get isLive(): boolean {
    return this.liveFeed !== null;
  }

  private wallNow(): number {
    return Math.max(this.world.end, Math.floor(this.clockMs() / 1000));
  }

  /** The venue's current instant, unix seconds. */
  now(): number {
    return this.liveFeed ? this.wallNow() : this.fixedNow;
  }

  nowMs(): number {
    return this.liveFeed ? Math.max(this.world.end * 1000, this.clockMs()) : this.fixedNow * 1000;
  }

  /** Advances the live world to now and tells the listeners what was appended. */
  sync(): void {
    if (!this.liveFeed) return;
    const append = this.liveFeed.advanceTo(this.now());
    if (append.matches[1] > append.matches[0]) for (const listener of this.listeners) listener(append);
  }

  onAppend(listener: (append: LiveAppend) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  marketState(m: number, at: number = this.now()): MarketState {
    const market = this.world.markets[m]!;
    const resolved = market.resolvedAt !== null && market.resolvedAt <= at;
    return { resolved, closed: resolved || market.tradingStop <= at };
  }

  /** The venue's own numbers for wallet w as of now (docs/METRICS.md, positions and P&L), cached per instant and world size. */
  reference(w: number): WalletReference {
    const now = this.now();
    const key = `${w}|${now}|${this.world.fillCount}|${this.world.opCount}`;
    let ref = this.referenceCache.get(key);
    if (!ref) {
      if (this.referenceCache.size >= 2_000) this.referenceCache.clear();
      ref = referencePnl(this.world, w, now);
      this.referenceCache.set(key, ref);
    }
    return ref;
  }

  marketStats(): MarketStats {
    const now = this.now();
    const key = `${now}|${this.world.matchCount}|${this.world.opCount}`;
    if (this.statsCache?.key !== key) this.statsCache = { key, stats: computeMarketStats(this.world, now) };
    return this.statsCache.stats;
  }
}

function computeMarketStats(world: World, now: number): MarketStats {
  const n = world.markets.length;
  const t = world.tables;
  const stats: MarketStats = {
    volume: new Float64Array(n),
    volume24h: new Float64Array(n),
    volume1wk: new Float64Array(n),
    volume1mo: new Float64Array(n),
    volume1yr: new Float64Array(n),
    lastYesPrice: new Int32Array(n).fill(-1),
    openInterest: new Float64Array(n),
  };
  const windows: [Float64Array, number][] = [
    [stats.volume24h, DAY],
    [stats.volume1wk, 7 * DAY],
    [stats.volume1mo, 30 * DAY],
    [stats.volume1yr, 365 * DAY],
  ];
  for (let j = 0; j < t.matchCount; j++) {
    const m = t.matchMarket[j]!;
    const taker = t.fillEnd(j) - 1;
    const size = t.fillSize[taker]!;
    const price = t.matchPrice[j]!;
    const usd = notionalMicro(size, price) / 1e6;
    stats.volume[m]! += usd;
    for (const [column, span] of windows) if (t.matchTs[j]! > now - span) column[m]! += usd;
    stats.lastYesPrice[m] = t.fillFlags[taker]! & FLAG_NO ? 1_000_000 - price : price;
    if (t.matchType[j] === MINT) stats.openInterest[m]! += size;
    else if (t.matchType[j] === MERGE && t.fillFlags[taker]! & FLAG_SELL) stats.openInterest[m]! -= size;
  }
  for (let i = 0; i < t.opCount; i++) {
    const m = t.opMarket[i]!;
    if (t.opType[i] === OP_SPLIT) stats.openInterest[m]! += t.opAmount[i]!;
    else if (t.opType[i] === OP_MERGE) stats.openInterest[m]! -= t.opAmount[i]!;
  }
  for (let m = 0; m < n; m++) {
    const resolvedAt = world.markets[m]!.resolvedAt;
    if ((resolvedAt !== null && resolvedAt <= now) || stats.openInterest[m]! < 0) stats.openInterest[m] = 0;
  }
  return stats;
}
