/**
 * The `price_move` rules' memory: per watched market, the YES price of its recent fills (a NO fill at p is YES at
 * 1 - p), kept for the longest window a rule asks for. A fill moves a rule when its price is at least the rule's
 * `min_points` away from a price of its window; the rule is then quiet on that market for one window (one alert per
 * move, not one per fill of it). Both survive a restart: a market's prices are read from the stored fills the first
 * time one of its fills is seen (after a start, a rule change, a batch rolled back), and each alert leaves a mark
 * (`alert_marks`, `price_alerted`) in the batch's transaction, read back with the prices.
 */
import type { StoreTransaction } from "../store/database.js";
import { yesPrice } from "../store/market-daily-prices.js";
import { inSlices, placeholders, queryRows } from "../store/raw-sql.js";
import type { IndexedRule } from "./rule-index.js";
import { alertsDb } from "./tables.js";

export interface PriceMove {
  readonly rule: IndexedRule;
  /** The YES price the move is measured from, and to. */
  readonly from: number;
  readonly to: number;
}

interface PricedFill {
  readonly condition_id: string;
  readonly outcome_index: number;
  readonly price: number;
  readonly ts: number;
}

interface Sample {
  readonly ts: number;
  readonly yes: number;
}

const windowSeconds = (rule: IndexedRule) => (rule.rule.filters.window_minutes ?? 60) * 60;

export class PriceMoves {
  private readonly samples = new Map<string, Sample[]>();
  /** `rule:market` → when that rule last alerted on that market (unix seconds). */
  private readonly alerted = new Map<string, number>();

  /**
   * Reads from the store what is not in memory yet of the markets these fills watch: their fills of the longest
   * window (but the batch's own, which `observe` adds) and their rules' marks. In the batch's transaction.
   */
  async load(
    tx: StoreTransaction,
    fills: readonly (PricedFill & { fill_key: string })[],
    rulesOf: (conditionId: string) => readonly IndexedRule[] | undefined,
  ): Promise<void> {
    const missing = new Map<string, number>();
    for (const fill of fills) {
      if (this.samples.has(fill.condition_id) || missing.has(fill.condition_id)) continue;
      const rules = rulesOf(fill.condition_id);
      if (rules) missing.set(fill.condition_id, Math.max(...rules.map(windowSeconds)));
    }
    if (missing.size === 0) return;
    const markets = [...missing.keys()];
    const since = Math.min(...fills.map((f) => f.ts)) - Math.max(...missing.values());
    const batch = new Set(fills.map((f) => f.fill_key));
    const stored = await inSlices(markets, (slice) =>
      queryRows<PricedFill & { fill_key: string }>(
        tx.db,
        tx.kind,
        `select fill_key, condition_id, outcome_index, price, ts from fills where ts >= ? and condition_id in ${placeholders(slice.length)} order by ts`,
        [since, ...slice],
      ),
    );
    for (const market of markets) this.samples.set(market, []);
    for (const fill of stored)
      if (!batch.has(fill.fill_key))
        this.samples
          .get(fill.condition_id)!
          .push({ ts: Number(fill.ts), yes: yesPrice(fill.outcome_index, fill.price) });
    const marks = await inSlices(markets, (slice) =>
      alertsDb(tx.db)
        .selectFrom("alert_marks")
        .select(["rule_id", "subject", "at"])
        .where("kind", "=", "price_alerted")
        .where("subject", "in", slice)
        .execute(),
    );
    for (const mark of marks) this.alerted.set(`${mark.rule_id}:${mark.subject}`, Number(mark.at));
  }

  /** Records a fill of a watched market; returns the rules whose move it completes (their marks are the caller's). */
  observe(fill: PricedFill, rules: readonly IndexedRule[]): PriceMove[] {
    const yes = yesPrice(fill.outcome_index, fill.price);
    const longest = Math.max(...rules.map(windowSeconds));
    const kept = (this.samples.get(fill.condition_id) ?? []).filter((s) => s.ts >= fill.ts - longest);
    const moves: PriceMove[] = [];
    for (const indexed of rules) {
      const { rule } = indexed;
      const window = windowSeconds(indexed);
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

/** Marks the moves' rules quiet on their markets from `at`, in the batch's transaction (read back by `load`). */
export async function markPriceMoves(
  tx: StoreTransaction,
  moves: readonly { rule: number; market: string; at: number }[],
): Promise<void> {
  if (moves.length === 0) return;
  await alertsDb(tx.db)
    .insertInto("alert_marks")
    .values(moves.map((m) => ({ kind: "price_alerted" as const, rule_id: m.rule, subject: m.market, at: m.at })))
    .onConflict((oc) => oc.columns(["kind", "rule_id", "subject"]).doUpdateSet((eb) => ({ at: eb.ref("excluded.at") })))
    .execute();
}
