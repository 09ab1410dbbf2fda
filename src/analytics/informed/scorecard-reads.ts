/**
 * The public scorecard (issue 52): the signal ledger (src/store/signal-ledger.ts) checked link by link, and every
 * signal graded once its market resolved (src/ledger/scorecard.ts): hit rate and the return of following it at the
 * first trade after it, with the venue's taker fee, per kind and month with 95% intervals.
 */
import { sql } from "kysely";
import { followReturn, resolutionPayoutYes, scorecardRows, sidePayout, type GradedSignal } from "../../ledger/index.js";
import type { Store } from "../../store/database.js";
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
    // One statement: each record with its market's resolution and fee rate, and the first trade on its outcome after it.
    const rows = await db
      .selectFrom("signal_ledger as s")
      .leftJoin("markets as m", "m.condition_id", "s.condition_id")
      .leftJoin("market_resolutions as r", "r.condition_id", "s.condition_id")
      .select((eb) => [
        "s.seq",
        "s.kind",
        "s.emitted_at",
        "s.condition_id",
        "s.outcome_index",
        "m.fee_rate",
        eb.fn.coalesce("r.resolution", "m.resolution").as("resolution"),
        eb
          .selectFrom("fills as f")
          .select("f.price")
          .whereRef("f.condition_id", "=", "s.condition_id")
          .whereRef("f.outcome_index", "=", "s.outcome_index")
          .whereRef("f.ts", ">", "s.emitted_at")
          .orderBy("f.ts")
          .orderBy("f.id")
          .limit(1)
          .as("entry_price"),
      ])
      .orderBy("s.seq")
      .execute();
    return rows.map((r) => {
      const outcome = Number(r.outcome_index);
      const resolution = (r.resolution ?? null) as Resolution | null;
      return {
        seq: Number(r.seq),
        kind: r.kind,
        emittedAt: Number(r.emitted_at),
        conditionId: r.condition_id,
        outcomeIndex: outcome,
        payout: resolution ? sidePayout(resolutionPayoutYes(resolution), outcome) / MICRO : null,
        entryPrice: r.entry_price == null ? null : Number(r.entry_price),
        feeRate: Number(r.fee_rate ?? 0),
      };
    });
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
