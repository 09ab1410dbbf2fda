/**
 * Insider reads (issue 52): the insider alerts (bets scoring INSIDER_MIN_SCORE or more), a market's informed flow
 * (which side the flagged money is on, against the price), and a wallet's scored bets, from `insider_scores`
 * (src/derive/insider-scores.ts; the rule: src/ledger/insider-score.ts).
 */
import { decodeInsiderFacts, insiderComponents } from "../../ledger/index.js";
import type { Store } from "../../store/database.js";
import { deriveStateStamp, INSIDER_GENERATION } from "../../store/derive-state.js";
import { hundredthsFrom } from "../../store/insider-score-hundredths.js";
import { scoredBetsWithMarkets } from "../../store/insider-scores.js";
import { tableChangesStamp } from "../../store/table-changes.js";
import type { Category } from "../../venue/categories.js";

const DAY = 86_400;

const scoredBets = (store: Store) => scoredBetsWithMarkets(store.db, store.kind);

type ScoredRow = Awaited<ReturnType<ReturnType<typeof scoredBets>["execute"]>>[number];

function bet(r: ScoredRow) {
  const outcome = Number(r.outcome_index) === 0 ? ("YES" as const) : ("NO" as const);
  const own = {
    betUsd: Number(r.bet_usd),
    avgPrice: Number(r.avg_price),
    firstTs: Number(r.first_ts),
    lastTs: Number(r.last_ts),
  };
  return {
    wallet: r.wallet,
    condition_id: r.condition_id,
    market_id: r.market_id ?? null,
    market_title: r.question ?? null,
    category: (r.category as Category | null) ?? null,
    outcome,
    score: Number(r.score),
    confidence: Number(r.confidence),
    bet_usd: own.betUsd,
    avg_price: own.avgPrice,
    current_price: (outcome === "YES" ? r.price_yes : r.price_no) ?? null,
    first_ts: own.firstTs,
    last_ts: own.lastTs,
    cluster_id: r.cluster_id,
    components: insiderComponents(decodeInsiderFacts(own, r.facts)),
  };
}

export interface AlertFilter {
  readonly minScore: number;
  readonly days: number;
  readonly category: Category | null;
  readonly market: string | null;
  readonly limit: number;
}

export class InsiderReads {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /**
   * What every answer here is computed from: the scored bets, rewritten whole with `insider_generation` bumped in
   * the same transaction, and the markets' rows (their titles, categories and prices; `table_changes`). Answers are
   * kept under it (src/kept/stamped-bodies.ts).
   */
  async stamp(): Promise<string> {
    const generation = await deriveStateStamp(this.store, INSIDER_GENERATION);
    return `${generation}|${await tableChangesStamp(this.store, ["markets"])}`;
  }

  /**
   * The alerts with the first second at which the clock alone may change them: when the bet of the answer whose
   * last fill is oldest leaves the window of `days` (a bet outside it never comes back; new bets come with a new
   * `stamp`).
   */
  async alertsUntil(filter: AlertFilter) {
    const answer = await this.alerts(filter);
    return { answer, until: Math.min(...answer.alerts.map((a) => a.last_ts + filter.days * DAY + 1)) };
  }

  /** Bets scoring `minScore` or more whose last fill is within `days`, the highest first. */
  async alerts(filter: AlertFilter) {
    let query = scoredBets(this.store)
      .where("s.score_code", ">=", hundredthsFrom(filter.minScore))
      .where("s.last_ts", ">=", this.now() - filter.days * DAY);
    if (filter.category) query = query.where("m.category", "=", filter.category);
    if (filter.market)
      query = query.where((eb) => eb.or([eb("s.condition_id", "=", filter.market!), eb("m.id", "=", filter.market!)]));
    const rows = await query
      .orderBy("s.score_code", "desc")
      .orderBy("s.last_ts", "desc")
      .orderBy("s.wallet")
      .orderBy("s.condition_id")
      .orderBy("s.outcome_index")
      .limit(filter.limit)
      .execute();
    const computed = await this.computedAt();
    return {
      min_score: filter.minScore,
      days: filter.days,
      count: rows.length,
      computed_at: computed,
      alerts: rows.map(bet),
    };
  }

  /** When the scores were computed: any row's, as the Deriver rewrites them all at once (a max read every row). */
  private async computedAt(): Promise<number | null> {
    const row = await this.store.db.selectFrom("insider_scores").select("computed_at").limit(1).executeTakeFirst();
    return row ? Number(row.computed_at) : null;
  }

  /** A market's flagged money per side against its price; null when the market is not stored. */
  async marketFlow(conditionId: string, minScore: number) {
    const market = await this.store.db
      .selectFrom("markets")
      .select(["id", "condition_id", "question", "price_yes", "price_no", "resolution"])
      .where((eb) => eb.or([eb("condition_id", "=", conditionId), eb("id", "=", conditionId)]))
      .executeTakeFirst();
    if (!market) return null;
    const rows = await scoredBets(this.store)
      .where("s.condition_id", "=", market.condition_id)
      .where("s.score_code", ">=", hundredthsFrom(minScore))
      .orderBy("s.score_code", "desc")
      .orderBy("s.wallet")
      .orderBy("s.outcome_index")
      .execute();
    const bets = rows.map(bet);
    const side = (outcome: "YES" | "NO") => {
      const on = bets.filter((b) => b.outcome === outcome);
      return {
        usd: on.reduce((s, b) => s + b.bet_usd, 0),
        wallets: new Set(on.map((b) => b.wallet)).size,
        clusters: new Set(on.map((b) => b.cluster_id).filter((c) => c !== null)).size,
        avg_score: on.length ? on.reduce((s, b) => s + b.score, 0) / on.length : null,
      };
    };
    const [yes, no] = [side("YES"), side("NO")];
    const flagged = yes.usd === no.usd ? null : yes.usd > no.usd ? ("YES" as const) : ("NO" as const);
    const priceOfFlagged = flagged === null ? null : flagged === "YES" ? market.price_yes : market.price_no;
    return {
      condition_id: market.condition_id,
      market_id: market.id,
      market_title: market.question,
      resolution: market.resolution,
      min_score: minScore,
      price_yes: market.price_yes,
      price_no: market.price_no,
      yes,
      no,
      flagged_side: flagged,
      flagged_side_price: priceOfFlagged ?? null,
      against_price: priceOfFlagged == null ? null : priceOfFlagged < 0.5,
      bets,
    };
  }

  /** A wallet's scored bets, the highest first, and its best score. */
  async wallet(address: string, minScore: number, page: { limit: number; offset: number }) {
    const summary = await this.store.db
      .selectFrom("insider_scores")
      .select((eb) => [
        eb.fn.countAll<number>().as("total"),
        eb.fn.max("score").as("best"),
        eb.fn.sum<number>(eb.case().when("score", ">=", minScore).then(1).else(0).end()).as("flagged"),
      ])
      .where("wallet", "=", address)
      .executeTakeFirst();
    const rows = await scoredBets(this.store)
      .where("s.wallet", "=", address)
      .orderBy("s.score_code", "desc")
      .orderBy("s.last_ts", "desc")
      .orderBy("s.condition_id")
      .orderBy("s.outcome_index")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const total = Number(summary?.total ?? 0);
    return {
      wallet: address,
      min_score: minScore,
      best_score: summary?.best == null ? null : Number(summary.best),
      flagged: Number(summary?.flagged ?? 0),
      total,
      count: rows.length,
      has_more: page.offset + rows.length < total,
      offset: page.offset,
      bets: rows.map(bet),
    };
  }
}
