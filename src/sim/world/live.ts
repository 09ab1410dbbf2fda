/**
 * Live mode: continues a generated world in real time, appending new matches (and their fills) with the same
 * engine and rules as the history. Each 2-second block draws its matches from its own seeded stream
 * (world seed, block number), and the balances carry over from the history, so the result depends only on the
 * world, the start instant, the rate and how far it has been advanced; never on the wall clock or on how the
 * advancing was split into calls. Live mode adds matches only: no resolutions, redemptions or other operations.
 */
import { Holdings } from "./books.js";
import { BLOCK_TIME_SECONDS, alignUp, blockAt, blockTimestamp } from "./chain.js";
import { TradingEngine } from "./engine.js";
import { FLAG_NO, FLAG_SELL } from "./columns.js";
import { Rng, searchCumulative } from "./random.js";
import { OP_CONVERSION, OP_MERGE, OP_REDEEM, OP_SPLIT } from "./types.js";
import type { World } from "./world.js";

export interface LiveOptions {
  /** Unix seconds to continue from; clamped to after the world's last transaction. */
  from: number;
  /** Average new matches per second (default 0.5). */
  matchesPerSecond?: number;
}

export interface LiveAppend {
  /** New matches [from, to) and their fills [from, to), in world indexes. */
  matches: [number, number];
  fills: [number, number];
}

export class LiveFeed {
  private readonly engine: TradingEngine;
  private readonly rate: number;
  private nextBlock: number;
  private readonly candidates: number[];
  private readonly cumulative: Float64Array;

  constructor(
    private readonly world: World,
    options: LiveOptions,
  ) {
    this.rate = options.matchesPerSecond ?? 0.5;
    if (!(this.rate >= 0)) throw new RangeError(`matchesPerSecond must be >= 0, got ${options.matchesPerSecond}`);
    const from = alignUp(Math.max(options.from, world.tables.lastTs + BLOCK_TIME_SECONDS));
    this.nextBlock = blockAt(from);
    this.candidates = world.markets
      .filter(
        (m) =>
          m.startDate <= from &&
          m.tradingStop > from &&
          world.audience.takerOffsets[m.index + 1]! > world.audience.takerOffsets[m.index]!,
      )
      .map((m) => m.index);
    this.cumulative = new Float64Array(this.candidates.length);
    let sum = 0;
    this.candidates.forEach((m, i) => (this.cumulative[i] = sum += world.markets[m]!.popularity));
    const holdings = rebuildHoldings(world, this.candidates);
    this.engine = new TradingEngine({
      o: world.options,
      catalog: { events: [...world.events], markets: [...world.markets], paths: [...world.paths] },
      pop: world.population,
      audience: world.audience,
      tables: world.tables,
      holdings,
    });
  }

  /** The instant up to which the world has been continued (the last generated block's time). */
  get cursor(): number {
    return blockTimestamp(this.nextBlock - 1);
  }

  /** Generates every block with a timestamp up to `ts` and appends its matches to the world. */
  advanceTo(ts: number): LiveAppend {
    const t = this.world.tables;
    const matches: [number, number] = [t.matchCount, t.matchCount];
    const fills: [number, number] = [t.fillCount, t.fillCount];
    const total = this.cumulative.length ? this.cumulative[this.cumulative.length - 1]! : 0;
    for (; blockTimestamp(this.nextBlock) <= ts; this.nextBlock++) {
      if (total === 0) continue;
      const blockTs = blockTimestamp(this.nextBlock);
      const rng = Rng.derive(this.world.key, "live", this.nextBlock);
      const n = rng.poisson(this.rate * BLOCK_TIME_SECONDS);
      for (let k = 0; k < n; k++) {
        for (let tries = 0; tries < 8; tries++) {
          const m = this.candidates[searchCumulative(this.cumulative, 0, this.cumulative.length, rng.next() * total)]!;
          if (this.world.markets[m]!.tradingStop <= blockTs) continue;
          if (this.engine.match(m, blockTs, rng) > 0) break;
        }
      }
    }
    matches[1] = t.matchCount;
    fills[1] = t.fillCount;
    return { matches, fills };
  }
}

export function startLive(world: World, options: LiveOptions): LiveFeed {
  return new LiveFeed(world, options);
}

/** Balances of the given markets after the world's history so far (fills and operations). */
export function rebuildHoldings(world: World, markets: readonly number[]): Holdings {
  const holdings = new Holdings(world.markets.length);
  const t = world.tables;
  for (const m of markets) {
    const totals = new Map<number, [number, number]>();
    const add = (w: number, outcome: number, delta: number) => {
      let v = totals.get(w);
      if (!v) totals.set(w, (v = [0, 0]));
      v[outcome as 0 | 1] += delta;
    };
    for (const j of world.matchesOfMarket(m)) {
      const [from, to] = world.fillsOfMatch(j);
      for (let f = from; f < to; f++) {
        const flags = t.fillFlags[f]!;
        add(t.fillWallet[f]!, flags & FLAG_NO ? 1 : 0, flags & FLAG_SELL ? -t.fillSize[f]! : t.fillSize[f]!);
      }
    }
    for (const i of world.opsOfMarket(m)) {
      const w = t.opWallet[i]!;
      const amount = t.opAmount[i]!;
      switch (t.opType[i]) {
        case OP_SPLIT:
          add(w, 0, amount);
          add(w, 1, amount);
          break;
        case OP_MERGE:
          add(w, 0, -amount);
          add(w, 1, -amount);
          break;
        case OP_REDEEM:
          add(w, 0, -amount);
          add(w, 1, -t.opAmount2[i]!);
          break;
        case OP_CONVERSION: {
          const event = world.events[world.markets[m]!.eventIndex]!;
          const q = event.marketIndexes.indexOf(m);
          if (t.opAux[i]! & (1 << q)) add(w, 1, -amount);
          else add(w, 0, amount - (amount * event.convertFeeBips) / 10_000);
          break;
        }
        default:
      }
    }
    const book = holdings.book(m);
    for (const [w, [y, n]] of totals) {
      if (y) book.add(w, 0, y);
      if (n) book.add(w, 1, n);
    }
  }
  return holdings;
}
