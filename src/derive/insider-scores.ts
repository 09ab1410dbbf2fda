/**
 * Insider scores (issue 52): every position bought for at least INSIDER_MIN_USD whose first fill is within
 * INSIDER_WINDOW_DAYS, scored by the ledger's rule (src/ledger/insider-score.ts) from the stored positions, the
 * wallets' funding and clusters, and the markets' figures and resolutions; `insider_scores` rewritten whole in one
 * transaction (`replaceInsiderScores`, which moves the stamp the API keeps its insider answers under). Run by the
 * Deriver's refresh, at most every INSIDER_REFRESH_SECONDS.
 */
import { sql } from "kysely";
import type { Config } from "../config/index.js";
import {
  decodeInsiderFacts,
  encodeInsiderFacts,
  insiderScore,
  resolutionPayoutYes,
  sidePayout,
  type InsiderBet,
} from "../ledger/index.js";
import type { Store } from "../store/database.js";
import { replaceInsiderScores } from "../store/insider-scores.js";
import { fundingEdgesInto } from "../store/funding.js";
import { chunks } from "../store/raw-sql.js";
import type { InsiderScoresTable, Resolution } from "../store/schema.js";
import { MICRO } from "../venue/units.js";

const DAY = 86_400;

type Settings = Pick<Config["insider"], "minUsd" | "windowDays">;

interface Candidate {
  wallet: string;
  condition_id: string;
  outcome_index: number;
  bet_usd: number;
  avg_price: number;
  first_ts: number;
  last_ts: number;
}

/** Per wallet: the first fill of each market it traded (sorted), what it bought in all, when it first showed. */
interface WalletHistory {
  marketStarts: number[];
  boughtUsd: number;
  since: number;
}

async function walletHistories(store: Store, wallets: readonly string[]): Promise<Map<string, WalletHistory>> {
  const out = new Map<string, WalletHistory>();
  for (const part of chunks(wallets)) {
    const rows = await store.db
      .selectFrom("positions")
      .select([
        "wallet",
        "condition_id",
        sql<number>`min(first_ts)`.as("first_ts"),
        sql<number>`sum(total_bought * avg_price)`.as("bought"),
      ])
      .where("wallet", "in", part)
      .groupBy(["wallet", "condition_id"])
      .execute();
    for (const r of rows) {
      const h = out.get(r.wallet) ?? { marketStarts: [], boughtUsd: 0, since: Number.MAX_SAFE_INTEGER };
      h.marketStarts.push(Number(r.first_ts));
      h.boughtUsd += Number(r.bought) / MICRO;
      h.since = Math.min(h.since, Number(r.first_ts));
      out.set(r.wallet, h);
    }
    // When each was first funded: its earliest transfer in, over its senders.
    for (const edge of await fundingEdgesInto(store, part)) {
      const h = out.get(edge.to);
      if (h) h.since = Math.min(h.since, edge.firstTs);
    }
  }
  for (const h of out.values()) h.marketStarts.sort((a, b) => a - b);
  return out;
}

interface MarketFacts {
  volumeUsd: number;
  liquidityUsd: number;
  end: number | null;
  resolution: Resolution | null;
}

async function marketFacts(store: Store, conditions: readonly string[]): Promise<Map<string, MarketFacts>> {
  const out = new Map<string, MarketFacts>();
  for (const part of chunks(conditions)) {
    const rows = await store.db
      .selectFrom("markets as m")
      .leftJoin("market_stats as s", "s.condition_id", "m.condition_id")
      .leftJoin("market_resolutions as r", "r.condition_id", "m.condition_id")
      .select([
        "m.condition_id",
        "m.volume",
        "m.liquidity",
        "m.end_date",
        "m.closed_time",
        "s.volume as ledger_volume",
        "r.resolved_at",
        (eb) => eb.fn.coalesce("r.resolution", "m.resolution").as("resolution"),
      ])
      .where("m.condition_id", "in", part)
      .execute();
    for (const r of rows)
      out.set(r.condition_id, {
        volumeUsd: Number(r.ledger_volume ?? r.volume ?? 0),
        liquidityUsd: Number(r.liquidity ?? 0),
        end: r.resolved_at ?? r.closed_time ?? r.end_date ?? null,
        resolution: r.resolution ?? null,
      });
  }
  return out;
}

/** Markets whose first fill came before `ts` (binary search over the sorted starts). */
function startsBefore(starts: readonly number[], ts: number): number {
  let [lo, hi] = [0, starts.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Every candidate bet scored, as rows of `insider_scores`. */
export async function scoreBets(store: Store, settings: Settings, now: number): Promise<InsiderScoresTable[]> {
  const candidates: Candidate[] = (
    await store.db
      .selectFrom("positions")
      .select([
        "wallet",
        "condition_id",
        "outcome_index",
        "avg_price",
        "first_ts",
        "last_ts",
        sql<number>`total_bought * avg_price`.as("bought"),
      ])
      .where(sql<number>`total_bought * avg_price`, ">=", settings.minUsd * MICRO)
      .where("first_ts", ">=", now - settings.windowDays * DAY)
      .execute()
  ).map((r) => ({
    wallet: r.wallet,
    condition_id: r.condition_id,
    outcome_index: Number(r.outcome_index),
    bet_usd: Number(r.bought) / MICRO,
    avg_price: Number(r.avg_price),
    first_ts: Number(r.first_ts),
    last_ts: Number(r.last_ts),
  }));
  if (candidates.length === 0) return [];
  const wallets = [...new Set(candidates.map((c) => c.wallet))];
  const [histories, markets] = await Promise.all([
    walletHistories(store, wallets),
    marketFacts(store, [...new Set(candidates.map((c) => c.condition_id))]),
  ]);
  const clusterOf = new Map<string, string>();
  for (const part of chunks(wallets)) {
    const rows = await store.db
      .selectFrom("funding_clusters")
      .select(["wallet", "cluster_id"])
      .where("wallet", "in", part)
      .execute();
    for (const r of rows) clusterOf.set(r.wallet, r.cluster_id);
  }
  /** Candidates per (market, outcome, cluster): the members that backed it. */
  const backers = new Map<string, number>();
  const backingKey = (c: Candidate, cluster: string) => `${c.condition_id}|${c.outcome_index}|${cluster}`;
  for (const c of candidates) {
    const cluster = clusterOf.get(c.wallet);
    if (cluster) backers.set(backingKey(c, cluster), (backers.get(backingKey(c, cluster)) ?? 0) + 1);
  }
  return candidates.map((c) => {
    const history = histories.get(c.wallet)!;
    const market = markets.get(c.condition_id);
    const cluster = clusterOf.get(c.wallet) ?? null;
    const payout = market?.resolution
      ? sidePayout(resolutionPayoutYes(market.resolution), c.outcome_index) / MICRO
      : null;
    const bet: InsiderBet = {
      betUsd: c.bet_usd,
      avgPrice: c.avg_price,
      firstTs: c.first_ts,
      lastTs: c.last_ts,
      walletSince: history.since,
      marketsBefore: startsBefore(history.marketStarts, c.first_ts),
      walletBoughtUsd: history.boughtUsd,
      marketVolumeUsd: market?.volumeUsd ?? 0,
      marketLiquidityUsd: market?.liquidityUsd ?? 0,
      marketEnd: market?.end ?? null,
      won: payout === null ? null : payout > 0.5,
      inCluster: cluster !== null,
      clusterBackers: cluster ? backers.get(backingKey(c, cluster))! - 1 : 0,
    };
    // Scored from the facts as stored, so that the components the reads compute from them add up to the score.
    const facts = encodeInsiderFacts(bet);
    const scored = insiderScore(decodeInsiderFacts(bet, facts));
    return {
      ...c,
      score: scored.score,
      confidence: scored.confidence,
      cluster_id: cluster,
      facts,
      computed_at: now,
    };
  });
}

export class InsiderScoreWriter {
  private lastRun = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: Store,
    private readonly settings: Config["insider"],
  ) {}

  /** Scores every bet again when INSIDER_REFRESH_SECONDS have passed (or `force`); returns whether it did. */
  async refresh(now: number, force = false): Promise<boolean> {
    if (!force && now - this.lastRun < this.settings.refreshSeconds) return false;
    const rows = await scoreBets(this.store, this.settings, now);
    await replaceInsiderScores(this.store, rows);
    this.lastRun = now;
    return true;
  }
}
