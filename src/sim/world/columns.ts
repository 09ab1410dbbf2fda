/**
 * Columnar storage of the world's transactions, in chronological order (by timestamp, then log index).
 *
 * Matches: ts, market, takerPrice (micro, of the taker's token), type (MatchType code), firstFill,
 * logIndex (of its first log), txIndex (in its block). The fills of match j are [firstFill[j], firstFill[j+1]):
 * the makers in order, then the taker.
 * Fills: wallet, size (micro shares), flags (bit 0 outcome NO, bit 1 side SELL, bit 2 taker), match.
 * A fill's price and fee are not stored: price is the match price for the taker's token and 1 - price for the
 * complement; the fee follows from the formula (fees.ts).
 * Ops (non-trade transactions): type, wallet, market, amount, amount2, aux (indexSet), ts, logIndex, txIndex.
 *
 * Arrays grow by doubling; readers must take `count`s as the valid length and must not keep an array across
 * appends (live mode replaces them when it grows).
 */
import { blockAt, exchangeVersion, matchLogCount, opLogLayout } from "./chain.js";
import { MATCH_TYPES, OP_TYPES } from "./types.js";

export const FLAG_NO = 1;
export const FLAG_SELL = 2;
export const FLAG_TAKER = 4;

function grown<T extends Int32Array | Uint32Array | Float64Array | Uint8Array | Uint16Array>(
  a: T,
  capacity: number,
): T {
  const next = new (a.constructor as new (n: number) => T)(capacity);
  next.set(a.length > capacity ? (a.subarray(0, capacity) as T) : a);
  return next;
}

export class TradeTables {
  matchCount = 0;
  matchTs: Uint32Array;
  matchMarket: Int32Array;
  matchPrice: Int32Array;
  matchType: Uint8Array;
  matchFirstFill: Int32Array;
  matchLogIndex: Uint16Array;
  matchTxIndex: Uint16Array;

  fillCount = 0;
  fillWallet: Int32Array;
  fillSize: Float64Array;
  fillFlags: Uint8Array;
  fillMatch: Int32Array;

  opCount = 0;
  opType: Uint8Array;
  opWallet: Int32Array;
  opMarket: Int32Array;
  opAmount: Float64Array;
  opAmount2: Float64Array;
  opAux: Int32Array;
  opTs: Uint32Array;
  opLogIndex: Uint16Array;
  opTxIndex: Uint16Array;

  /** Timestamp of the last appended transaction: appends must not go back in time. */
  lastTs = 0;
  private block = -1;
  private nextLog = 0;
  private nextTx = 0;

  constructor(
    matchCapacity: number,
    fillCapacity: number,
    opCapacity: number,
    /** Whether market m is a NegRisk market: its operations go through the NegRiskAdapter (opLogLayout). */
    private readonly isNegRisk: (m: number) => boolean = () => false,
  ) {
    const mc = Math.max(16, matchCapacity);
    const fc = Math.max(16, fillCapacity);
    const oc = Math.max(16, opCapacity);
    this.matchTs = new Uint32Array(mc);
    this.matchMarket = new Int32Array(mc);
    this.matchPrice = new Int32Array(mc);
    this.matchType = new Uint8Array(mc);
    this.matchFirstFill = new Int32Array(mc);
    this.matchLogIndex = new Uint16Array(mc);
    this.matchTxIndex = new Uint16Array(mc);
    this.fillWallet = new Int32Array(fc);
    this.fillSize = new Float64Array(fc);
    this.fillFlags = new Uint8Array(fc);
    this.fillMatch = new Int32Array(fc);
    this.opType = new Uint8Array(oc);
    this.opWallet = new Int32Array(oc);
    this.opMarket = new Int32Array(oc);
    this.opAmount = new Float64Array(oc);
    this.opAmount2 = new Float64Array(oc);
    this.opAux = new Int32Array(oc);
    this.opTs = new Uint32Array(oc);
    this.opLogIndex = new Uint16Array(oc);
    this.opTxIndex = new Uint16Array(oc);
  }

  /** Places a transaction of `logCount` logs at `ts`; returns its first log index (txIndex in `this.placedTx`). */
  private place(ts: number, logCount: number): number {
    if (ts < this.lastTs) throw new Error(`transactions must be appended in time order (${ts} < ${this.lastTs})`);
    const block = blockAt(ts);
    if (block !== this.block) {
      this.block = block;
      this.nextLog = 0;
      this.nextTx = 0;
    }
    const first = this.nextLog;
    this.nextLog += logCount;
    this.placedTx = this.nextTx++;
    if (this.nextLog > 0xffff || this.nextTx > 0xffff) throw new Error(`block ${block} overflows 65535 logs`);
    this.lastTs = ts;
    return first;
  }
  private placedTx = 0;

  /**
   * Appends a match: `makerCount` maker fills (wallets and sizes from the scratch arrays) then the taker's fill,
   * whose size is the makers' total. Maker outcome and side follow from the match type.
   */
  addMatch(
    ts: number,
    market: number,
    takerPrice: number,
    type: number,
    takerWallet: number,
    takerFlags: number,
    makerCount: number,
    makerWallets: Int32Array,
    makerSizes: Float64Array,
    makerFlags: number,
  ): number {
    if (this.matchCount === this.matchTs.length) this.growMatches(this.matchCount * 2);
    if (this.fillCount + makerCount + 1 > this.fillWallet.length) this.growFills((this.fillCount + makerCount + 1) * 2);
    const j = this.matchCount++;
    this.matchLogIndex[j] = this.place(ts, matchLogCount(makerCount + 1, MATCH_TYPES[type]!, exchangeVersion(ts)));
    this.matchTxIndex[j] = this.placedTx;
    this.matchTs[j] = ts;
    this.matchMarket[j] = market;
    this.matchPrice[j] = takerPrice;
    this.matchType[j] = type;
    this.matchFirstFill[j] = this.fillCount;
    let total = 0;
    for (let k = 0; k < makerCount; k++) {
      const f = this.fillCount++;
      this.fillWallet[f] = makerWallets[k]!;
      this.fillSize[f] = makerSizes[k]!;
      this.fillFlags[f] = makerFlags;
      this.fillMatch[f] = j;
      total += makerSizes[k]!;
    }
    const f = this.fillCount++;
    this.fillWallet[f] = takerWallet;
    this.fillSize[f] = total;
    this.fillFlags[f] = takerFlags | FLAG_TAKER;
    this.fillMatch[f] = j;
    return j;
  }

  addOp(ts: number, type: number, wallet: number, market: number, amount: number, amount2 = 0, aux = 0): number {
    if (this.opCount === this.opType.length) this.growOps(this.opCount * 2);
    const i = this.opCount++;
    this.opLogIndex[i] = this.place(
      ts,
      opLogLayout(OP_TYPES[type]!, exchangeVersion(ts), market >= 0 && this.isNegRisk(market)).count,
    );
    this.opTxIndex[i] = this.placedTx;
    this.opType[i] = type;
    this.opWallet[i] = wallet;
    this.opMarket[i] = market;
    this.opAmount[i] = amount;
    this.opAmount2[i] = amount2;
    this.opAux[i] = aux;
    this.opTs[i] = ts;
    return i;
  }

  /** First fill of match j and one past its last. */
  fillEnd(j: number): number {
    return j + 1 < this.matchCount ? this.matchFirstFill[j + 1]! : this.fillCount;
  }

  private growMatches(capacity: number): void {
    this.matchTs = grown(this.matchTs, capacity);
    this.matchMarket = grown(this.matchMarket, capacity);
    this.matchPrice = grown(this.matchPrice, capacity);
    this.matchType = grown(this.matchType, capacity);
    this.matchFirstFill = grown(this.matchFirstFill, capacity);
    this.matchLogIndex = grown(this.matchLogIndex, capacity);
    this.matchTxIndex = grown(this.matchTxIndex, capacity);
  }

  private growFills(capacity: number): void {
    this.fillWallet = grown(this.fillWallet, capacity);
    this.fillSize = grown(this.fillSize, capacity);
    this.fillFlags = grown(this.fillFlags, capacity);
    this.fillMatch = grown(this.fillMatch, capacity);
  }

  private growOps(capacity: number): void {
    this.opType = grown(this.opType, capacity);
    this.opWallet = grown(this.opWallet, capacity);
    this.opMarket = grown(this.opMarket, capacity);
    this.opAmount = grown(this.opAmount, capacity);
    this.opAmount2 = grown(this.opAmount2, capacity);
    this.opAux = grown(this.opAux, capacity);
    this.opTs = grown(this.opTs, capacity);
    this.opLogIndex = grown(this.opLogIndex, capacity);
    this.opTxIndex = grown(this.opTxIndex, capacity);
  }

  /** Gives back unused capacity (after generation). */
  trim(): void {
    if (this.matchTs.length > this.matchCount + 1024) this.growMatches(this.matchCount + 1024);
    if (this.fillWallet.length > this.fillCount + 4096) this.growFills(this.fillCount + 4096);
    if (this.opType.length > this.opCount + 1024) this.growOps(this.opCount + 1024);
  }
}
