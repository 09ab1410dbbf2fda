/**
 * The matcher, in the process that ingests: it sees every batch's new fills inside the batch's own transaction
 * (`Ingest.onCommitting`), matches them against the rule index, and stores what matched as one compact row in that
 * transaction (alert-matches.ts), which the delivery workers fan out into one delivery per (rule, destination,
 * fill). A fill is new exactly once (a replayed batch inserts nothing), its matches commit or roll back with it, and
 * the deliveries' unique key (rule, destination, event) holds them to one across processes and restarts. Fills older than ALERTS_MAX_FILL_AGE_SECONDS when stored (a backfill) alert nothing. The rules are
 * reloaded when their change counter moves (looked at every ALERTS_RULES_CHECK_MS, through the transaction), the
 * Smart Money list when `stats_generation` moves.
 */
import type { Config } from "../config/index.js";
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import type { StoreTransaction } from "../store/database.js";
import { readDeriveState, STATS_GENERATION } from "../store/derive-state.js";
import { queryRows } from "../store/raw-sql.js";
import { fromMicro } from "../venue/units.js";
import { storeMatches, type FillMatch, type MatchedFill } from "./alert-matches.js";
import { alertChangeCount } from "./changes.js";
import { markPriceMoves, PriceMoves } from "./price-moves.js";
import { RuleIndex } from "./rule-index.js";
import { ruleOf } from "./rules.js";
import { alertsDb } from "./tables.js";

/** How long a market Smart Money opened stays held without a position the Deriver wrote. */
const OPENED_MARK_SECONDS = 86_400;

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
  /** Matches stored since the last `committed` (the caller wakes the delivery workers after the commit). */
  private stored = 0;
  /** Whether the batch matched last changed what is kept in memory: forgotten if it was not committed. */
  private uncommitted = false;
  private priceMoves = new PriceMoves();

  constructor(private readonly deps: MatcherDeps) {}

  get rules(): number {
    return this.index.size;
  }

  /** The batch matched last was committed: returns how many matches it stored (since the last call). */
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

  /**
   * The markets Smart Money holds open positions in, read once per Smart Money list, with those a Smart Money buy
   * opened since (`alert_marks`, `smart_opened`: the Deriver writes the positions after the batch commits; a mark
   * bridges that gap across a restart, and is dropped a day later).
   */
  private async heldBySmartMoney(tx: StoreTransaction): Promise<Set<string>> {
    if (this.smartHeld) return this.smartHeld;
    const db = alertsDb(tx.db);
    await db
      .deleteFrom("alert_marks")
      .where("kind", "=", "smart_opened")
      .where("at", "<", this.deps.clock.now() - OPENED_MARK_SECONDS)
      .execute();
    const [positions, marks] = await Promise.all([
      queryRows<{ condition_id: string }>(
        tx.db,
        tx.kind,
        "select distinct p.condition_id from positions p join wallet_stats s on s.wallet = p.wallet where s.is_smart = 1 and s.is_farmer = 0 and p.shares > 0",
      ),
      db.selectFrom("alert_marks").select("subject").where("kind", "=", "smart_opened").execute(),
    ]);
    this.smartHeld = new Set([...positions.map((row) => row.condition_id), ...marks.map((mark) => mark.subject)]);
    return this.smartHeld;
  }

  /**
   * Matches a batch's new fills, in the batch's transaction, and stores what matched as one row (alert-matches.ts);
   * returns how many (rule, fill) matches it stored.
   */
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
    if (this.index.watchesPrices) await this.priceMoves.load(tx, fills, (market) => this.index.priceRules(market));
    const matched: FillMatch[] = [];
    const opened: MatchedFill[] = [];
    const moved = new Map<string, { rule: number; market: string; at: number }>();
    for (const fill of fills) {
      const isSmart = this.smart.has(fill.wallet);
      // A Smart Money buy into a market none of them held opens it (and it is held from then on).
      const opens = held !== null && isSmart && fill.side === "BUY" && !held.has(fill.condition_id);
      if (opens) {
        held.add(fill.condition_id);
        opened.push(fill);
        this.uncommitted = true;
      }
      if (fill.ts < oldest) continue;
      const priceRules = this.index.priceRules(fill.condition_id);
      // Most fills: no watched wallet, not Smart Money, no price rule on their market.
      if (!priceRules && !this.index.mayMatch(fill.wallet, isSmart)) continue;
      const moves = priceRules ? this.priceMoves.observe(fill, priceRules) : [];
      if (priceRules) this.uncommitted = true;
      for (const move of moves)
        moved.set(`${move.rule.rule.id}:${fill.condition_id}`, {
          rule: move.rule.rule.id,
          market: fill.condition_id,
          at: fill.ts,
        });
      const facts = { wallet: fill.wallet, condition_id: fill.condition_id, side: fill.side, usd: fromMicro(fill.usd) };
      const rules = this.index.matches(facts, isSmart, opens);
      if (rules.length > 0 || moves.length > 0)
        matched.push({
          fill,
          rules: rules.map((r) => r.rule.id),
          moves: moves.map((m) => ({ rule: m.rule.rule.id, from: m.from, to: m.to })),
        });
    }
    await markPriceMoves(tx, [...moved.values()]);
    if (opened.length > 0)
      await alertsDb(tx.db)
        .insertInto("alert_marks")
        .values(opened.map((f) => ({ kind: "smart_opened" as const, rule_id: 0, subject: f.condition_id, at: f.ts })))
        .onConflict((oc) => oc.columns(["kind", "rule_id", "subject"]).doNothing())
        .execute();
    if (matched.length === 0) return 0;
    await storeMatches(tx, matched, this.deps.clock.nowMs());
    const count = matched.reduce((n, m) => n + m.rules.length + m.moves.length, 0);
    this.stored += count;
    return count;
  }
}
