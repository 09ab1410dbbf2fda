/**
 * The informed bets in the trading history: each goes in as a few orders over a couple of minutes (a large order
 * sweeps the resting orders a match at a time), from a random stream of its own. The fills a bet may take are
 * held back from the ordinary trading's budget until the bet goes in (`pendingReserve`), so that no bet finds the
 * budget spent and the world still ends at its fill target (short by up to about 0.5% when the last trading day's
 * matches come to fewer fills than its budget, or a bet in the last hours leaves part of its reserve unused).
 */
import type { SimContext, TradingEngine } from "./engine.js";
import type { InformedPlan } from "./informed.js";
import { notionalMicro } from "./fees.js";
import type { Rng } from "./random.js";
import { BLOCK_TIME_SECONDS } from "./chain.js";
import { ITEM_INFORMED_BET, type DayItems } from "./timeline.js";

/** Orders per bet, and the blocks between two of them (drawn). */
const ORDERS = 20;
const BLOCKS_BETWEEN: [number, number] = [1, 8];
/** Fills held back per bet from the ordinary trading (a bet's orders take about this many). */
const FILL_RESERVE = 40;
/** A bet is done once this share of its target is spent. */
const DONE = 0.97;

export class InformedTrading {
  pendingReserve: number;
  private readonly orderTs: number[] = [];
  private readonly orderBet: number[] = [];
  private next = 0;
  private readonly started: Uint8Array;

  constructor(
    private readonly ctx: SimContext,
    private readonly plan: InformedPlan,
    private readonly engine: TradingEngine,
    private readonly rng: Rng,
  ) {
    const orders: { ts: number; bet: number }[] = [];
    plan.bets.forEach((bet, b) => {
      let ts = bet.ts;
      for (let k = 0; k < ORDERS; k++) {
        orders.push({ ts, bet: b });
        ts += BLOCK_TIME_SECONDS * rng.intBetween(BLOCKS_BETWEEN[0], BLOCKS_BETWEEN[1]);
      }
    });
    orders.sort((a, b) => a.ts - b.ts || a.bet - b.bet);
    for (const o of orders) {
      this.orderTs.push(o.ts);
      this.orderBet.push(o.bet);
    }
    this.started = new Uint8Array(plan.bets.length);
    this.pendingReserve = plan.bets.length * FILL_RESERVE;
  }

  /** Puts the orders of [d0, d1) on the day's timeline. */
  planDay(d0: number, d1: number, items: DayItems): void {
    while (this.next < this.orderTs.length && this.orderTs[this.next]! < d0) this.next++;
    for (; this.next < this.orderTs.length && this.orderTs[this.next]! < d1; this.next++)
      items.push(this.orderTs[this.next]!, ITEM_INFORMED_BET, this.orderBet[this.next]!);
  }

  /** One order of bet b at ts, with at most `maxFills` fills. */
  execute(b: number, ts: number, maxFills: number): void {
    const { plan } = this;
    const bet = plan.bets[b]!;
    if (!this.started[b]) {
      this.started[b] = 1;
      this.pendingReserve -= FILL_RESERVE;
    }
    const left = bet.targetUsd * 1e6 - plan.spentMicro[b]!;
    if (left <= (1 - DONE) * bet.targetUsd * 1e6) return;
    const n = this.engine.placeBet(bet.wallet, bet.market, ts, bet.outcome, left / 1e6, this.rng, maxFills);
    if (n === 0) return;
    const t = this.ctx.tables;
    const taker = t.fillCount - 1;
    const size = t.fillSize[taker]!;
    plan.spentMicro[b] = plan.spentMicro[b]! + notionalMicro(size, t.matchPrice[t.matchCount - 1]!);
    plan.shares[b] = plan.shares[b]! + size;
    if (plan.firstTs[b] === 0) plan.firstTs[b] = ts;
    plan.lastTs[b] = ts;
  }
}
