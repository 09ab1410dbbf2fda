/**
 * Whale flips (/api/v2/whale-flips, /api/public/v1/whale-flips): smart whales whose net position in a market (YES
 * cost minus NO cost) stood on one team at a daily position snapshot and stands on the other now, by at least
 * FLIP_MIN_SWING_USD of swing (`whaleFlip` in src/ledger/whale-signals.ts). The snapshot compared with is the latest
 * one taken at or before `days` before today (UTC), so never today's; "now" is the copy of the whales' open
 * positions (smart-holdings.ts). The routes keep each answer for the clock hour.
 */
import { SECONDS_PER_DAY, whaleFlip, isoDay } from "../../ledger/index.js";
import { latestSnapshotDay } from "../../store/position-snapshots.js";
import { inSlices, placeholders, queryRows } from "../../store/raw-sql.js";
import type { WhaleReads } from "./whale-reads.js";

export interface FlipRules {
  /** CONSENSUS_MIN_USD: a net under it stands on no team. */
  minTeamUsd: number;
  /** FLIP_MIN_SWING_USD. */
  minSwingUsd: number;
}

export interface WhaleFlipRow {
  wallet: string;
  display_name: string | null;
  market_id: string | null;
  condition_id: string;
  question: string | null;
  old_side: "YES" | "NO";
  new_side: "YES" | "NO";
  old_size_usd: number;
  new_size_usd: number;
  swing_usd: number;
  win_rate: number;
  lifetime_pnl: number;
}

export interface WhaleFlipsAnswer {
  flips: WhaleFlipRow[];
  lookback_days: number;
  /** UTC date of the snapshot compared with; null when none is that old. */
  comparison_date: string | null;
  as_of: number;
}

/** The latest snapshot day at or before `days` days before today (never today's own). */
async function comparisonDay(reads: WhaleReads, now: number, days: number): Promise<number | null> {
  const today = Math.floor(now / SECONDS_PER_DAY) * SECONDS_PER_DAY;
  const target = today - Math.max(1, days) * SECONDS_PER_DAY;
  return latestSnapshotDay(reads.store.db, reads.store.kind, target);
}

/** Every flip since the comparison snapshot, largest swing first. */
export async function whaleFlips(reads: WhaleReads, days: number, rules: FlipRules): Promise<WhaleFlipsAnswer> {
  const now = reads.now();
  const [holdings, index, day] = await Promise.all([
    reads.holdings.current(),
    reads.markets(),
    comparisonDay(reads, now, days),
  ]);
  if (day === null) return { flips: [], lookback_days: days, comparison_date: null, as_of: now };
  const store = reads.store;
  const then = await inSlices(
    [...holdings.roster.whales.keys()],
    (slice) =>
      queryRows<{ wallet: string; condition_id: string; yes_cost: number; no_cost: number }>(
        store.db,
        store.kind,
        `select wallet, condition_id, yes_cost, no_cost from position_snapshots where day = ? and wallet in ${placeholders(slice.length)}`,
        [day, ...slice],
      ),
    200,
  );
  const nowNet = new Map(holdings.holdings.map((h) => [`${h.wallet}:${h.condition_id}`, h.netUsd]));
  const flips: WhaleFlipRow[] = [];
  for (const r of then) {
    const oldNet = Number(r.yes_cost) - Number(r.no_cost);
    const newNet = nowNet.get(`${r.wallet}:${r.condition_id}`) ?? 0;
    const flip = whaleFlip(oldNet, newNet, rules.minTeamUsd, rules.minSwingUsd);
    if (!flip) continue;
    const whale = holdings.roster.whales.get(r.wallet)!;
    const market = index.byConditionId.get(r.condition_id);
    flips.push({
      wallet: r.wallet,
      display_name: whale.name,
      market_id: market?.id ?? null,
      condition_id: r.condition_id,
      question: market?.question ?? null,
      old_side: flip.oldSide,
      new_side: flip.newSide,
      old_size_usd: Math.abs(oldNet),
      new_size_usd: Math.abs(newNet),
      swing_usd: flip.swingUsd,
      win_rate: whale.winRate,
      lifetime_pnl: whale.totalPnl,
    });
  }
  flips.sort(
    (a, b) =>
      b.swing_usd - a.swing_usd ||
      (a.wallet < b.wallet ? -1 : a.wallet > b.wallet ? 1 : a.condition_id < b.condition_id ? -1 : 1),
  );
  return { flips, lookback_days: days, comparison_date: isoDay(day / SECONDS_PER_DAY), as_of: now };
}
