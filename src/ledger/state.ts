/**
 * The ledger state: every wallet's positions, kept by the venue's reference method, updated one
 * event at a time. `replay` is the same `apply` in a loop, so a rebuild and the incremental path
 * cannot drift apart.
 *
 * Time is an input. A market's resolution reaches each position before that position's first event
 * later than the resolution time (it closes unredeemed losers at price 0), and `advanceTo(t)` sweeps
 * it over every position of the markets resolved before t. As wallets never interact, the result does
 * not depend on how different wallets' events interleave: a rebuild may stream fills ordered by
 * (wallet, time), which keeps each wallet's records in cache. The facts of a market must be set
 * before events later than its resolution for all paths to agree.
 */
import { isProtocolAddress } from "../venue/contracts.js";
import { PositionTable, type Position, type TokenIndex } from "./books.js";
import { FIFTY_CENTS, fillPrice, negRiskYesPrice, realizedDelta, toMicroPrice } from "./fixed-point.js";
import { MarketBook, resolutionPayoutYes, sidePayout } from "./markets.js";
import type {
  ConversionActivity,
  LedgerActivity,
  LedgerEvent,
  LedgerFill,
  MarketFacts,
  OutcomeIndex,
  RedeemActivity,
} from "./types.js";
import { WalletTable, type WalletBook } from "./wallets.js";

/** Expected sizes, so that a rebuild does not grow its tables on the way (estimates are fine). */
export interface LedgerCapacity {
  readonly positions?: number;
  readonly wallets?: number;
}

export class LedgerState {
  readonly markets = new MarketBook();
  readonly positions: PositionTable;
  readonly walletTable: WalletTable;
  /** -1 marks an exchange contract or the NegRisk adapter: never a wallet, its rows are dropped. */
  private readonly walletIndex = new Map<string, number>();
  /** Positions opened in an already swept market by an event older than its resolution. */
  private lateHolders: number[] = [];

  constructor(markets: Iterable<MarketFacts> = [], capacity: LedgerCapacity = {}) {
    this.positions = new PositionTable(capacity.positions);
    this.walletTable = new WalletTable(capacity.wallets);
    for (const facts of markets) this.markets.setFacts(facts);
  }

  /** Adds or updates a market's facts. */
  setMarket(facts: MarketFacts): void {
    this.markets.setFacts(facts);
  }

  apply(event: LedgerEvent): void {
    if (event.kind === "fill") this.applyFill(event);
    else this.applyActivity(event);
  }

  /** Applies the resolutions of markets resolved strictly before `ts` to all their positions. */
  advanceTo(ts: number): void {
    const table = this.positions;
    for (let c = this.markets.takeDueSweep(ts); c >= 0; c = this.markets.takeDueSweep(ts)) {
      for (let p = this.markets.firstHolder[c]!; p >= 0; p = table.nextInMarket(p)) this.resolvePosition(p);
    }
    if (this.lateHolders.length > 0) {
      this.lateHolders = this.lateHolders.filter((p) => {
        if (!this.markets.resolvedBefore(table.token(p) >> 1, ts)) return true;
        this.resolvePosition(p);
        return false;
      });
    }
  }

  /** A copy of the wallet's aggregates; undefined for an unknown wallet or a protocol address. */
  wallet(address: string): WalletBook | undefined {
    const id = this.walletIndex.get(address);
    return id === undefined || id < 0 ? undefined : this.walletTable.read(id);
  }

  /** Copies of every wallet's aggregates, each made as it is reached. */
  *wallets(): Generator<WalletBook> {
    const count = this.walletTable.addresses.length;
    for (let id = 0; id < count; id++) yield this.walletTable.read(id);
  }

  /** Indices of a wallet's positions in the table (newest first). */
  positionIndices(book: WalletBook): number[] {
    const indices: number[] = [];
    for (let p = this.walletTable.firstPosition(book.id); p >= 0; p = this.positions.nextOfWallet(p)) indices.push(p);
    return indices;
  }

  positionsOf(address: string): Position[] {
    const book = this.wallet(address);
    return book ? this.positionIndices(book).map((p) => this.positions.read(p)) : [];
  }

  position(address: string, conditionId: string, outcome: OutcomeIndex): Position | undefined {
    const id = this.walletIndex.get(address);
    const condition = this.markets.find(conditionId);
    if (id === undefined || id < 0 || condition === undefined) return undefined;
    const p = this.positions.find(id, condition * 2 + outcome);
    return p < 0 ? undefined : this.positions.read(p);
  }

  applyFill(fill: LedgerFill): void {
    const wallet = this.walletFor(fill.wallet);
    if (wallet < 0) return;
    const condition = this.markets.conditionIndex(fill.conditionId);
    const tokenSlot = condition * 2 + fill.outcomeIndex;
    if (this.markets.tokenIds[tokenSlot] === undefined) this.markets.tokenIds[tokenSlot] = fill.tokenId;

    // A MINT match only has buyers and a MERGE match only sellers: a MINT "SELL YES" (as some feeds
    // show a maker's side) is a buy of NO at 1 - p, and a MERGE "BUY YES" a sale of NO at 1 - p.
    let token = tokenSlot;
    let buying = fill.side === "BUY";
    let cost = fill.usd;
    if ((fill.entryType === "MINT" && !buying) || (fill.entryType === "MERGE" && buying)) {
      token ^= 1;
      buying = !buying;
      cost = fill.size > fill.usd ? fill.size - fill.usd : 0;
    }

    const table = this.positions;
    const p = this.positionAt(wallet, token, fill.ts);
    const before = this.settledNet(p);
    const held = table.shares(p);
    const price = fillPrice(cost, fill.size);
    if (buying) {
      table.buy(p, price, fill.size, fill.ts);
      this.walletTable.addBuy(wallet, cost, fill.size);
    } else {
      table.sell(p, price, fill.size);
    }
    table.addFill(p, fill.fee, fill.usd);
    table.touch(p, fill.ts);
    this.walletTable.addFill(wallet, fill.usd, fill.ts, fill.entryType === "MINT" || fill.entryType === "MERGE");
    this.settle(wallet, p, before, held, fill.ts);
  }

  applyActivity(activity: LedgerActivity): void {
    const wallet = this.walletFor(activity.wallet);
    if (wallet < 0) return;
    switch (activity.type) {
      case "SPLIT":
      case "MERGE": {
        const condition = this.markets.conditionIndex(activity.conditionId);
        this.walletTable.addSplitMerge(wallet, activity.amount);
        for (let outcome = 0; outcome < 2; outcome++) {
          const p = this.positionAt(wallet, condition * 2 + outcome, activity.ts);
          const before = this.settledNet(p);
          const held = this.positions.shares(p);
          if (activity.type === "SPLIT") this.positions.buy(p, FIFTY_CENTS, activity.amount, activity.ts);
          else this.positions.sell(p, FIFTY_CENTS, activity.amount);
          this.positions.touch(p, activity.ts);
          this.settle(wallet, p, before, held, activity.ts);
        }
        return;
      }
      case "REDEEM":
        return this.redeem(wallet, activity);
      case "CONVERSION":
        return this.convert(wallet, activity);
      case "REWARD":
      case "MAKER_REBATE":
      case "TAKER_REBATE":
        this.walletTable.addIncome(wallet, activity.usd);
        return;
    }
  }

  /**
   * Net P&L a position has settled, micro-units: realized minus fees, plus, once its market's resolution
   * reached it, what its remaining shares redeem for (the same truncated sale a redemption will book).
   */
  settledNet(p: number): number {
    const table = this.positions;
    const shares = table.shares(p);
    if (shares === 0 || !table.isResolved(p)) return table.net(p);
    const token = table.token(p);
    const payout = sidePayout(this.markets.payoutYes[token >> 1] as number, token & 1);
    return table.net(p) + realizedDelta(shares, payout - table.avgPrice(p));
  }

  private redeem(wallet: number, activity: RedeemActivity): void {
    const condition = this.markets.conditionIndex(activity.conditionId);
    const facts = this.markets.facts[condition];
    let payoutYes = this.markets.payoutYes[condition] as number;
    if (activity.payoutYes != null) payoutYes = toMicroPrice(activity.payoutYes);
    else if (payoutYes < 0 && facts?.resolution) payoutYes = resolutionPayoutYes(facts.resolution);
    if (payoutYes < 0) return;
    for (let outcome = 0; outcome < 2; outcome++) {
      if (this.positions.find(wallet, condition * 2 + outcome) < 0) continue;
      const p = this.positionAt(wallet, condition * 2 + outcome, activity.ts);
      const before = this.settledNet(p);
      const held = this.positions.shares(p);
      this.positions.sell(p, sidePayout(payoutYes, outcome), held);
      this.positions.touch(p, activity.ts);
      this.settle(wallet, p, before, held, activity.ts);
    }
  }

  /**
   * NegRisk conversion (docs/METRICS.md, positions and P&L): each NO given up is sold at its own average price (no P&L),
   * then each YES received is bought at the synthetic price derived from the mean NO price.
   */
  private convert(wallet: number, activity: ConversionActivity): void {
    const event = this.markets.negRiskEvent(activity.negRiskEventId);
    if (!event) return;
    const table = this.positions;
    const givenUp = new Set(activity.indexSet);
    let noPriceSum = 0;
    for (const question of givenUp) {
      const condition = event.questions[question] ?? -1;
      if (condition < 0) continue; // unknown to the ledger: an average price of 0, as the subgraph's fresh position
      const p = this.positionAt(wallet, condition * 2 + 1, activity.ts);
      const before = this.settledNet(p);
      const held = table.shares(p);
      noPriceSum += table.avgPrice(p);
      table.sell(p, table.avgPrice(p), activity.amount);
      table.touch(p, activity.ts);
      this.settle(wallet, p, before, held, activity.ts);
    }
    if (givenUp.size === 0 || givenUp.size >= event.questionCount) return;
    const yesPrice = negRiskYesPrice(noPriceSum, givenUp.size, event.questionCount);
    const received = activity.amount - activity.fee;
    for (let question = 0; question < event.questionCount; question++) {
      const condition = event.questions[question] ?? -1;
      if (givenUp.has(question) || condition < 0) continue;
      const p = this.positionAt(wallet, condition * 2, activity.ts);
      const before = this.settledNet(p);
      const held = table.shares(p);
      table.buy(p, yesPrice, received, activity.ts);
      table.touch(p, activity.ts);
      this.settle(wallet, p, before, held, activity.ts);
    }
  }

  /**
   * The position an event at `ts` acts on, created if new, with its market's resolution applied first
   * (to it and to the wallet's other side of the market) when the market resolved before `ts`.
   */
  private positionAt(wallet: number, token: TokenIndex, ts: number): number {
    const table = this.positions;
    const condition = token >> 1;
    let p = table.find(wallet, token);
    if (p < 0) {
      p = table.create(wallet, token, ts, this.walletTable.firstPosition(wallet), this.markets.firstHolder[condition]!);
      this.walletTable.addPosition(wallet, p);
      this.markets.firstHolder[condition] = p;
      if (this.markets.swept[condition]) this.lateHolders.push(p);
    }
    if (this.markets.resolvedBefore(condition, ts)) {
      this.resolvePosition(p);
      const sibling = table.sibling(p);
      if (sibling >= 0) this.resolvePosition(sibling);
    }
    return p;
  }

  /** Applies the market's resolution to one position: an unredeemed loser is closed at price 0. */
  private resolvePosition(p: number): void {
    const table = this.positions;
    if (table.isResolved(p)) return;
    const token = table.token(p);
    const condition = token >> 1;
    const before = table.net(p);
    const held = table.shares(p);
    table.markResolved(p);
    if (sidePayout(this.markets.payoutYes[condition] as number, token & 1) === 0) table.sell(p, 0, held);
    this.settle(table.walletOf(p), p, before, held, this.markets.resolvedAt[condition] as number);
  }

  /** Books the change of settled P&L, and the position's opening or closing, on the wallet's day. */
  private settle(wallet: number, p: number, before: number, heldBefore: number, ts: number): void {
    const table = this.positions;
    const shares = table.shares(p);
    const open = shares > 0 && !table.isResolved(p);
    const closedAt = table.closedAt(p);
    const closes = table.setOpen(p, open, ts);
    // A day's closed positions are those still closed (as the stored positions, and so the highlights, count them):
    // a buy that reopens a position takes its close back from the day it closed.
    if (open && closedAt >= 0) this.walletTable.book(wallet, closedAt, 0, -1);
    const otherSide = table.sibling(p);
    const otherShares = otherSide >= 0 ? table.shares(otherSide) : 0;
    if (shares > 0 && otherShares > 0) {
      const balance = Math.min(shares, otherShares) / Math.max(shares, otherShares);
      table.raiseHedge(p, balance);
      table.raiseHedge(otherSide, balance);
    }
    const change = this.settledNet(p) - before;
    if (change !== 0 || closes !== 0) this.walletTable.book(wallet, ts, change, closes);
  }

  /** The wallet's id, or -1 for a protocol address. */
  private walletFor(address: string): number {
    let id = this.walletIndex.get(address);
    if (id === undefined) {
      id = isProtocolAddress(address) ? -1 : this.walletTable.create(address);
      this.walletIndex.set(address, id);
    }
    return id;
  }
}

/**
 * Rebuilds the ledger from stored events in one pass, then sweeps resolutions up to `asOf`. Each wallet's
 * events must be in time order; different wallets' events may come in any interleaving, and ordered by
 * wallet they replay fastest.
 */
export function replay(
  events: Iterable<LedgerEvent>,
  markets: Iterable<MarketFacts> = [],
  asOf?: number,
  capacity?: LedgerCapacity,
): LedgerState {
  const state = new LedgerState(markets, capacity);
  for (const event of events) state.apply(event);
  if (asOf !== undefined) state.advanceTo(asOf);
  return state;
}
