/**
 * The matcher, in the process that ingests: it sees every batch's new fills inside the batch's own transaction
 * (`Ingest.onCommitting`), matches them against the rule index, and stores one delivery per (rule, destination,
 * fill) in that transaction. A fill is new exactly once (a replayed batch inserts nothing), the deliveries commit
 * or roll back with it, and the unique key (rule, destination, event) holds them to one across processes and
 * restarts. Fills older than ALERTS_MAX_FILL_AGE_SECONDS when stored (a backfill) alert nothing. The rules are
 * reloaded when their change counter moves (looked at every ALERTS_RULES_CHECK_MS, through the transaction), the
 * Smart Money list when `stats_generation` moves.
 */
import { createHash } from "node:crypto";
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

/** The webhook-id of a delivery: one per (rule, destination, event), the same on every attempt. */
export function messageIdOf(ruleId: number, destinationId: number, eventKey: string): string {
  const digest = createHash("sha256").update(eventKey).digest("base64url").slice(0, 22);
  return `msg_${ruleId}_${destinationId}_${digest}`;
}

export class AlertMatcher {
  private index = new RuleIndex([], new Set());
  private changeCount = -1;
  private checkedAtMs = Number.NEGATIVE_INFINITY;
  private smart: ReadonlySet<string> = new Set();
  private smartGeneration = -1;
  /** Deliveries stored since the last `takeStored` (the caller wakes the delivery workers after the commit). */
  private stored = 0;

  constructor(private readonly deps: MatcherDeps) {}

  get rules(): number {
    return this.index.size;
  }

  /** How many deliveries were stored since the last call. */
  takeStored(): number {
    const n = this.stored;
    this.stored = 0;
    return n;
  }

  /** Reloads the rules and the Smart Money list when they changed; at most every ALERTS_RULES_CHECK_MS. */
  private async refresh(tx: StoreTransaction): Promise<void> {
    const nowMs = this.deps.clock.nowMs();
    if (nowMs - this.checkedAtMs < this.deps.config.alerts.rulesCheckMs && nowMs >= this.checkedAtMs) return;
    this.checkedAtMs = nowMs;
    const generation = await readDeriveState(tx.db, STATS_GENERATION);
    if (generation !== this.smartGeneration) {
      const rows = await queryRows<{ wallet: string }>(
        tx.db,
        tx.kind,
        "select wallet from wallet_stats where is_smart = 1 and is_farmer = 0",
      );
      this.smart = new Set(rows.map((row) => row.wallet));
      this.smartGeneration = generation;
    }
    const count = await alertChangeCount(tx.db);
    if (count === this.changeCount) return;
    const db = alertsDb(tx.db);
    const [rules, destinations] = await Promise.all([
      db.selectFrom("alert_rules").selectAll().where("status", "=", "active").execute(),
      db.selectFrom("alert_destinations").select("id").where("status", "=", "active").execute(),
    ]);
    this.index = new RuleIndex(rules.map(ruleOf), new Set(destinations.map((d) => Number(d.id))));
    this.changeCount = count;
    this.deps.logger.info({ rules: this.index.size }, "alert rules loaded");
  }

  /** Matches a batch's new fills, in the batch's transaction; returns how many deliveries it stored. */
  async matchInTransaction(tx: StoreTransaction, fills: readonly MatchedFill[]): Promise<number> {
    if (fills.length === 0) return 0;
    await this.refresh(tx);
    if (this.index.size === 0) return 0;
    const oldest = this.deps.clock.now() - this.deps.config.alerts.maxFillAgeSeconds;
    const matched: Array<{ fill: MatchedFill; rules: IndexedRule[] }> = [];
    for (const fill of fills) {
      if (fill.ts < oldest) continue;
      const facts = { wallet: fill.wallet, condition_id: fill.condition_id, side: fill.side, usd: fromMicro(fill.usd) };
      const rules = this.index.matches(facts, this.smart.has(fill.wallet));
      if (rules.length > 0) matched.push({ fill, rules });
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
    matched: Array<{ fill: MatchedFill; rules: IndexedRule[] }>,
    markets: Map<string, MarketFacts>,
  ): Promise<number> {
    const nowMs = this.deps.clock.nowMs();
    const dashboard = this.deps.config.alerts.dashboardUrl;
    const rows = [];
    for (const { fill, rules } of matched) {
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
      for (const { rule, destinations } of rules) {
        // Category filters are applied here, once the batch's markets are read.
        if (rule.filters.categories.length > 0 && !(trade.category && rule.filters.categories.includes(trade.category)))
          continue;
        const event: AlertEvent = {
          type: `alert.${rule.kind}`,
          rule: { id: rule.id, name: rule.name, kind: rule.kind },
          trade,
          links,
          test: false,
        };
        const payload = JSON.stringify(event);
        for (const destination of destinations)
          rows.push({
            account: rule.account,
            rule_id: rule.id,
            destination_id: destination,
            event_key: fill.fill_key,
            message_id: messageIdOf(rule.id, destination, fill.fill_key),
            payload,
            status: "pending" as const,
            attempts: 0,
            next_attempt_at: 0,
            last_status: null,
            last_error: null,
            created_at_ms: nowMs,
            finished_at_ms: null,
          });
      }
    }
    if (rows.length === 0) return 0;
    const db = alertsDb(tx.db);
    let stored = 0;
    for (let i = 0; i < rows.length; i += 200) {
      const result = await db
        .insertInto("alert_deliveries")
        .values(rows.slice(i, i + 200))
        .onConflict((oc) => oc.columns(["rule_id", "destination_id", "event_key"]).doNothing())
        .executeTakeFirst();
      stored += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    this.stored += stored;
    return stored;
  }
}
