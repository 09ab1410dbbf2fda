/**
 * The scorecard's grades replayed from the simulation's ground truth alone, for checking Pelagic's: each recorded
 * signal's market outcome from the world's hidden truth (graded once resolved by the world's end), and the follow
 * return at the first fill on the backed outcome after the signal, from the world's own fills, with the venue's taker
 * fee. The formulas are written out here, not taken from Pelagic (docs/METRICS.md, "Scorecard").
 */
import { truthFills, type TruthFill } from "../../servers/ground-truth.js";
import type { World } from "../index.js";

export interface RecordedSignal {
  readonly kind: string;
  readonly emittedAt: number;
  readonly conditionId: string;
  readonly outcomeIndex: number;
}

export interface TruthGrade {
  readonly kind: string;
  readonly signals: number;
  readonly graded: number;
  readonly hits: number;
  readonly followed: number;
  /** Σ follow returns, to compare means. */
  readonly returnSum: number;
}

/** Per kind, in kind order. */
export function gradeFromTruth(world: World, signals: readonly RecordedSignal[]): TruthGrade[] {
  const markets = new Map(world.markets.map((m) => [m.conditionId, m]));
  const fillsOf = new Map<string, TruthFill[]>();
  const wanted = new Set(signals.map((s) => s.conditionId));
  for (const fill of truthFills(world)) {
    if (!wanted.has(fill.conditionId)) continue;
    const list = fillsOf.get(fill.conditionId);
    if (list) list.push(fill);
    else fillsOf.set(fill.conditionId, [fill]);
  }
  for (const list of fillsOf.values())
    list.sort((a, b) => a.ts - b.ts || a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  const byKind = new Map<
    string,
    { signals: number; graded: number; hits: number; followed: number; returnSum: number }
  >();
  for (const s of signals) {
    const tally = byKind.get(s.kind) ?? { signals: 0, graded: 0, hits: 0, followed: 0, returnSum: 0 };
    byKind.set(s.kind, tally);
    tally.signals++;
    const market = markets.get(s.conditionId);
    if (!market || market.resolvedAt === null || market.resolvedAt > world.end) continue;
    const payout = market.truth === 2 ? 0.5 : market.truth === s.outcomeIndex ? 1 : 0;
    tally.graded++;
    if (payout > 0.5) tally.hits++;
    const entry = (fillsOf.get(s.conditionId) ?? []).find(
      (f) => f.outcomeIndex === s.outcomeIndex && f.ts > s.emittedAt,
    );
    if (!entry) continue;
    const price = entry.priceMicro / 1e6;
    const cost = price + market.fee.rate * price * (1 - price);
    tally.followed++;
    tally.returnSum += cost > 0 ? (payout - cost) / cost : 0;
  }
  return [...byKind].sort(([a], [b]) => (a < b ? -1 : 1)).map(([kind, t]) => ({ kind, ...t }));
}
