/**
 * `insider_alert` rules, in the process that ingests: every ALERTS_CONSENSUS_POLL_SECONDS, the bets the Deriver scored
 * (`insider_scores`, src/derive/insider-scores.ts) at or above each active rule's `min_score` (default
 * INSIDER_MIN_SCORE), in its markets or categories (none: all), whose last fill came after the rule was made and
 * within INSIDER_ALERT_DAYS of now, are stored as deliveries: once per rule, destination and bet (wallet, market,
 * outcome), whoever stores them again, so that a bet told is never told twice while its delivery is kept.
 */
import type { Category } from "../venue/categories.js";
import { alertLinks, type AlertEvent } from "./alert-event.js";
import { insertDeliveries, ruleDeliveries } from "./delivery-rows.js";
import { PollingWatcher, type WatcherDeps } from "./polling-watcher.js";
import { ruleOf } from "./rules.js";
import { alertsDb } from "./tables.js";
import { hundredthsFrom } from "../store/insider-score-hundredths.js";
import { scoredBetsWithMarkets } from "../store/insider-scores.js";

/** How far back a bet's last fill may be to be told: well within the deliveries' keeping (ALERTS_DELIVERIES_KEPT_DAYS). */
export const INSIDER_ALERT_DAYS = 7;
const DAY = 86_400;

export class InsiderAlerts extends PollingWatcher {
  constructor(deps: WatcherDeps) {
    super(deps, "insider alerts", deps.config.alerts.consensusPollSeconds * 1_000);
  }

  /** One look over every active insider_alert rule; returns the deliveries stored. */
  override look(): Promise<number> {
    return this.deps.store.transaction(async (tx) => {
      const db = alertsDb(tx.db);
      const rules = (
        await db
          .selectFrom("alert_rules")
          .selectAll()
          .where("kind", "=", "insider_alert")
          .where("status", "=", "active")
          .execute()
      ).map(ruleOf);
      if (rules.length === 0) return 0;
      const fallback = this.deps.config.insider.minScore;
      const least = Math.min(...rules.map((rule) => rule.filters.min_score ?? fallback));
      const nowMs = this.deps.clock.nowMs();
      const since = Math.floor(nowMs / 1_000) - INSIDER_ALERT_DAYS * DAY;
      const bets = await scoredBetsWithMarkets(tx.db, tx.kind)
        .where("s.score_code", ">=", hundredthsFrom(least))
        .where("s.last_ts", ">=", since)
        .orderBy("s.score_code", "desc")
        .orderBy("s.wallet")
        .execute();
      const active = new Set(
        (await db.selectFrom("alert_destinations").select("id").where("status", "=", "active").execute()).map((d) =>
          Number(d.id),
        ),
      );
      const rows = [];
      for (const rule of rules) {
        const min = rule.filters.min_score ?? fallback;
        const destinations = rule.destination_ids.filter((id) => active.has(id));
        for (const bet of bets) {
          if (Number(bet.score) < min || Number(bet.last_ts) < rule.created_at) continue;
          if (rule.filters.markets.length > 0 && !rule.filters.markets.includes(bet.condition_id)) continue;
          if (rule.filters.categories.length > 0 && !rule.filters.categories.includes((bet.category ?? "") as Category))
            continue;
          const outcome = Number(bet.outcome_index) === 0 ? ("YES" as const) : ("NO" as const);
          const event: AlertEvent = {
            type: "alert.insider_alert",
            rule: { id: rule.id, name: rule.name, kind: rule.kind },
            trade: null,
            insider: {
              wallet: bet.wallet,
              condition_id: bet.condition_id,
              market_id: bet.market_id ?? null,
              market_question: bet.question ?? null,
              category: bet.category ?? null,
              outcome,
              score: Number(bet.score),
              confidence: Number(bet.confidence),
              bet_usd: Number(bet.bet_usd),
              avg_price: Number(bet.avg_price),
              cluster_id: bet.cluster_id,
              last_ts: Number(bet.last_ts),
            },
            links: alertLinks(this.deps.config.alerts.dashboardUrl, bet.wallet, bet.market_id ?? null),
            test: false,
          };
          rows.push(
            ...ruleDeliveries(rule, destinations, {
              key: `insider:${bet.wallet}:${bet.condition_id}:${outcome}`,
              payload: JSON.stringify(event),
              nowMs,
            }),
          );
        }
      }
      return insertDeliveries(db, rows);
    });
  }
}
