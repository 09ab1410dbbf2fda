/**
 * The generated world: metadata tables (events, markets, wallets) plus the columnar transaction history, with
 * plain-object views, time ranges, lazily built per-wallet and per-market indexes, and lazily derived hashes.
 * Indexes of wallets, markets, events, matches, fills and ops are stable: live mode only appends.
 */
import { createHash } from "node:crypto";
import type { Audience } from "./audience.js";
import type { Catalog } from "./catalog.js";
import { blockAt, exchangeAddress, exchangeVersion, matchMechanicsLogs, opLogLayout } from "./chain.js";
import { FLAG_NO, FLAG_SELL, FLAG_TAKER, type TradeTables } from "./columns.js";
import { notionalMicro, takerFeeMicro } from "./fees.js";
import type { FundingTransfers } from "./funding.js";
import type { InformedPlan } from "./informed.js";
import { ID_DOMAIN, bytes32, type Hex } from "./ids.js";
import { LazyGroupIndex, lowerBound } from "./indexes.js";
import type { Population } from "./population.js";
import { PRICE_SCALE, type PricePath } from "./prices.js";
import {
  MATCH_TYPES,
  OP_CONVERSION,
  OP_REDEEM,
  OP_TYPES,
  type FillView,
  type MatchView,
  type OpView,
  type ResolvedWorldOptions,
  type WorldEvent,
  type WorldMarket,
  type WorldWallet,
} from "./types.js";

const DAY = 86_400;

export class World {
  readonly start: number;
  /** The history's last instant (the `end` option); live mode appends after it. */
  readonly end: number;
  readonly events: readonly WorldEvent[];
  readonly markets: readonly WorldMarket[];
  readonly wallets: readonly WorldWallet[];
  /** Daily YES price paths, one per market. */
  readonly paths: readonly PricePath[];

  private readonly fillsByWallet: LazyGroupIndex;
  private readonly matchesByMarket: LazyGroupIndex;
  private readonly opsByWallet: LazyGroupIndex;
  private readonly opsByMarket: LazyGroupIndex;
  private lookups?: { wallet: Map<string, number>; condition: Map<string, number>; token: Map<string, number> };

  constructor(
    readonly options: ResolvedWorldOptions,
    /** The seed as two words: the key of every derived identifier. */
    readonly key: readonly [number, number],
    catalog: Catalog,
    /** Private traits of the wallets (for the simulation's own use: live mode, tests). */
    readonly population: Population,
    readonly audience: Audience,
    /** The columns. Valid up to their counts; arrays are replaced when live mode grows them. */
    readonly tables: TradeTables,
    /** The insiders' and decoys' bets (ground truth: informed.ts); Pelagic never sees it. */
    readonly informed: InformedPlan,
    /** Every collateral transfer that funded a wallet, in chain order, and the funding groups (funding.ts). */
    readonly funding: FundingTransfers,
  ) {
    this.start = options.start;
    this.end = options.end;
    this.events = catalog.events;
    this.markets = catalog.markets;
    this.wallets = population.wallets;
    this.paths = catalog.paths;
    const t = tables;
    this.fillsByWallet = new LazyGroupIndex(
      this.wallets.length,
      () => t.fillCount,
      (from, to, emit) => {
        const w = t.fillWallet;
        for (let i = from; i < to; i++) emit(w[i]!, i);
      },
    );
    this.matchesByMarket = new LazyGroupIndex(
      this.markets.length,
      () => t.matchCount,
      (from, to, emit) => {
        const m = t.matchMarket;
        for (let i = from; i < to; i++) emit(m[i]!, i);
      },
    );
    this.opsByWallet = new LazyGroupIndex(
      this.wallets.length,
      () => t.opCount,
      (from, to, emit) => {
        for (let i = from; i < to; i++) if (t.opWallet[i]! >= 0) emit(t.opWallet[i]!, i);
      },
    );
    this.opsByMarket = new LazyGroupIndex(
      this.markets.length,
      () => t.opCount,
      (from, to, emit) => {
        for (let i = from; i < to; i++) {
          const m = t.opMarket[i]!;
          if (m < 0) continue;
          if (t.opType[i] === OP_CONVERSION)
            for (const q of this.events[this.markets[m]!.eventIndex]!.marketIndexes) emit(q, i);
          else emit(m, i);
        }
      },
    );
  }

  get fillCount(): number {
    return this.tables.fillCount;
  }
  get matchCount(): number {
    return this.tables.matchCount;
  }
  get opCount(): number {
    return this.tables.opCount;
  }

  // ---- fills -------------------------------------------------------------------------------------------

  /** Price of fill i's token, micro-units. */
  fillPrice(i: number): number {
    const t = this.tables;
    const j = t.fillMatch[i]!;
    const takerFlags = t.fillFlags[t.fillEnd(j) - 1]!;
    return (t.fillFlags[i]! & FLAG_NO) === (takerFlags & FLAG_NO) ? t.matchPrice[j]! : PRICE_SCALE - t.matchPrice[j]!;
  }

  /** Taker fee of fill i in collateral micro-units (0 for makers). */
  fillFee(i: number): number {
    const t = this.tables;
    if (!(t.fillFlags[i]! & FLAG_TAKER)) return 0;
    const j = t.fillMatch[i]!;
    return takerFeeMicro(t.fillSize[i]!, t.matchPrice[j]!, this.markets[t.matchMarket[j]!]!.fee.rateBps);
  }

  fill(i: number): FillView {
    const t = this.tables;
    if (!(Number.isInteger(i) && i >= 0 && i < t.fillCount)) throw new RangeError(`no fill ${i}`);
    const j = t.fillMatch[i]!;
    const flags = t.fillFlags[i]!;
    const first = t.matchFirstFill[j]!;
    const end = t.fillEnd(j);
    const taker = (flags & FLAG_TAKER) !== 0;
    const market = t.matchMarket[j]!;
    const outcome = (flags & FLAG_NO ? 1 : 0) as 0 | 1;
    const size = t.fillSize[i]!;
    const price = this.fillPrice(i);
    const ts = t.matchTs[j]!;
    return {
      index: i,
      match: j,
      wallet: t.fillWallet[i]!,
      counterparty: taker ? t.fillWallet[first]! : t.fillWallet[end - 1]!,
      market,
      token: market * 2 + outcome,
      outcome,
      side: flags & FLAG_SELL ? "SELL" : "BUY",
      role: taker ? "taker" : "maker",
      size,
      price,
      usd: notionalMicro(size, price),
      fee: this.fillFee(i),
      ts,
      block: blockAt(ts),
      logIndex:
        t.matchLogIndex[j]! + matchMechanicsLogs(MATCH_TYPES[t.matchType[j]!]!, exchangeVersion(ts)) + (i - first),
      entryType: MATCH_TYPES[t.matchType[j]!]!,
      exchangeVersion: exchangeVersion(ts),
    };
  }

  /** Fills of match j: [from, to), makers first, the taker last. */
  fillsOfMatch(j: number): [number, number] {
    return [this.tables.matchFirstFill[j]!, this.tables.fillEnd(j)];
  }

  // ---- matches -----------------------------------------------------------------------------------------

  match(j: number): MatchView {
    const t = this.tables;
    if (!(Number.isInteger(j) && j >= 0 && j < t.matchCount)) throw new RangeError(`no match ${j}`);
    const ts = t.matchTs[j]!;
    const first = t.matchFirstFill[j]!;
    const end = t.fillEnd(j);
    const takerFlags = t.fillFlags[end - 1]!;
    return {
      index: j,
      ts,
      block: blockAt(ts),
      txIndex: t.matchTxIndex[j]!,
      logIndex: t.matchLogIndex[j]!,
      market: t.matchMarket[j]!,
      type: MATCH_TYPES[t.matchType[j]!]!,
      takerPrice: t.matchPrice[j]!,
      takerOutcome: (takerFlags & FLAG_NO ? 1 : 0) as 0 | 1,
      takerSide: takerFlags & FLAG_SELL ? "SELL" : "BUY",
      firstFill: first,
      fillCount: end - first,
      takerFill: end - 1,
      exchangeVersion: exchangeVersion(ts),
    };
  }

  /** Exchange contract that settled match j (per version and per negRisk). */
  exchangeOfMatch(j: number): string {
    const t = this.tables;
    return exchangeAddress(exchangeVersion(t.matchTs[j]!), this.markets[t.matchMarket[j]!]!.negRisk);
  }

  txHashOfMatch(j: number): Hex {
    return bytes32(this.key, ID_DOMAIN.txMatch, j);
  }

  /** The transaction of fill i (its match's). */
  txHashOfFill(i: number): Hex {
    return this.txHashOfMatch(this.tables.fillMatch[i]!);
  }

  /** Order hash of the order behind fill i. */
  orderHash(i: number): Hex {
    return bytes32(this.key, ID_DOMAIN.order, i);
  }

  /** Matches with ts in [from, to). */
  matchesBetween(from: number, to: number): [number, number] {
    const t = this.tables;
    return [lowerBound(t.matchTs, t.matchCount, from), lowerBound(t.matchTs, t.matchCount, to)];
  }

  matchesOfMarket(m: number): Int32Array {
    return this.matchesByMarket.of(m);
  }

  fillsOfWallet(w: number): Int32Array {
    return this.fillsByWallet.of(w);
  }

  // ---- non-trade operations ----------------------------------------------------------------------------

  op(i: number): OpView {
    const t = this.tables;
    if (!(Number.isInteger(i) && i >= 0 && i < t.opCount)) throw new RangeError(`no op ${i}`);
    const type = t.opType[i]!;
    const market = t.opMarket[i]!;
    const ts = t.opTs[i]!;
    const amount = t.opAmount[i]!;
    const amount2 = t.opAmount2[i]!;
    let payout = 0;
    if (type === OP_REDEEM) {
      const truth = this.markets[market]!.truth;
      payout = truth === 0 ? amount : truth === 1 ? amount2 : (amount + amount2) / 2;
    } else if (type === OP_CONVERSION) {
      const event = this.events[this.markets[market]!.eventIndex]!;
      const noCount = popCount(t.opAux[i]!);
      payout = (noCount - 1) * (amount - (amount * event.convertFeeBips) / 10_000);
    }
    return {
      index: i,
      type: OP_TYPES[type]!,
      wallet: t.opWallet[i]!,
      market,
      event: market >= 0 ? this.markets[market]!.eventIndex : -1,
      amount,
      amount2,
      indexSet: t.opAux[i]!,
      payout,
      ts,
      block: blockAt(ts),
      txIndex: t.opTxIndex[i]!,
      logIndex: t.opLogIndex[i]!,
      bookedLogIndex:
        t.opLogIndex[i]! +
        opLogLayout(OP_TYPES[type]!, exchangeVersion(ts), market >= 0 && this.markets[market]!.negRisk).booked,
    };
  }

  txHashOfOp(i: number): Hex {
    return bytes32(this.key, ID_DOMAIN.txOp, i);
  }

  /** The transaction of funding transfer i (world.funding). */
  txHashOfFunding(i: number): Hex {
    return bytes32(this.key, ID_DOMAIN.txFunding, i);
  }

  opsBetween(from: number, to: number): [number, number] {
    const t = this.tables;
    return [lowerBound(t.opTs, t.opCount, from), lowerBound(t.opTs, t.opCount, to)];
  }

  opsOfWallet(w: number): Int32Array {
    return this.opsByWallet.of(w);
  }

  /** Ops touching market m (a conversion touches every market of its event). */
  opsOfMarket(m: number): Int32Array {
    return this.opsByMarket.of(m);
  }

  // ---- prices and lookups ------------------------------------------------------------------------------

  /** The market's YES mid price (micro) at ts while it trades; after trading stops, its last price. */
  priceAt(m: number, ts: number): number {
    const market = this.markets[m]!;
    const at = Math.min(ts, market.tradingStop - 1);
    return this.paths[m]!.yesAt((at - this.start) / DAY);
  }

  /** Price (micro) of outcome's token at ts, settlement-aware: the payout once resolved. */
  markPrice(m: number, outcome: number, ts: number): number {
    const market = this.markets[m]!;
    if (market.resolvedAt !== null && ts >= market.resolvedAt) {
      if (market.truth === 2) return PRICE_SCALE / 2;
      return market.truth === outcome ? PRICE_SCALE : 0;
    }
    const yes = this.priceAt(m, ts);
    return outcome === 0 ? yes : PRICE_SCALE - yes;
  }

  tokenId(token: number): string {
    const market = this.markets[token >> 1]!;
    return token & 1 ? market.noTokenId : market.yesTokenId;
  }

  private maps() {
    if (!this.lookups) {
      const token = new Map<string, number>();
      for (const m of this.markets) {
        token.set(m.yesTokenId, m.index * 2);
        token.set(m.noTokenId, m.index * 2 + 1);
      }
      this.lookups = {
        wallet: new Map(this.wallets.map((w) => [w.proxyWallet, w.index])),
        condition: new Map(this.markets.map((m) => [m.conditionId, m.index])),
        token,
      };
    }
    return this.lookups;
  }

  /** Wallet index of a proxy address (any case), or -1. */
  walletIndex(address: string): number {
    return this.maps().wallet.get(address.toLowerCase()) ?? -1;
  }

  marketIndexByCondition(conditionId: string): number {
    return this.maps().condition.get(conditionId.toLowerCase()) ?? -1;
  }

  /** Token index (market * 2 + outcome) of a clob token id, or -1. */
  tokenIndex(tokenId: string): number {
    return this.maps().token.get(tokenId) ?? -1;
  }
}

function popCount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}

/** SHA-256 over the world's metadata and every column up to its count: equal digests mean identical worlds. */
export function worldDigest(world: World): string {
  const h = createHash("sha256");
  h.update(
    JSON.stringify({ options: world.options, events: world.events, markets: world.markets, wallets: world.wallets }),
  );
  for (const path of world.paths) {
    const state = path.state();
    h.update(new Uint8Array(state.buffer, state.byteOffset, state.byteLength));
  }
  const t = world.tables;
  const add = (a: ArrayBufferView & { BYTES_PER_ELEMENT: number }, count: number) =>
    h.update(new Uint8Array(a.buffer, a.byteOffset, count * a.BYTES_PER_ELEMENT));
  for (const a of [
    t.matchTs,
    t.matchMarket,
    t.matchPrice,
    t.matchType,
    t.matchFirstFill,
    t.matchLogIndex,
    t.matchTxIndex,
  ])
    add(a, t.matchCount);
  for (const a of [t.fillWallet, t.fillSize, t.fillFlags, t.fillMatch]) add(a, t.fillCount);
  for (const a of [
    t.opType,
    t.opWallet,
    t.opMarket,
    t.opAmount,
    t.opAmount2,
    t.opAux,
    t.opTs,
    t.opLogIndex,
    t.opTxIndex,
  ])
    add(a, t.opCount);
  const f = world.funding;
  h.update(JSON.stringify({ bets: world.informed.bets, groups: f.groups, from: f.from, to: f.to }));
  for (const a of [f.ts, f.amount, f.logIndex, f.txIndex, world.informed.spentMicro, world.informed.shares])
    add(a, a.length);
  return h.digest("hex");
}
