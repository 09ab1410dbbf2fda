/**
 * `consensus_flip` rules, in the process that ingests: every ALERTS_CONSENSUS_POLL_SECONDS, in one transaction, each
 * watched market's Smart Money consensus as the Deriver stored it (`market_stats.whales_yes`, `whales_no`: the side
 * more whales stand on, none on a tie) is compared with the side this rule saw last (`alert_cursors`,
 * `consensus:<rule>:<market>`: 1 YES, -1 NO, 0 none); a change from one side to the other stores a delivery per
 * destination (once per rule, market and change), and the side seen is kept. A rule's first look is its baseline.
 */
import type { StoreTransaction } from "../store/database.js";
import { inSlices, placeholders, queryRows } from "../store/raw-sql.js";
import { alertLinks, type AlertEvent } from "./alert-event.js";
import { insertDeliveries, ruleDeliveries } from "./delivery-rows.js";
import { ruleOf } from "./rules.js";
import { PollingWatcher, type WatcherDeps } from "./polling-watcher.js";
import { alertsDb } from "./tables.js";

interface MarketConsensus {
  condition_id: string;
  whales_yes: number;
  whales_no: number;
  id: string | null;
  question: string | null;
}

const sideOf = (yes: number, no: number) => (yes > no ? 1 : no > yes ? -1 : 0);

export class ConsensusFlips extends PollingWatcher {
  constructor(deps: WatcherDeps) {
    super(deps, "consensus flip alerts", deps.config.alerts.consensusPollSeconds * 1_000);
  }

  /** One look over every active consensus_flip rule; returns the deliveries stored. */
  override look(): Promise<number> {
    return this.deps.store.transaction((tx) => this.lookIn(tx));
  }

  private async lookIn(tx: StoreTransaction): Promise<number> {
    const db = alertsDb(tx.db);
    const rules = (
      await db
        .selectFrom("alert_rules")
        .selectAll()
        .where("kind", "=", "consensus_flip")
        .where("status", "=", "active")
        .execute()
    ).map(ruleOf);
    if (rules.length === 0) return 0;
    const watched = [...new Set(rules.flatMap((rule) => rule.filters.markets))];
    const consensus = new Map(
      (
        await inSlices(watched, (slice) =>
          queryRows<MarketConsensus>(
            tx.db,
            tx.kind,
            `select s.condition_id, s.whales_yes, s.whales_no, m.id, m.question from market_stats s left join markets m on m.condition_id = s.condition_id where s.condition_id in ${placeholders(slice.length)}`,
            slice,
          ),
        )
      ).map((row) => [row.condition_id, row]),
    );
    const seen = new Map(
      (await db.selectFrom("alert_cursors").selectAll().where("name", "like", "consensus:%").execute()).map((row) => [
        row.name,
        Number(row.position),
      ]),
    );
    const active = new Set(
      (await db.selectFrom("alert_destinations").select("id").where("status", "=", "active").execute()).map((d) =>
        Number(d.id),
      ),
    );
    const nowMs = this.deps.clock.nowMs();
    const rows = [];
    for (const rule of rules) {
      for (const market of rule.filters.markets) {
        const now = consensus.get(market);
        if (!now) continue;
        const side = sideOf(Number(now.whales_yes), Number(now.whales_no));
        const name = `consensus:${rule.id}:${market}`;
        const before = seen.get(name);
        if (before === side) continue;
        if (before === undefined) await db.insertInto("alert_cursors").values({ name, position: side }).execute();
        else await db.updateTable("alert_cursors").set({ position: side }).where("name", "=", name).execute();
        // Only a change from one side to the other is a flip (to or from a tie is not).
        if (before === undefined || before === 0 || side === 0) continue;
        const at = Math.floor(nowMs / 1_000);
        const event: AlertEvent = {
          type: "alert.consensus_flip",
          rule: { id: rule.id, name: rule.name, kind: rule.kind },
          trade: null,
          consensus: {
            condition_id: market,
            market_id: now.id,
            market_question: now.question,
            from: before > 0 ? "YES" : "NO",
            to: side > 0 ? "YES" : "NO",
            whales_yes: Number(now.whales_yes),
            whales_no: Number(now.whales_no),
            at,
          },
          links: { ...alertLinks(this.deps.config.alerts.dashboardUrl, "", now.id), wallet: null },
          test: false,
        };
        const payload = JSON.stringify(event);
        const eventKey = `consensus:${market}:${at}`;
        rows.push(
          ...ruleDeliveries(
            rule,
            rule.destination_ids.filter((id) => active.has(id)),
            { key: eventKey, payload, nowMs },
          ),
        );
      }
    }
    return insertDeliveries(db, rows);
  }
}
