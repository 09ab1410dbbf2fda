/**
 * The markets the ledger knows: a compact index per condition, the facts the statistics read,
 * the NegRisk events conversions walk, and the queue of resolutions to sweep.
 */
import type { Category } from "../venue/categories.js";
import { marketCategory } from "./categories.js";
import { MICRO } from "../venue/units.js";
import { toMicroPrice } from "./fixed-point.js";
import type { MarketFacts, Resolution } from "./types.js";

export function resolutionPayoutYes(resolution: Resolution): number {
  return resolution === "YES" ? MICRO : resolution === "NO" ? 0 : MICRO / 2;
}

/** Payout of one side, micro-units, from the YES payout. */
export function sidePayout(payoutYes: number, outcomeIndex: number): number {
  return outcomeIndex === 0 ? payoutYes : MICRO - payoutYes;
}

interface NegRiskEvent {
  questionCount: number;
  /** Condition index per question index; -1 when the question's market is unknown. */
  readonly questions: number[];
}

export class MarketBook {
  private readonly index = new Map<string, number>();
  private lastConditionId = "";
  private lastCondition = -1;
  readonly conditionIds: string[] = [];
  readonly facts: Array<MarketFacts | undefined> = [];
  readonly categories: Array<Category | null> = [];
  /** Two per condition (YES, NO), learned from facts or fills. */
  readonly tokenIds: Array<string | undefined> = [];
  /** YES payout in micro-units from the market's resolution; -1 while unresolved. */
  readonly payoutYes: number[] = [];
  /** Resolution time; Infinity while unresolved (or resolved without a known time). */
  readonly resolvedAt: number[] = [];
  /** The resolution has been swept over every position the market had then. */
  readonly swept: boolean[] = [];
  /** Head of the chain of every position ever opened on the market, so that a sweep reaches them all. */
  readonly firstHolder: number[] = [];
  private readonly negRisk = new Map<string, NegRiskEvent>();
  /** Resolved conditions not yet swept, by resolution time from `pendingHead` on. */
  private pending: number[] = [];
  private pendingHead = 0;
  private pendingSorted = true;

  get size(): number {
    return this.conditionIds.length;
  }

  conditionIndex(conditionId: string): number {
    // Consecutive fills are often of one market (a taker matched against several makers).
    if (conditionId === this.lastConditionId) return this.lastCondition;
    let index = this.index.get(conditionId);
    if (index === undefined) {
      index = this.conditionIds.length;
      this.index.set(conditionId, index);
      this.conditionIds.push(conditionId);
      this.facts.push(undefined);
      this.categories.push(null);
      this.tokenIds.push(undefined, undefined);
      this.payoutYes.push(-1);
      this.resolvedAt.push(Infinity);
      this.swept.push(false);
      this.firstHolder.push(-1);
    }
    this.lastConditionId = conditionId;
    this.lastCondition = index;
    return index;
  }

  find(conditionId: string): number | undefined {
    return this.index.get(conditionId);
  }

  /** The market resolved strictly before `ts`. */
  resolvedBefore(condition: number, ts: number): boolean {
    return (this.resolvedAt[condition] as number) < ts;
  }

  /**
   * Records or updates a market's facts. A resolution needs its time; once swept it is final
   * (later changes of resolution are ignored, a market does not un-resolve).
   */
  setFacts(facts: MarketFacts): void {
    const condition = this.conditionIndex(facts.conditionId);
    this.facts[condition] = facts;
    this.categories[condition] = marketCategory(facts.category, facts.tags);
    if (facts.yesTokenId) this.tokenIds[condition * 2] = facts.yesTokenId;
    if (facts.noTokenId) this.tokenIds[condition * 2 + 1] = facts.noTokenId;
    if (facts.negRiskEventId && facts.questionIndex != null && facts.questionIndex >= 0) {
      this.addQuestion(facts.negRiskEventId, facts.questionIndex, facts.questionCount ?? 0, condition);
    }
    if (this.swept[condition]) return;
    const resolved = facts.resolution != null && facts.resolvedAt != null;
    this.payoutYes[condition] = resolved ? resolutionPayoutYes(facts.resolution!) : -1;
    this.resolvedAt[condition] = resolved ? facts.resolvedAt! : Infinity;
    if (resolved) {
      this.pending.push(condition);
      this.pendingSorted = false;
    }
  }

  /** The NegRisk event of a conversion; undefined when no market of it is known. */
  negRiskEvent(eventId: string): Readonly<NegRiskEvent> | undefined {
    return this.negRisk.get(eventId);
  }

  /** The next condition resolved strictly before `ts` and not yet swept, marked swept; -1 if none. */
  takeDueSweep(ts: number): number {
    if (!this.pendingSorted) this.sortPending();
    while (this.pendingHead < this.pending.length) {
      const next = this.pending[this.pendingHead]!;
      if (this.swept[next] || !((this.resolvedAt[next] as number) < Infinity)) {
        this.pendingHead++; // stale: swept already, or its resolution was withdrawn before the sweep
        continue;
      }
      if ((this.resolvedAt[next] as number) >= ts) return -1;
      this.pendingHead++;
      this.swept[next] = true;
      return next;
    }
    return -1;
  }

  /** Current price of one side in micro-units, or null when unknown. */
  currentPrice(condition: number, outcomeIndex: number): number | null {
    const facts = this.facts[condition];
    if (!facts || facts.priceYes == null) return null;
    if (outcomeIndex === 0) return toMicroPrice(facts.priceYes);
    return toMicroPrice(facts.priceNo ?? 1 - facts.priceYes);
  }

  private addQuestion(eventId: string, questionIndex: number, questionCount: number, condition: number): void {
    let event = this.negRisk.get(eventId);
    if (!event) {
      event = { questionCount: 0, questions: [] };
      this.negRisk.set(eventId, event);
    }
    while (event.questions.length <= questionIndex) event.questions.push(-1);
    event.questions[questionIndex] = condition;
    event.questionCount = Math.max(event.questionCount, questionCount, event.questions.length);
  }

  /** Sorting lazily keeps a bulk load of facts O(n log n); later additions re-sort a nearly sorted queue. */
  private sortPending(): void {
    const rest = this.pending.slice(this.pendingHead).filter((c) => !this.swept[c]);
    rest.sort((a, b) => (this.resolvedAt[a] as number) - (this.resolvedAt[b] as number) || a - b);
    this.pending = rest;
    this.pendingHead = 0;
    this.pendingSorted = true;
  }
}
