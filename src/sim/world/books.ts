/**
 * Share holdings per market during generation: for each wallet that ever held a token of the market, its YES
 * and NO balance (micro-units). Books of resolved markets are dropped, so memory follows the live markets.
 * Balances never go negative: `add` throws if asked to, which is the generator's own guard of the invariant
 * "a wallet never sells more shares than it holds".
 */
import type { Rng } from "./random.js";

export class MarketBook {
  private readonly slotOf = new Map<number, number>();
  readonly wallets: number[] = [];
  readonly balances: [number[], number[]] = [[], []];

  shares(wallet: number, outcome: number): number {
    const slot = this.slotOf.get(wallet);
    return slot === undefined ? 0 : this.balances[outcome]![slot]!;
  }

  add(wallet: number, outcome: number, delta: number): void {
    let slot = this.slotOf.get(wallet);
    if (slot === undefined) {
      slot = this.wallets.length;
      this.slotOf.set(wallet, slot);
      this.wallets.push(wallet);
      this.balances[0].push(0);
      this.balances[1].push(0);
    }
    const next = this.balances[outcome]![slot]! + delta;
    if (next < 0) throw new Error(`wallet ${wallet} would hold ${next} shares of outcome ${outcome}`);
    this.balances[outcome]![slot] = next;
  }

  /** A random holder of at least `min` shares of `outcome` that passes `eligible`, or -1 after `tries` misses. */
  randomHolder(outcome: number, min: number, rng: Rng, tries: number, eligible: (wallet: number) => boolean): number {
    const n = this.wallets.length;
    if (n === 0) return -1;
    const held = this.balances[outcome]!;
    for (let t = 0; t < tries; t++) {
      const slot = rng.int(n);
      const wallet = this.wallets[slot]!;
      if (held[slot]! >= min && eligible(wallet)) return wallet;
    }
    return -1;
  }
}

export class Holdings {
  private readonly books: (MarketBook | undefined)[];

  constructor(marketCount: number) {
    this.books = new Array(marketCount).fill(undefined);
  }

  book(market: number): MarketBook {
    let b = this.books[market];
    if (!b) this.books[market] = b = new MarketBook();
    return b;
  }

  has(market: number): boolean {
    return this.books[market] !== undefined;
  }

  drop(market: number): void {
    this.books[market] = undefined;
  }
}
