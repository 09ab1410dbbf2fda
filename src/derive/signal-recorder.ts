/**
 * The signals Pelagic emits, recorded in the signal ledger's hash chain as they are emitted (issue 52; the chain:
 * src/store/signal-ledger.ts; the grading: src/analytics/informed/scorecard-reads.ts). Each refresh records, about
 * markets not resolved yet (a signal about a settled market predicts nothing):
 * - `insider_alert`: a bet scoring INSIDER_MIN_SCORE or more (`insider_scores`) whose last fill is within a day;
 * - `whale_alert`: a Smart Money fill of ALERTS_WHALE_MIN_USD or more stored since the last refresh (the fills before
 *   the first refresh are history, not signals); a buy backs its outcome, a sale the other one;
 * - `consensus`: a market's Smart Money consensus (the side more whales stand on, `market_stats`) when first taken
 *   or changed to the other side;
 * - `whale_flip`: a Smart Money wallet whose net position in a market stood on one team at the latest daily snapshot
 *   a day old or more and stands on the other now (`whaleFlip`, the rule of /api/v2/whale-flips), once per change of
 *   side; it backs the new side.
 * Emitted at the refresh's clock. One write per refresh: the fill watermark moves with the records.
 */
import { sql } from "kysely";
import type { Config } from "../config/index.js";
import type { Store } from "../store/database.js";
import { readDeriveState, writeDeriveState } from "../store/derive-state.js";
import { hundredthsFrom } from "../store/insider-score-hundredths.js";
import { scoredBetsWithScoreCode } from "../store/insider-scores.js";
import { latestSnapshotDay } from "../store/position-snapshots.js";
import { POSITION_STATUS_CODE, positionsWithStatusCode } from "../store/position-status.js";
import { appendSignals, type NewSignal } from "../store/signal-ledger.js";
import { MICRO } from "../venue/units.js";
import { whaleFlip } from "../ledger/index.js";

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
    private readonly config: Pick<Config, "insider" | "alerts" | "whales">,
  ) {}

  /** Records what was emitted since the last refresh; returns how many records were appended. */
  async record(now: number): Promise<number> {
    // Read first, then write in one short transaction (a SQLite connection serves nothing else while one is open);
    // the Deriver is the ledger's one writer, so nothing changes what was read before the write.
    const db = this.store.db;
    const whales = await this.whaleAlerts(db, now);
    const signals = [
      ...(await this.insiderAlerts(db, now)),
      ...whales.signals,
      ...(await this.consensus(db, now)),
      ...(await this.whaleFlips(db, now)),
    ];
    return this.store.transaction(async (tx) => {
      if (whales.watermark !== null) await writeDeriveState(tx.db, FILL_WATERMARK, whales.watermark);
      return appendSignals(tx.db, signals);
    });
  }

  private async insiderAlerts(db: Store["db"], now: number): Promise<NewSignal[]> {
    const rows = await db
      .selectFrom(scoredBetsWithScoreCode(this.store.kind))
      .select(["wallet", "condition_id", "outcome_index", "score", "confidence", "bet_usd", "avg_price"])
      .where("score_code", ">=", hundredthsFrom(this.config.insider.minScore))
      .where("last_ts", ">=", now - DAY)
      .where(unresolved("s"))
      .orderBy("score_code", "desc")
      .orderBy("wallet")
      .orderBy("condition_id")
      .orderBy("outcome_index")
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

  /** The whale alerts since the watermark, and where the watermark moves (null: it stays). */
  private async whaleAlerts(db: Store["db"], now: number): Promise<{ signals: NewSignal[]; watermark: number | null }> {
    const watermark = await readDeriveState(db, FILL_WATERMARK);
    const top = await db.selectFrom("fill_rows").select(sql<number | null>`max(id)`.as("id")).executeTakeFirst();
    const highest = Number(top?.id ?? 0);
    // The first look: what is stored is history; signals start with the next fill.
    if (watermark === 0) return { signals: [], watermark: Math.max(1, highest) };
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
    const signals = rows.map((r): NewSignal => {
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
    return { signals, watermark: reached > watermark ? reached : null };
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
    const last = await lastSides(db, "consensus", (r) => r.condition_id);
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

  private async whaleFlips(db: Store["db"], now: number): Promise<NewSignal[]> {
    const day = await latestSnapshotDay(db, this.store.kind, Math.floor(now / DAY) * DAY - DAY);
    if (day === null) return [];
    const [then, open] = await Promise.all([
      db
        .selectFrom("position_snapshots as s")
        .innerJoin("wallet_stats as w", "w.wallet", "s.wallet")
        .select(["s.wallet", "s.condition_id", "s.yes_cost", "s.no_cost"])
        .where("s.day", "=", day)
        .where("w.is_smart", "=", 1)
        .where(unresolved("s"))
        .orderBy("s.wallet")
        .orderBy("s.condition_id")
        .execute(),
      db
        .selectFrom(positionsWithStatusCode(this.store.kind))
        .innerJoin("wallet_stats as w", "w.wallet", "p.wallet")
        .select(["p.wallet", "p.condition_id", "p.outcome_index", "p.shares", "p.avg_price"])
        .where("w.is_smart", "=", 1)
        .where("p.status_code", "=", POSITION_STATUS_CODE.open)
        .where("p.shares", ">", 0)
        .execute(),
    ]);
    const netNow = new Map<string, number>();
    for (const p of open) {
      const key = `${p.wallet}:${p.condition_id}`;
      const cost = (Number(p.shares) * Number(p.avg_price)) / MICRO;
      netNow.set(key, (netNow.get(key) ?? 0) + (Number(p.outcome_index) === 0 ? cost : -cost));
    }
    const last = await lastSides(db, "whale_flip", (r) => `${r.wallet}:${r.condition_id}`);
    const { consensusMinUsd, flipMinSwingUsd } = this.config.whales;
    const out: NewSignal[] = [];
    for (const r of then) {
      const key = `${r.wallet}:${r.condition_id}`;
      const oldNet = Number(r.yes_cost) - Number(r.no_cost);
      const newNet = netNow.get(key) ?? 0;
      const flip = whaleFlip(oldNet, newNet, consensusMinUsd, flipMinSwingUsd);
      if (!flip) continue;
      const side = flip.newSide === "YES" ? 0 : 1;
      const before = last.get(key);
      if (before?.side === side) continue;
      out.push({
        kind: "whale_flip",
        emitted_at: now,
        condition_id: r.condition_id,
        outcome_index: side,
        wallet: r.wallet,
        ref: `flip:${key}:${(before?.count ?? 0) + 1}`,
        detail: JSON.stringify({ old_net_usd: oldNet, new_net_usd: newNet, swing_usd: flip.swingUsd }),
      });
    }
    return out;
  }
}

/** The side each key's last record of `kind` backs, and how many records the key has. */
async function lastSides(
  db: Store["db"],
  kind: string,
  keyOf: (r: { condition_id: string; wallet: string | null }) => string,
): Promise<Map<string, { side: number; count: number }>> {
  const recorded = await db
    .selectFrom("signal_ledger")
    .select(["condition_id", "wallet", "outcome_index"])
    .where("kind", "=", kind)
    .orderBy("seq")
    .execute();
  const last = new Map<string, { side: number; count: number }>();
  for (const r of recorded) {
    const key = keyOf(r);
    last.set(key, { side: Number(r.outcome_index), count: (last.get(key)?.count ?? 0) + 1 });
  }
  return last;
}
