/**
 * The public scorecard's arithmetic (issue 52; docs/METRICS.md, "Scorecard"): what following a signal earned, and
 * how sure a hit rate and a mean return are. A signal backs one outcome of one market; it is graded once the market
 * resolves: a **hit** when the backed outcome pays more than half, and the **follow return** of buying one share of
 * it at the first trade after the signal, paying the venue's taker fee (rate × p × (1 − p) per share), held to the
 * payout: (payout − p − fee) ÷ (p + fee).
 */

/** The venue's taker fee per share at price p (docs: rate × p × (1 − p)). */
export function takerFeePerShare(feeRate: number, price: number): number {
  return feeRate * price * (1 - price);
}

/** The return on the collateral of buying one share at `price` with its taker fee, held to `payout` (0..1). */
export function followReturn(price: number, feeRate: number, payout: number): number {
  const cost = price + takerFeePerShare(feeRate, price);
  return cost > 0 ? (payout - cost) / cost : 0;
}

/** The Wilson score interval (95%) of `hits` in `n`; null without a trial. */
export function wilsonInterval(hits: number, n: number, z = 1.96): [number, number] | null {
  if (n === 0) return null;
  const p = hits / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** The mean and its normal 95% interval (mean ± 1.96 s/√n); the interval is null under two values. */
export function meanInterval(values: readonly number[]): { mean: number | null; interval: [number, number] | null } {
  const n = values.length;
  if (n === 0) return { mean: null, interval: null };
  const mean = values.reduce((s, v) => s + v, 0) / n;
  if (n < 2) return { mean, interval: null };
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1);
  const half = (1.96 * Math.sqrt(variance)) / Math.sqrt(n);
  return { mean, interval: [mean - half, mean + half] };
}

export interface GradedSignal {
  readonly kind: string;
  /** Unix seconds. */
  readonly emittedAt: number;
  /** The backed outcome's payout once resolved (0..1); null while open. */
  readonly payout: number | null;
  /** The first trade's price on the backed outcome after the signal; null when none came. */
  readonly entryPrice: number | null;
  readonly feeRate: number;
}

export interface ScorecardRow {
  readonly kind: string;
  /** `YYYY-MM` (UTC) of emission, or "all". */
  readonly month: string;
  readonly signals: number;
  readonly graded: number;
  readonly hits: number;
  readonly hitRate: number | null;
  readonly hitRateInterval: [number, number] | null;
  /** Signals with a trade to follow at. */
  readonly followed: number;
  readonly meanReturn: number | null;
  readonly meanReturnInterval: [number, number] | null;
}

const monthOf = (ts: number) => new Date(ts * 1_000).toISOString().slice(0, 7);

/** Rows per kind and month, then per kind over all months, kinds and months in order. */
export function scorecardRows(signals: readonly GradedSignal[]): ScorecardRow[] {
  const groups = new Map<string, GradedSignal[]>();
  for (const s of signals)
    for (const key of [`${s.kind}|${monthOf(s.emittedAt)}`, `${s.kind}|all`]) {
      const list = groups.get(key);
      if (list) list.push(s);
      else groups.set(key, [s]);
    }
  return [...groups]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, list]) => {
      const [kind, month] = key.split("|") as [string, string];
      const graded = list.filter((s) => s.payout !== null);
      const hits = graded.filter((s) => s.payout! > 0.5).length;
      const followed = graded.filter((s) => s.entryPrice !== null);
      const returns = meanInterval(followed.map((s) => followReturn(s.entryPrice!, s.feeRate, s.payout!)));
      return {
        kind,
        month,
        signals: list.length,
        graded: graded.length,
        hits,
        hitRate: graded.length ? hits / graded.length : null,
        hitRateInterval: wilsonInterval(hits, graded.length),
        followed: followed.length,
        meanReturn: returns.mean,
        meanReturnInterval: returns.interval,
      };
    });
}
