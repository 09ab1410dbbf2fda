/**
 * The matcher, in the process that ingests: it sees every batch's new fills inside the batch's own transaction
 * (`Ingest.onCommitting`), matches them against the rule index, and stores one delivery per (rule, destination,
 * fill) in that transaction. A fill is new exactly once (a replayed batch inserts nothing), the deliveries commit
 * or roll back with it, and the unique key (rule, destination, event) holds them to one across processes and
 * restarts. Fills older than ALERTS_MAX_FILL_AGE_SECONDS when stored (a backfill) alert nothing. The rules are
 * reloaded when their change counter moves (looked at every ALERTS_RULES_CHECK_MS, through the transaction), the
 * Smart Money list when `stats_generation` moves.
 */
import type { Config } from "../config/index.js";
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import type { StoreTransaction } from "../store/database.js";
import { readDeriveState, STATS_GENERATION } from "../store/derive-state.js";
import { inSlices, queryRows } from "../store/raw-sql.js";
import type { FillsTable } from "../store/schema.js";
import { fromMicro } from "../venue/units.js";
import { parseCategory, type Category } from "../venue/categories.js";
import { alertLinks, type AlertEvent } from "./alert-event.js";
import { alertChangeCount } from "./changes.js";
import { insertDeliveries, ruleDeliveries } from "./delivery-rows.js";
import { PriceMoves, type PriceMove } from "./price-moves.js";
import { RuleIndex, type IndexedRule } from "./rule-index.js";
import { ruleOf } from "./rules.js";
import { alertsDb } from "./tables.js";

export type MatchedFill = Pick<
  FillsTable,
  "fill_key" | "tx_hash" | "wallet" | "condition_id" | "outcome_index" | "side" | "size" | "usd" | "price" | "ts"
>;

interface MarketFacts {
  id: string;
  question: string;
  category: Category | null;
}

export interface MatcherDeps {
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Pick<Logger, "info" | "warn">;
}

export class AlertMatcher {
  private index = new RuleIndex([], new Set());
  private changeCount = -1;
  private checkedAtMs = Number.NEGATIVE_INFINITY;
  private smart: ReadonlySet<string> = new Set();
  private smartGeneration = -1;
  /** The markets Smart Money holds (read while a smart_new_market rule is active); null until read. */
  private smartHeld: Set<string> | null = null;
  /** Deliveries stored since the last `committed` (the caller wakes the delivery workers after the commit). */
  private stored = 0;
  /** Whether the batch matched last changed what is kept in memory: forgotten if it was not committed. */
  private uncommitted = false;
  private priceMoves = new PriceMoves();

  constructor(private readonly deps: MatcherDeps) {}

  get rules(): number {
    return this.index.size;
  }

  /** The batch matched last was committed: returns how many deliveries it stored (since the last call). */
  committed(): number {
    const n = this.stored;
    this.stored = 0;
    this.uncommitted = false;
    return n;
  }

  /**
   * Reloads the rules and the Smart Money list when they changed; at most every ALERTS_RULES_CHECK_MS. Without an
   * active rule the Smart Money list is not read.
   */
  private async refresh(tx: StoreTransaction): Promise<void> {
    const nowMs = this.deps.clock.nowMs();
    if (nowMs - this.checkedAtMs < this.deps.config.alerts.rulesCheckMs && nowMs >= this.checkedAtMs) return;
    this.checkedAtMs = nowMs;
    const count = await alertChangeCount(tx.db);
    if (count !== this.changeCount) {
      const db = alertsDb(tx.db);
      const [rules, destinations] = await Promise.all([
        db.selectFrom("alert_rules").selectAll().where("status", "=", "active").execute(),
        db.selectFrom("alert_destinations").select("id").where("status", "=", "active").execute(),
      ]);
      this.index = new RuleIndex(rules.map(ruleOf), new Set(destinations.map((d) => Number(d.id))));
      this.changeCount = count;
      this.deps.logger.info({ rules: this.index.size }, "alert rules loaded");
    }
    if (this.index.size === 0) return;
    const generation = await readDeriveState(tx.db, STATS_GENERATION);
    if (generation !== this.smartGeneration) {
      const rows = await queryRows<{ wallet: string }>(
        tx.db,
        tx.kind,
        "select wallet from wallet_stats where is_smart = 1 and is_farmer = 0",
      );
      this.smart = new Set(rows.map((row) => row.wallet));
      this.smartGeneration = generation;
      this.smartHeld = null;
    }
  }

  /** The markets Smart Money holds open positions in, read once per Smart Money list. */
  private async heldBySmartMoney(tx: StoreTransaction): Promise<Set<string>> {
    if (this.smartHeld) return this.smartHeld;
    const rows = await queryRows<{ condition_id: string }>(
      tx.db,
      tx.kind,
      "select distinct p.condition_id from positions p join wallet_stats s on s.wallet = p.wallet where s.is_smart = 1 and s.is_farmer = 0 and p.shares > 0",
    );
    this.smartHeld = new Set(rows.map((row) => row.condition_id));
    return this.smartHeld;
  }

  /** Matches a batch's new fills, in the batch's transaction; returns how many deliveries it stored. */
  async matchInTransaction(tx: StoreTransaction, fills: readonly MatchedFill[]): Promise<number> {
    if (fills.length === 0) return 0;
    // The batch before was rolled back (it was never said committed): what it added to memory goes.
    if (this.uncommitted) {
      this.smartHeld = null;
      this.priceMoves = new PriceMoves();
      this.uncommitted = false;
      this.stored = 0;
    }
    await this.refresh(tx);
    if (this.index.size === 0) return 0;
    const oldest = this.deps.clock.now() - this.deps.config.alerts.maxFillAgeSeconds;
    const held = this.index.watchesNewMarkets ? await this.heldBySmartMoney(tx) : null;
    const matched: Array<{ fill: MatchedFill; rules: IndexedRule[]; moves?: PriceMove[] }> = [];
    for (const fill of fills) {
      const isSmart = this.smart.has(fill.wallet);
      // A Smart Money buy into a market none of them held opens it (and it is held from then on).
      const opens = held !== null && isSmart && fill.side === "BUY" && !held.has(fill.condition_id);
      if (opens) {
        held.add(fill.condition_id);
        this.uncommitted = true;
      }
      if (fill.ts < oldest) continue;
      const priceRules = this.index.priceRules(fill.condition_id);
      const moves = priceRules ? this.priceMoves.observe(fill, priceRules) : [];
      if (priceRules) this.uncommitted = true;
      const facts = { wallet: fill.wallet, condition_id: fill.condition_id, side: fill.side, usd: fromMicro(fill.usd) };
      const rules = this.index.matches(facts, isSmart, opens);
      if (rules.length > 0 || moves.length > 0) matched.push({ fill, rules, moves });
    }
    if (matched.length === 0) return 0;
    // The matched fills' markets, read once per batch: their names for the message, their categories for the filters.
    const markets = new Map<string, MarketFacts>();
    await this.readMarkets(tx, [...new Set(matched.map((m) => m.fill.condition_id))], markets);
    return this.store(tx, matched, markets);
  }

  private async readMarkets(tx: StoreTransaction, conditionIds: string[], into: Map<string, MarketFacts>) {
    const rows = await inSlices(conditionIds, (slice) =>
      queryRows<{ condition_id: string; id: string; question: string; category: string | null }>(
        tx.db,
        tx.kind,
        `select condition_id, id, question, category from markets where condition_id in (${slice.map(() => "?").join(",")})`,
        slice,
      ),
    );
    for (const row of rows)
      into.set(row.condition_id, {
        id: row.id,
        question: row.question,
        category: row.category ? (parseCategory(row.category) ?? null) : null,
      });
  }

  private async store(
    tx: StoreTransaction,
    matched: Array<{ fill: MatchedFill; rules: IndexedRule[]; moves?: PriceMove[] }>,
    markets: Map<string, MarketFacts>,
  ): Promise<number> {
    const nowMs = this.deps.clock.nowMs();
    const dashboard = this.deps.config.alerts.dashboardUrl;
    const rows = [];
    for (const { fill, rules, moves = [] } of matched) {
      const market = markets.get(fill.condition_id);
      const trade = {
        wallet: fill.wallet,
        side: fill.side,
        outcome: fill.outcome_index === 0 ? "YES" : "NO",
        shares: fromMicro(fill.size),
        price: fill.price,
        usd: fromMicro(fill.usd),
        condition_id: fill.condition_id,
        market_id: market?.id ?? null,
        market_question: market?.question ?? null,
        category: market?.category ?? null,
        tx_hash: fill.tx_hash,
        ts: fill.ts,
      };
      const links = alertLinks(dashboard, fill.wallet, trade.market_id);
      const told = [
        ...rules.map((indexed) => ({ indexed, move: undefined })),
        ...moves.map((m) => ({ indexed: m.rule, move: m })),
      ];
      for (const { indexed, move } of told) {
        const { rule, destinations } = indexed;
        // Category filters are applied here, once the batch's markets are read.
        if (rule.filters.categories.length > 0 && !(trade.category && rule.filters.categories.includes(trade.category)))
          continue;
        const event: AlertEvent = {
          type: `alert.${rule.kind}`,
          rule: { id: rule.id, name: rule.name, kind: rule.kind },
          trade,
          links,
          ...(move
            ? { move: { from: move.from, to: move.to, window_minutes: rule.filters.window_minutes ?? 60 } }
            : {}),
          test: false,
        };
        const payload = JSON.stringify(event);
        rows.push(...ruleDeliveries(rule, destinations, { key: fill.fill_key, payload, nowMs }));
      }
    }
    if (rows.length === 0) return 0;
    const stored = await insertDeliveries(alertsDb(tx.db), rows);
    this.stored += stored;
    return stored;
  }
}
