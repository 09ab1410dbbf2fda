/**
 * The signals Pelagic emits, recorded in the signal ledger's hash chain as they are emitted (issue 52; the chain:
 * src/store/signal-ledger.ts; the grading: src/analytics/informed/scorecard-reads.ts). Each refresh records, about
 * markets not resolved yet (a signal about a settled market predicts nothing):
 * - `insider_alert`: a bet scoring INSIDER_MIN_SCORE or more (`insider_scores`) whose last fill is within a day;
 * - `whale_alert`: a Smart Money fill of ALERTS_WHALE_MIN_USD or more stored since the last refresh (the fills before
 *   the first refresh are history, not signals); a buy backs its outcome, a sale the other one;
 * - `consensus`: a market's Smart Money consensus (the side more whales stand on, `market_stats`) when first taken
 *   or changed to the other side.
 * Emitted at the refresh's clock. One transaction per refresh: the fill watermark moves with the records.
 */
import { sql } from "kysely";
import type { Config } from "../config/index.js";
import type { Store } from "../store/database.js";
import { readDeriveState, writeDeriveState } from "../store/derive-state.js";
import { appendSignals, type NewSignal } from "../store/signal-ledger.js";
import { MICRO } from "../venue/units.js";

const DAY = 86_400;
/** derive_state: the highest fill id looked at for whale alerts (0: not started). */
const FILL_WATERMARK = "signal_fill_watermark";
const FILLS_PER_ROUND = 20_000;

/** SQL: a market with no resolution yet, by its condition id under alias `alias`. */
const unresolved = (alias: string) =>
  sql<boolean>`not exists (select 1 from market_resolutions r where r.condition_id = ${sql.ref(`${alias}.condition_id`)})
    and not exists (select 1 from markets m2 where m2.condition_id = ${sql.ref(`${alias}.condition_id`)} and m2.resolution is not null)`;

export class SignalRecorder {
  constructor(
    private readonly store: Store,
    private readonly config: Pick<Config, "insider" | "alerts">,
  ) {}

  /** Records what was emitted since the last refresh; returns how many records were appended. */
  async record(now: number): Promise<number> {
    return this.store.db.transaction().execute(async (tx) => {
      const signals = [
        ...(await this.insiderAlerts(tx, now)),
        ...(await this.whaleAlerts(tx, now)),
        ...(await this.consensus(tx, now)),
      ];
      return appendSignals(tx, signals);
    });
  }

  private async insiderAlerts(db: Store["db"], now: number): Promise<NewSignal[]> {
    const rows = await db
      .selectFrom("insider_scores as s")
      .select(["wallet", "condition_id", "outcome_index", "score", "confidence", "bet_usd", "avg_price"])
      .where("score", ">=", this.config.insider.minScore)
      .where("last_ts", ">=", now - DAY)
      .where(unresolved("s"))
      .orderBy("score", "desc")
      .orderBy("wallet")
      .orderBy("condition_id")
      .execute();
    return rows.map((r) => ({
      kind: "insider_alert",
      emitted_at: now,
      condition_id: r.condition_id,
      outcome_index: Number(r.outcome_index),
      wallet: r.wallet,
      ref: `insider:${r.wallet}:${r.condition_id}:${r.outcome_index}`,
      detail: JSON.stringify({
        score: r.score,
        confidence: r.confidence,
        bet_usd: r.bet_usd,
        avg_price: r.avg_price,
      }),
    }));
  }

  private async whaleAlerts(db: Store["db"], now: number): Promise<NewSignal[]> {
    const watermark = await readDeriveState(db, FILL_WATERMARK);
    const top = await db.selectFrom("fill_rows").select(sql<number | null>`max(id)`.as("id")).executeTakeFirst();
    const highest = Number(top?.id ?? 0);
    if (watermark === 0) {
      // The first look: what is stored is history; signals start with the next fill.
      await writeDeriveState(db, FILL_WATERMARK, Math.max(1, highest));
      return [];
    }
    const rows = await db
      .selectFrom("fills as f")
      .innerJoin("wallet_stats as w", "w.wallet", "f.wallet")
      .select(["f.id", "f.fill_key", "f.wallet", "f.condition_id", "f.outcome_index", "f.side", "f.price", "f.usd"])
      .where("f.id", ">", watermark)
      .where("f.usd", ">=", this.config.alerts.defaultMinUsd * MICRO)
      .where("w.is_smart", "=", 1)
      .where(unresolved("f"))
      .orderBy("f.id")
      .limit(FILLS_PER_ROUND)
      .execute();
    const reached = rows.length === FILLS_PER_ROUND ? Number(rows.at(-1)!.id) : highest;
    if (reached > watermark) await writeDeriveState(db, FILL_WATERMARK, reached);
    return rows.map((r) => {
      const outcome = Number(r.outcome_index);
      return {
        kind: "whale_alert",
        emitted_at: now,
        condition_id: r.condition_id,
        outcome_index: r.side === "BUY" ? outcome : 1 - outcome,
        wallet: r.wallet,
        ref: `whale:${r.fill_key}`,
        detail: JSON.stringify({ side: r.side, outcome_index: outcome, price: r.price, usd: Number(r.usd) / MICRO }),
      };
    });
  }

  private async consensus(db: Store["db"], now: number): Promise<NewSignal[]> {
    const standing = await db
      .selectFrom("market_stats as s")
      .select(["s.condition_id", "s.whales_yes", "s.whales_no"])
      .where(sql<boolean>`s.whales_yes <> s.whales_no`)
      .where(unresolved("s"))
      .orderBy("s.condition_id")
      .execute();
    if (standing.length === 0) return [];
    const last = new Map<string, { side: number; count: number }>();
    const recorded = await db
      .selectFrom("signal_ledger")
      .select(["condition_id", "outcome_index", "seq"])
      .where("kind", "=", "consensus")
      .orderBy("seq")
      .execute();
    for (const r of recorded)
      last.set(r.condition_id, { side: Number(r.outcome_index), count: (last.get(r.condition_id)?.count ?? 0) + 1 });
    const out: NewSignal[] = [];
    for (const m of standing) {
      const side = Number(m.whales_yes) > Number(m.whales_no) ? 0 : 1;
      const before = last.get(m.condition_id);
      if (before?.side === side) continue;
      out.push({
        kind: "consensus",
        emitted_at: now,
        condition_id: m.condition_id,
        outcome_index: side,
        wallet: null,
        ref: `consensus:${m.condition_id}:${(before?.count ?? 0) + 1}`,
        detail: JSON.stringify({ whales_yes: Number(m.whales_yes), whales_no: Number(m.whales_no) }),
      });
    }
    return out;
  }
}
