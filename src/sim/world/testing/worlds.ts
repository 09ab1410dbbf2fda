/**
 * Helpers for the world's tests: small worlds, and an independent checker of the world's invariants that
 * replays every transaction in chain order (it shares no code with the generator's own balance keeping).
 */
import { exchangeVersion, matchLogCount, opLogLayout } from "../chain.js";
import { FLAG_NO, FLAG_SELL, FLAG_TAKER } from "../columns.js";
import { notionalMicro, takerFeeMicro } from "../fees.js";
import { generateWorld } from "../generate.js";
import { COMPLEMENTARY, MERGE, MINT, type WorldOptions } from "../types.js";
import type { World } from "../world.js";

/** 2026-06-01: a 60-day test world spans the V1 to V2 cutover of 2026-04-28. */
export const TEST_END = Date.UTC(2026, 5, 1) / 1000;

export function smallWorld(seed: number | string, overrides: Partial<WorldOptions> = {}): World {
  return generateWorld({ seed, end: TEST_END, markets: 60, wallets: 400, fills: 12_000, days: 60, ...overrides });
}

interface Tx {
  ts: number;
  logIndex: number;
  logCount: number;
  txIndex: number;
  kind: "match" | "op";
  index: number;
}

/** Every transaction in chain order (timestamp, then log index). */
export function chainOrder(world: World): Tx[] {
  const t = world.tables;
  const txs: Tx[] = [];
  for (let j = 0; j < t.matchCount; j++) {
    const [from, to] = world.fillsOfMatch(j);
    txs.push({
      ts: t.matchTs[j]!,
      logIndex: t.matchLogIndex[j]!,
      logCount: matchLogCount(to - from, world.match(j).type, world.match(j).exchangeVersion),
      txIndex: t.matchTxIndex[j]!,
      kind: "match",
      index: j,
    });
  }
  for (let i = 0; i < t.opCount; i++)
    txs.push({
      ts: t.opTs[i]!,
      logIndex: t.opLogIndex[i]!,
      logCount: opLogLayout(
        world.op(i).type,
        exchangeVersion(t.opTs[i]!),
        t.opMarket[i]! >= 0 && world.markets[t.opMarket[i]!]!.negRisk,
      ).count,
      txIndex: t.opTxIndex[i]!,
      kind: "op",
      index: i,
    });
  return txs.sort((a, b) => a.ts - b.ts || a.logIndex - b.logIndex);
}

/** All violated invariants (empty when the world is consistent); stops after `limit` findings. */
export function invariantViolations(world: World, limit = 20): string[] {
  const t = world.tables;
  const bad: string[] = [];
  const fail = (msg: string) => {
    if (bad.length < limit) bad.push(msg);
  };
  for (let j = 1; j < t.matchCount; j++) if (t.matchTs[j]! < t.matchTs[j - 1]!) fail(`match ${j} goes back in time`);
  for (let i = 1; i < t.opCount; i++) if (t.opTs[i]! < t.opTs[i - 1]!) fail(`op ${i} goes back in time`);

  const balance = new Map<number, number>();
  const key = (w: number, token: number) => w * world.markets.length * 2 + token;
  const move = (w: number, token: number, delta: number, what: string) => {
    const next = (balance.get(key(w, token)) ?? 0) + delta;
    if (next < 0) fail(`${what}: wallet ${w} token ${token} goes to ${next}`);
    balance.set(key(w, token), next);
  };
  let lastTs = -1;
  let lastEnd = 0;
  for (const tx of chainOrder(world)) {
    if (tx.ts === lastTs && tx.logIndex < lastEnd)
      fail(`${tx.kind} ${tx.index}: log ${tx.logIndex} overlaps the previous transaction`);
    lastEnd = tx.ts === lastTs ? tx.logIndex + tx.logCount : tx.logCount;
    lastTs = tx.ts;
    if (tx.kind === "match") checkMatch(world, tx.index, move, fail);
    else checkOp(world, tx.index, move, (w, token) => balance.get(key(w, token)) ?? 0, fail);
  }
  return bad;
}

type Move = (w: number, token: number, delta: number, what: string) => void;

function checkMatch(world: World, j: number, move: Move, fail: (msg: string) => void): void {
  const t = world.tables;
  const [from, to] = world.fillsOfMatch(j);
  const m = t.matchMarket[j]!;
  const market = world.markets[m]!;
  const ts = t.matchTs[j]!;
  const what = `match ${j}`;
  if (to - from < 2) fail(`${what} has ${to - from} fills`);
  if (ts < Math.max(market.startDate, world.start) || ts >= market.tradingStop)
    fail(`${what} trades market ${m} outside its window`);
  const price = t.matchPrice[j]!;
  if (price % 10_000 !== 0 || price < 10_000 || price > 990_000) fail(`${what} price ${price} off the tick`);
  const taker = to - 1;
  const tf = t.fillFlags[taker]!;
  if (!(tf & FLAG_TAKER)) fail(`${what}: last fill is not the taker's`);
  const type = t.matchType[j]!;
  let makerTotal = 0;
  const seen = new Set<number>();
  for (let f = from; f < taker; f++) {
    const mf = t.fillFlags[f]!;
    if (mf & FLAG_TAKER) fail(`${what}: maker fill ${f} flagged taker`);
    if (world.fillFee(f) !== 0) fail(`${what}: maker fill ${f} pays a fee`);
    if (t.fillWallet[f] === t.fillWallet[taker] || seen.has(t.fillWallet[f]!))
      fail(`${what}: maker ${t.fillWallet[f]} repeats or is the taker`);
    seen.add(t.fillWallet[f]!);
    const sameOutcome = (mf & FLAG_NO) === (tf & FLAG_NO);
    const sameSide = (mf & FLAG_SELL) === (tf & FLAG_SELL);
    if (type === MINT && !(sameSide && !sameOutcome && !(tf & FLAG_SELL)))
      fail(`${what}: MINT fill ${f} is not a buy of the complement`);
    if (type === MERGE && !(sameSide && !sameOutcome && tf & FLAG_SELL))
      fail(`${what}: MERGE fill ${f} is not a sell of the complement`);
    if (type === COMPLEMENTARY && !(sameOutcome && !sameSide))
      fail(`${what}: COMPLEMENTARY fill ${f} is not the opposite side of the same token`);
    const expected = sameOutcome ? price : 1_000_000 - price;
    if (world.fillPrice(f) !== expected) fail(`${what}: maker price ${world.fillPrice(f)} != ${expected}`);
    makerTotal += t.fillSize[f]!;
  }
  for (let f = from; f < to; f++) {
    const size = t.fillSize[f]!;
    if (!(size > 0) || size % 10_000 !== 0) fail(`${what}: fill ${f} size ${size}`);
    if (BigInt(notionalMicro(size, world.fillPrice(f))) * 1_000_000n !== BigInt(size) * BigInt(world.fillPrice(f)))
      fail(`${what}: fill ${f} collateral is not whole micro-units`);
    const token = m * 2 + (t.fillFlags[f]! & FLAG_NO ? 1 : 0);
    move(t.fillWallet[f]!, token, t.fillFlags[f]! & FLAG_SELL ? -size : size, `${what} fill ${f}`);
  }
  if (makerTotal !== t.fillSize[taker]) fail(`${what}: taker size ${t.fillSize[taker]} != makers ${makerTotal}`);
  if (world.fillFee(taker) !== takerFeeMicro(t.fillSize[taker]!, price, market.fee.rateBps))
    fail(`${what}: taker fee off the formula`);
}

function checkOp(
  world: World,
  i: number,
  move: Move,
  held: (w: number, token: number) => number,
  fail: (msg: string) => void,
): void {
  const op = world.op(i);
  const what = `op ${i} ${op.type}`;
  const m = op.market;
  switch (op.type) {
    case "SPLIT":
    case "MERGE": {
      const sign = op.type === "SPLIT" ? 1 : -1;
      move(op.wallet, m * 2, sign * op.amount, what);
      move(op.wallet, m * 2 + 1, sign * op.amount, what);
      if (op.ts >= world.markets[m]!.tradingStop && op.type === "SPLIT") fail(`${what} after trading stopped`);
      break;
    }
    case "REDEEM": {
      const market = world.markets[m]!;
      if (market.resolvedAt === null || op.ts <= market.resolvedAt) fail(`${what} before resolution`);
      if (held(op.wallet, m * 2) !== op.amount || held(op.wallet, m * 2 + 1) !== op.amount2)
        fail(`${what} does not redeem the whole balance`);
      move(op.wallet, m * 2, -op.amount, what);
      move(op.wallet, m * 2 + 1, -op.amount2, what);
      break;
    }
    case "CONVERSION": {
      const event = world.events[world.markets[m]!.eventIndex]!;
      const fee = (op.amount * event.convertFeeBips) / 10_000;
      let noCount = 0;
      event.marketIndexes.forEach((q, bit) => {
        if (op.indexSet & (1 << bit)) {
          noCount++;
          move(op.wallet, q * 2 + 1, -op.amount, what);
        } else move(op.wallet, q * 2, op.amount - fee, what);
      });
      if (!event.negRisk || noCount === 0 || noCount >= event.marketIndexes.length)
        fail(`${what}: indexSet ${op.indexSet} of ${event.marketIndexes.length} questions`);
      break;
    }
    default:
  }
}

/** Token balances (micro) of wallet w after every transaction, replayed independently of the generator. */
export function balancesOf(world: World, w: number): Map<number, number> {
  const t = world.tables;
  const out = new Map<number, number>();
  const add = (token: number, delta: number) => out.set(token, (out.get(token) ?? 0) + delta);
  for (const f of world.fillsOfWallet(w)) {
    const token = t.matchMarket[t.fillMatch[f]!]! * 2 + (t.fillFlags[f]! & FLAG_NO ? 1 : 0);
    add(token, t.fillFlags[f]! & FLAG_SELL ? -t.fillSize[f]! : t.fillSize[f]!);
  }
  for (const i of world.opsOfWallet(w)) {
    const op = world.op(i);
    const m = op.market;
    if (op.type === "SPLIT" || op.type === "MERGE") {
      const sign = op.type === "SPLIT" ? 1 : -1;
      add(m * 2, sign * op.amount);
      add(m * 2 + 1, sign * op.amount);
    } else if (op.type === "REDEEM") {
      add(m * 2, -op.amount);
      add(m * 2 + 1, -op.amount2);
    } else if (op.type === "CONVERSION") {
      const event = world.events[world.markets[m]!.eventIndex]!;
      event.marketIndexes.forEach((q, bit) =>
        op.indexSet & (1 << bit)
          ? add(q * 2 + 1, -op.amount)
          : add(q * 2, op.amount - (op.amount * event.convertFeeBips) / 10_000),
      );
    }
  }
  return out;
}
