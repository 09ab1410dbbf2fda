/**
 * The `price_move` rules' memory: per watched market, the YES price of its recent fills (a NO fill at p is YES at
 * 1 - p), kept for the longest window a rule asks for. A fill moves a rule when its price is at least the rule's
 * `min_points` away from a price of its window; the rule is then quiet on that market for one window (one alert per
 * move, not one per fill of it). Kept in the matching process only: after a restart a window fills again.
 */
import type { IndexedRule } from "./rule-index.js";

export interface PriceMove {
  readonly rule: IndexedRule;
  /** The YES price the move is measured from, and to. */
  readonly from: number;
  readonly to: number;
}

interface Sample {
  readonly ts: number;
  readonly yes: number;
}

export class PriceMoves {
  private readonly samples = new Map<string, Sample[]>();
  /** `rule:market` → when that rule last alerted on that market (unix seconds). */
  private readonly alerted = new Map<string, number>();

  /** Records a fill of a watched market; returns the rules whose move it completes. */
  observe(
    fill: { condition_id: string; outcome_index: number; price: number; ts: number },
    rules: readonly IndexedRule[],
  ): PriceMove[] {
    const yes = fill.outcome_index === 0 ? fill.price : 1 - fill.price;
    let longest = 0;
    for (const { rule } of rules) longest = Math.max(longest, (rule.filters.window_minutes ?? 60) * 60);
    const kept = (this.samples.get(fill.condition_id) ?? []).filter((s) => s.ts >= fill.ts - longest);
    const moves: PriceMove[] = [];
    for (const indexed of rules) {
      const { rule } = indexed;
      const window = (rule.filters.window_minutes ?? 60) * 60;
      const key = `${rule.id}:${fill.condition_id}`;
      const last = this.alerted.get(key);
      if (last !== undefined && fill.ts - last < window) continue;
      let from: number | null = null;
      for (const sample of kept)
        if (sample.ts >= fill.ts - window && (from === null || Math.abs(yes - sample.yes) > Math.abs(yes - from)))
          from = sample.yes;
      if (from !== null && Math.abs(yes - from) * 100 >= (rule.filters.min_points ?? Number.POSITIVE_INFINITY) - 1e-9) {
        moves.push({ rule: indexed, from, to: yes });
        this.alerted.set(key, fill.ts);
      }
    }
    kept.push({ ts: fill.ts, yes });
    this.samples.set(fill.condition_id, kept);
    return moves;
  }
}
