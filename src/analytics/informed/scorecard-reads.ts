/**
 * The public scorecard (issue 52): the signal ledger (src/store/signal-ledger.ts) checked link by link, and every
 * signal graded once its market resolved (src/ledger/scorecard.ts): hit rate and the return of following it at the
 * first trade after it, with the venue's taker fee, per kind and month with 95% intervals.
 */
import { sql } from "kysely";
import { followReturn, resolutionPayoutYes, scorecardRows, sidePayout, type GradedSignal } from "../../ledger/index.js";
import type { Store } from "../../store/database.js";
import { chunks } from "../../store/raw-sql.js";
import type { Resolution } from "../../store/schema.js";
import { verifySignalChain, type ChainCheck } from "../../store/signal-ledger.js";
import { MICRO } from "../../venue/units.js";

interface Graded extends GradedSignal {
  readonly seq: number;
  readonly conditionId: string;
  readonly outcomeIndex: number;
}

/** How long computed grades are answered again (the Deriver appends at most once a refresh). */
const KEPT_MS = 30_000;

export class ScorecardReads {
  private kept: { at: number; head: number; value: Awaited<ReturnType<ScorecardReads["compute"]>> } | null = null;

  constructor(
    private readonly store: Store,
    private readonly nowMs: () => number,
  ) {}

  private async headSeq(): Promise<number> {
    const row = await this.store.db
      .selectFrom("signal_ledger")
      .select(sql<number | null>`max(seq)`.as("seq"))
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  /** Every recorded signal with its grade so far. */
  private async graded(): Promise<Graded[]> {
    const db = this.store.db;
    const records = await db
      .selectFrom("signal_ledger")
      .select(["seq", "kind", "emitted_at", "condition_id", "outcome_index"])
      .orderBy("seq")
      .execute();
    const markets = new Map<string, { resolution: Resolution | null; feeRate: number }>();
    for (const part of chunks([...new Set(records.map((r) => r.condition_id))])) {
      const rows = await db
        .selectFrom("markets as m")
        .leftJoin("market_resolutions as r", "r.condition_id", "m.condition_id")
        .select([
          "m.condition_id",
          "m.fee_rate",
          (eb) => eb.fn.coalesce("r.resolution", "m.resolution").as("resolution"),
        ])
        .where("m.condition_id", "in", part)
        .execute();
      for (const r of rows)
        markets.set(r.condition_id, { resolution: r.resolution ?? null, feeRate: Number(r.fee_rate) });
    }
    const out: Graded[] = [];
    for (const r of records) {
      const market = markets.get(r.condition_id);
      const outcome = Number(r.outcome_index);
      const entry = await db
        .selectFrom("fills")
        .select("price")
        .where("condition_id", "=", r.condition_id)
        .where("outcome_index", "=", outcome)
        .where("ts", ">", Number(r.emitted_at))
        .orderBy("ts")
        .orderBy("id")
        .limit(1)
        .executeTakeFirst();
      out.push({
        seq: Number(r.seq),
        kind: r.kind,
        emittedAt: Number(r.emitted_at),
        conditionId: r.condition_id,
        outcomeIndex: outcome,
        payout: market?.resolution ? sidePayout(resolutionPayoutYes(market.resolution), outcome) / MICRO : null,
        entryPrice: entry ? Number(entry.price) : null,
        feeRate: market?.feeRate ?? 0,
      });
    }
    return out;
  }

  private async compute() {
    const graded = await this.graded();
    return {
      rows: scorecardRows(graded).map((r) => ({
        kind: r.kind,
        month: r.month,
        signals: r.signals,
        graded: r.graded,
        hits: r.hits,
        hit_rate: r.hitRate,
        hit_rate_low: r.hitRateInterval?.[0] ?? null,
        hit_rate_high: r.hitRateInterval?.[1] ?? null,
        followed: r.followed,
        mean_return: r.meanReturn,
        mean_return_low: r.meanReturnInterval?.[0] ?? null,
        mean_return_high: r.meanReturnInterval?.[1] ?? null,
      })),
      graded,
    };
  }

  private async current() {
    const head = await this.headSeq();
    const now = this.nowMs();
    if (!this.kept || this.kept.head !== head || now - this.kept.at > KEPT_MS)
      this.kept = { at: now, head, value: await this.compute() };
    return this.kept.value;
  }

  /**
   * The chain's state, checked on every call (an edited record must show at once), and the grades per kind and month
   * (and per kind over all months: month "all"), kept while the ledger's head and KEPT_MS stand.
   */
  async scorecard() {
    const [chain, { rows }] = await Promise.all([verifySignalChain(this.store.db), this.current()]);
    return { chain: chainBody(chain), rows, as_of: Math.floor(this.nowMs() / 1_000) };
  }

  /** Recorded signals after `afterSeq`, in chain order, each with its hashes and its grade. */
  async signals(page: { afterSeq: number; limit: number; kind: string | null }) {
    const { graded } = await this.current();
    const bySeq = new Map(graded.map((g) => [g.seq, g]));
    let query = this.store.db.selectFrom("signal_ledger").selectAll().where("seq", ">", page.afterSeq);
    if (page.kind) query = query.where("kind", "=", page.kind);
    const rows = await query
      .orderBy("seq")
      .limit(page.limit + 1)
      .execute();
    return {
      has_more: rows.length > page.limit,
      signals: rows.slice(0, page.limit).map((r) => {
        const g = bySeq.get(Number(r.seq));
        return {
          seq: Number(r.seq),
          kind: r.kind,
          emitted_at: Number(r.emitted_at),
          condition_id: r.condition_id,
          outcome: Number(r.outcome_index) === 0 ? ("YES" as const) : ("NO" as const),
          wallet: r.wallet,
          ref: r.ref,
          detail: r.detail,
          prev_hash: r.prev_hash,
          hash: r.hash,
          payout: g?.payout ?? null,
          entry_price: g?.entryPrice ?? null,
          follow_return:
            g && g.payout !== null && g.entryPrice !== null ? followReturn(g.entryPrice, g.feeRate, g.payout) : null,
        };
      }),
    };
  }
}

function chainBody(chain: ChainCheck) {
  return {
    records: chain.records,
    head_seq: chain.head?.seq ?? null,
    head_hash: chain.head?.hash ?? null,
    verified: chain.broken === null,
    broken_seq: chain.broken?.seq ?? null,
    broken_reason: chain.broken?.reason ?? null,
  };
}
