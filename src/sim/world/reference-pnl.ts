/**
 * The venue's own per-wallet numbers, by the venue's reference P&L method (docs/METRICS.md, positions and P&L, the P&L
 * subgraph), in exact integer arithmetic on 6-decimal units: BigInt semantics (division truncates toward zero),
 * done in Number while the intermediate products are safe integers and in BigInt when they are not.
 *
 * Choices where the method leaves room:
 * - a conversion books the YES it yields at `amount - fee` (the shares actually received), so a position's
 *   size always equals the wallet's token balance;
 * - P&L points mark open positions at the market's price at that instant, resolved ones at their payout;
 * - rewards are not position P&L and are left out.
 */
import { OP_CONVERSION, OP_MERGE, OP_REDEEM, OP_SPLIT, type OutcomeIndex } from "./types.js";
import type { World } from "./world.js";

export const SCALE = 1_000_000;
const HALF = 500_000;
const DAY = 86_400;

/** One (wallet, token) row of the subgraph: all integers in micro-units. */
export interface LedgerPosition {
  amount: number;
  avgPrice: number;
  totalBought: number;
  realizedPnl: number;
  firstTs: number;
  lastTs: number;
}

const isSafe = Number.isSafeInteger;

/** trunc(a * b / c) exactly, for integers (BigInt semantics). */
export function mulDivTrunc(a: number, b: number, c: number): number {
  const p = a * b;
  if (isSafe(p)) return (p - (p % c)) / c;
  return Number((BigInt(a) * BigInt(b)) / BigInt(c));
}

export function newPosition(ts = 0): LedgerPosition {
  return { amount: 0, avgPrice: 0, totalBought: 0, realizedPnl: 0, firstTs: ts, lastTs: ts };
}

/** Buy q at price: avgPrice = (avgPrice * amount + price * q) / (amount + q); amount += q; totalBought += q. */
export function ledgerBuy(p: LedgerPosition, price: number, q: number, ts = p.lastTs): void {
  if (q <= 0) return;
  const a = p.avgPrice * p.amount;
  const b = price * q;
  const den = p.amount + q;
  if (isSafe(a) && isSafe(b) && isSafe(a + b)) {
    const num = a + b;
    p.avgPrice = (num - (num % den)) / den;
  } else {
    p.avgPrice = Number((BigInt(p.avgPrice) * BigInt(p.amount) + BigInt(price) * BigInt(q)) / BigInt(den));
  }
  p.amount = den;
  p.totalBought += q;
  p.lastTs = ts;
}

/** Sell q at price: q' = min(q, amount); realizedPnl += q' * (price - avgPrice); amount -= q'. */
export function ledgerSell(p: LedgerPosition, price: number, q: number, ts = p.lastTs): void {
  const sold = Math.min(q, p.amount);
  p.realizedPnl += mulDivTrunc(sold, price - p.avgPrice, SCALE);
  p.amount -= sold;
  p.lastTs = ts;
}

/** Price of each YES a NegRisk conversion yields: (noPrice * noCount - (noCount - 1)) / (questionCount - noCount). */
export function negRiskYesPrice(noPrice: number, noCount: number, questionCount: number): number {
  const num = noPrice * noCount - SCALE * (noCount - 1);
  const den = questionCount - noCount;
  return (num - (num % den)) / den;
}

/** A wallet's subgraph positions keyed by token index (market * 2 + outcome). */
export class ReferenceLedger {
  readonly positions = new Map<number, LedgerPosition>();

  get(token: number, ts: number): LedgerPosition {
    let p = this.positions.get(token);
    if (!p) this.positions.set(token, (p = newPosition(ts)));
    return p;
  }

  buy(token: number, price: number, q: number, ts: number): void {
    ledgerBuy(this.get(token, ts), price, q, ts);
  }

  sell(token: number, price: number, q: number, ts: number): void {
    ledgerSell(this.get(token, ts), price, q, ts);
  }

  /** Split of collateral = buy of both outcomes at 0.50. */
  split(market: number, amount: number, ts: number): void {
    this.buy(market * 2, HALF, amount, ts);
    this.buy(market * 2 + 1, HALF, amount, ts);
  }

  /** Merge = sell of both outcomes at 0.50. */
  merge(market: number, amount: number, ts: number): void {
    this.sell(market * 2, HALF, amount, ts);
    this.sell(market * 2 + 1, HALF, amount, ts);
  }

  /** Redemption = sell of the held amount of each outcome at its payout price. */
  redeem(market: number, payoutYes: number, payoutNo: number, ts: number): void {
    const yes = this.get(market * 2, ts);
    ledgerSell(yes, payoutYes, yes.amount, ts);
    const no = this.get(market * 2 + 1, ts);
    ledgerSell(no, payoutNo, no.amount, ts);
  }

  /** convertPositions over an event's markets (question i = eventMarkets[i]). */
  convert(eventMarkets: readonly number[], indexSet: number, amount: number, feeBips: number, ts: number): void {
    let noCount = 0;
    let noPriceSum = 0;
    eventMarkets.forEach((m, q) => {
      if (!(indexSet & (1 << q))) return;
      const no = this.get(m * 2 + 1, ts);
      noCount++;
      noPriceSum += no.avgPrice;
      ledgerSell(no, no.avgPrice, amount, ts);
    });
    if (noCount === 0 || eventMarkets.length <= noCount) return;
    const noPrice = Math.trunc(noPriceSum / noCount);
    const yesPrice = negRiskYesPrice(noPrice, noCount, eventMarkets.length);
    const received = amount - mulDivTrunc(amount, feeBips, 10_000);
    eventMarkets.forEach((m, q) => {
      if (!(indexSet & (1 << q))) this.buy(m * 2, yesPrice, received, ts);
    });
  }
}

/** A /positions row (numbers in USD and shares, as the Data API gives them) plus the exact micro state. */
export interface ReferencePosition {
  wallet: number;
  market: number;
  token: number;
  outcome: OutcomeIndex;
  size: number;
  avgPrice: number;
  initialValue: number;
  currentValue: number;
  cashPnl: number;
  percentPnl: number;
  totalBought: number;
  realizedPnl: number;
  /** realizedPnl / (avgPrice * totalBought) * 100 (our reading of the field). */
  percentRealizedPnl: number;
  curPrice: number;
  redeemable: boolean;
  mergeable: boolean;
  firstTs: number;
  lastTs: number;
  micro: LedgerPosition;
}

/** A /closed-positions row: shares reached zero by selling, merging, converting or redeeming. */
export interface ReferenceClosedPosition {
  wallet: number;
  market: number;
  token: number;
  outcome: OutcomeIndex;
  avgPrice: number;
  totalBought: number;
  realizedPnl: number;
  curPrice: number;
  /** When the position closed (its last change). */
  timestamp: number;
  micro: LedgerPosition;
}

export interface PnlPoint {
  t: number;
  p: number;
}

export interface WalletReference {
  wallet: number;
  asOf: number;
  positions: ReferencePosition[];
  closedPositions: ReferenceClosedPosition[];
  /** Lifetime P&L: one point per UTC midnight from the wallet's first day, then one at asOf. */
  curve: PnlPoint[];
  realizedPnl: number;
  unrealizedPnl: number;
  totalPnl: number;
}

/** Replays wallet w's fills and operations up to `asOf` (default: the world's end) by the reference method. */
export function referencePnl(world: World, w: number, asOf: number = world.end): WalletReference {
  const t = world.tables;
  const fills = world.fillsOfWallet(w);
  const ops = world.opsOfWallet(w);
  const ledger = new ReferenceLedger();
  const curve: PnlPoint[] = [];
  const realized = () => {
    let s = 0;
    for (const p of ledger.positions.values()) s += p.realizedPnl;
    return s;
  };
  const unrealized = (at: number) => {
    let s = 0;
    for (const [token, p] of ledger.positions)
      if (p.amount > 0) s += (p.amount * (world.markPrice(token >> 1, token & 1, at) - p.avgPrice)) / SCALE;
    return s;
  };
  const point = (at: number) => curve.push({ t: at, p: Math.round(realized() + unrealized(at)) / SCALE });

  let fi = 0;
  let oi = 0;
  let nextMidnight = -1;
  for (;;) {
    if (fi === fills.length && oi === ops.length) break;
    const fTs = fi < fills.length ? t.matchTs[t.fillMatch[fills[fi]!]!]! : Infinity;
    const oTs = oi < ops.length ? t.opTs[ops[oi]!]! : Infinity;
    const useFill = fTs < oTs || (fTs === oTs && world.fill(fills[fi]!).logIndex < t.opLogIndex[ops[oi]!]!);
    const ts = useFill ? fTs : oTs;
    if (ts > asOf) break;
    if (nextMidnight < 0) {
      nextMidnight = Math.floor(ts / DAY) * DAY;
      curve.push({ t: nextMidnight, p: 0 });
      nextMidnight += DAY;
    }
    while (nextMidnight < ts) {
      point(nextMidnight);
      nextMidnight += DAY;
    }
    if (useFill) applyFill(world, ledger, fills[fi++]!, ts);
    else applyOp(world, ledger, ops[oi++]!, ts);
  }
  if (nextMidnight >= 0) {
    for (; nextMidnight <= asOf; nextMidnight += DAY) point(nextMidnight);
    if (curve[curve.length - 1]!.t !== asOf) point(asOf);
  }
  return summarise(world, w, ledger, curve, asOf);
}

function applyFill(world: World, ledger: ReferenceLedger, f: number, ts: number): void {
  const t = world.tables;
  const market = t.matchMarket[t.fillMatch[f]!]!;
  const flags = t.fillFlags[f]!;
  const token = market * 2 + (flags & 1);
  if (flags & 2) ledger.sell(token, world.fillPrice(f), t.fillSize[f]!, ts);
  else ledger.buy(token, world.fillPrice(f), t.fillSize[f]!, ts);
}

function applyOp(world: World, ledger: ReferenceLedger, i: number, ts: number): void {
  const t = world.tables;
  const market = t.opMarket[i]!;
  switch (t.opType[i]) {
    case OP_SPLIT:
      return ledger.split(market, t.opAmount[i]!, ts);
    case OP_MERGE:
      return ledger.merge(market, t.opAmount[i]!, ts);
    case OP_REDEEM: {
      const truth = world.markets[market]!.truth;
      const yes = truth === 0 ? SCALE : truth === 1 ? 0 : HALF;
      return ledger.redeem(market, yes, SCALE - yes, ts);
    }
    case OP_CONVERSION: {
      const event = world.events[world.markets[market]!.eventIndex]!;
      return ledger.convert(event.marketIndexes, t.opAux[i]!, t.opAmount[i]!, event.convertFeeBips, ts);
    }
    default:
  }
}

function summarise(world: World, w: number, ledger: ReferenceLedger, curve: PnlPoint[], asOf: number): WalletReference {
  const positions: ReferencePosition[] = [];
  const closedPositions: ReferenceClosedPosition[] = [];
  let realizedPnl = 0;
  let unrealizedPnl = 0;
  const tokens = [...ledger.positions.keys()].sort((a, b) => a - b);
  for (const token of tokens) {
    const p = ledger.positions.get(token)!;
    const market = token >> 1;
    const outcome = (token & 1) as OutcomeIndex;
    const curPrice = world.markPrice(market, outcome, asOf) / SCALE;
    realizedPnl += p.realizedPnl;
    if (p.amount > 0) {
      const m = world.markets[market]!;
      const resolved = m.resolvedAt !== null && m.resolvedAt <= asOf;
      const size = p.amount / SCALE;
      const avgPrice = p.avgPrice / SCALE;
      const initialValue = size * avgPrice;
      const currentValue = size * curPrice;
      const cashPnl = currentValue - initialValue;
      unrealizedPnl += (p.amount * (world.markPrice(market, outcome, asOf) - p.avgPrice)) / SCALE;
      const basis = (p.avgPrice / SCALE) * (p.totalBought / SCALE);
      positions.push({
        wallet: w,
        market,
        token,
        outcome,
        size,
        avgPrice,
        initialValue,
        currentValue,
        cashPnl,
        percentPnl: initialValue !== 0 ? (cashPnl / initialValue) * 100 : 0,
        totalBought: p.totalBought / SCALE,
        realizedPnl: p.realizedPnl / SCALE,
        percentRealizedPnl: basis !== 0 ? (p.realizedPnl / SCALE / basis) * 100 : 0,
        curPrice,
        redeemable: resolved,
        mergeable: !resolved && (ledger.positions.get(token ^ 1)?.amount ?? 0) > 0,
        firstTs: p.firstTs,
        lastTs: p.lastTs,
        micro: { ...p },
      });
    } else if (p.totalBought > 0) {
      closedPositions.push({
        wallet: w,
        market,
        token,
        outcome,
        avgPrice: p.avgPrice / SCALE,
        totalBought: p.totalBought / SCALE,
        realizedPnl: p.realizedPnl / SCALE,
        curPrice,
        timestamp: p.lastTs,
        micro: { ...p },
      });
    }
  }
  const totalPnl = Math.round(realizedPnl + unrealizedPnl) / SCALE;
  return {
    wallet: w,
    asOf,
    positions,
    closedPositions,
    curve,
    realizedPnl: realizedPnl / SCALE,
    unrealizedPnl: unrealizedPnl / SCALE,
    totalPnl,
  };
}
