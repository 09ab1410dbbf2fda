/**
 * The active rules in memory, indexed so that a fill costs O(matching rules), not O(all rules): `wallet_trade` rules
 * by watched wallet, `market_whale_trade` rules by watched market, `whale_trade` rules in one list read only for
 * Smart Money fills at or above the smallest of their sizes, `smart_new_market` rules in one list read only for a
 * Smart Money buy into a market no Smart Money wallet held, `price_move` rules by watched market (price-moves.ts
 * keeps their prices). A candidate is then checked against its own filters but categories, which the fan-out checks
 * once it has read the matched fills' markets (alert-matches.ts).
 */
import type { Rule } from "./rules.js";

/** What the index needs to know of a fill. */
export interface FillFacts {
  readonly wallet: string;
  readonly condition_id: string;
  readonly side: "BUY" | "SELL";
  /** USD, not micro-units. */
  readonly usd: number;
}

export interface IndexedRule {
  readonly rule: Rule;
  /** The rule's destinations that are active. */
  readonly destinations: readonly number[];
}

function push<K>(map: Map<K, IndexedRule[]>, key: K, value: IndexedRule): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export class RuleIndex {
  private readonly byWallet = new Map<string, IndexedRule[]>();
  private readonly byMarket = new Map<string, IndexedRule[]>();
  private readonly anywhere: IndexedRule[] = [];
  private readonly newMarket: IndexedRule[] = [];
  private readonly priceByMarket = new Map<string, IndexedRule[]>();
  private anywhereMinUsd = Number.POSITIVE_INFINITY;
  readonly size: number;

  /** `rules`: active rules; `activeDestinations`: the ids of the destinations that are active. */
  constructor(rules: readonly Rule[], activeDestinations: ReadonlySet<number>) {
    let size = 0;
    for (const rule of rules) {
      if (rule.status !== "active") continue;
      const destinations = rule.destination_ids.filter((id) => activeDestinations.has(id));
      if (destinations.length === 0) continue;
      const indexed = { rule, destinations };
      size++;
      if (rule.kind === "wallet_trade") for (const wallet of rule.filters.wallets) push(this.byWallet, wallet, indexed);
      else if (rule.kind === "market_whale_trade")
        for (const market of rule.filters.markets) push(this.byMarket, market, indexed);
      else if (rule.kind === "smart_new_market") this.newMarket.push(indexed);
      else if (rule.kind === "price_move")
        for (const market of rule.filters.markets) push(this.priceByMarket, market, indexed);
      else {
        this.anywhere.push(indexed);
        this.anywhereMinUsd = Math.min(this.anywhereMinUsd, rule.filters.min_usd);
      }
    }
    this.size = size;
  }

  /** The price_move rules watching a market (none: undefined). */
  priceRules(conditionId: string): readonly IndexedRule[] | undefined {
    return this.priceByMarket.get(conditionId);
  }

  /** Whether a fill could match anything but a price move: its wallet is watched, or it is Smart Money. */
  mayMatch(wallet: string, isSmart: boolean): boolean {
    return isSmart || this.byWallet.has(wallet);
  }

  /** Whether any price_move rule is active (the matcher then reads the prices of their markets' fills). */
  get watchesPrices(): boolean {
    return this.priceByMarket.size > 0;
  }

  /** Whether any rule listens for Smart Money opening a market (the matcher then keeps the markets they hold). */
  get watchesNewMarkets(): boolean {
    return this.newMarket.length > 0;
  }

  /**
   * The rules a fill matches (but their categories); `isSmart` says whether its wallet is Smart Money, `opensMarket`
   * whether it is a Smart Money buy into a market no Smart Money wallet held.
   */
  matches(fill: FillFacts, isSmart: boolean, opensMarket = false): IndexedRule[] {
    const out: IndexedRule[] = [];
    const consider = (candidates: readonly IndexedRule[] | undefined) => {
      if (!candidates) return;
      for (const candidate of candidates) if (passes(candidate.rule, fill)) out.push(candidate);
    };
    consider(this.byWallet.get(fill.wallet));
    if (isSmart) {
      consider(this.byMarket.get(fill.condition_id));
      if (fill.usd >= this.anywhereMinUsd) consider(this.anywhere);
      if (opensMarket) consider(this.newMarket);
    }
    return out;
  }
}

function passes(rule: Rule, fill: FillFacts): boolean {
  const { filters } = rule;
  if (fill.usd < filters.min_usd) return false;
  if (filters.side !== "both" && (filters.side === "buy") !== (fill.side === "BUY")) return false;
  if (rule.kind === "wallet_trade" && filters.markets.length > 0 && !filters.markets.includes(fill.condition_id))
    return false;
  return true;
}
