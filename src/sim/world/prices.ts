/**
 * YES-price paths that drift toward each market's resolution. The models are chosen to be calibrated (the
 * price is the probability of YES given what has happened so far), so a trader who picks sides at random
 * has no edge and one who knows the outcome has: that is what makes "skill" measurable in the world.
 * Each path keeps its model's state at world-day boundaries and interpolates in model space within a day,
 * so intraday prices do not leak the outcome early.
 *
 * - latent: a Brownian motion X with one threshold c per market; YES iff X at the end is above it;
 *   price(t) = Phi((X_t - c) / sqrt(T - t)). Binary markets have one threshold; strike ladders share X.
 * - hazard: "by date" questions; the event happens at an exponential time; a market resolves YES iff it
 *   happens by its deadline D, and stops trading when it happens. price(t) = 1 - exp(-lambda (D - t)), with
 *   a little shared news noise in logit space.
 * - negRisk: k outcomes, exactly one wins; softmax of random-walk scores with a growing pull to the winner.
 */
import { normalCdf, normalQuantile, type Rng } from "./random.js";

export const PRICE_SCALE = 1_000_000;

export interface PricePath {
  /** YES price (micro, integer) at fractional world-day `day` (days since the world's start). */
  yesAt(day: number): number;
  /** The path's state, for digests. */
  state(): Float64Array;
}

const micro = (p: number) => Math.round(Math.min(1, Math.max(0, p)) * PRICE_SCALE);

/** Boundaries covering [startDay, stopDay] plus one: day0 and the count. */
function span(startDay: number, stopDay: number): { day0: number; count: number } {
  const day0 = Math.floor(startDay);
  return { day0, count: Math.max(day0 + 1, Math.ceil(stopDay)) - day0 + 1 };
}

function lerp(values: Float64Array, x: number): number {
  const last = values.length - 1;
  if (x <= 0) return values[0]!;
  if (x >= last) return values[last]!;
  const i = Math.floor(x);
  return values[i]! + (values[i + 1]! - values[i]!) * (x - i);
}

export class LatentPath implements PricePath {
  /** Set for a 50-50 resolution: the price is pulled to 0.5 over the last two days. */
  fiftyFifty = false;
  constructor(
    private readonly day0: number,
    private readonly xs: Float64Array,
    private readonly threshold: number,
  ) {}
  yesAt(day: number): number {
    const T = this.xs.length - 1;
    const x = Math.min(Math.max(day - this.day0, 0), T);
    let p: number;
    if (x >= T) p = this.xs[T]! > this.threshold ? 1 : 0;
    else p = normalCdf((lerp(this.xs, x) - this.threshold) / Math.sqrt(T - x));
    if (this.fiftyFifty) p += (0.5 - p) * Math.min(1, Math.max(0, (x - (T - 2)) / 2));
    return micro(p);
  }
  state(): Float64Array {
    return Float64Array.of(this.day0, this.threshold, this.fiftyFifty ? 1 : 0, ...this.xs);
  }
}

export class HazardPath implements PricePath {
  constructor(
    private readonly day0: number,
    private readonly noise: Float64Array,
    private readonly lambda: number,
    private readonly deadlineDay: number,
    private readonly stopDay: number,
    private readonly happens: boolean,
  ) {}
  yesAt(day: number): number {
    if (day >= this.stopDay) return this.happens ? PRICE_SCALE : 0;
    const base = 1 - Math.exp(-this.lambda * Math.max(0, this.deadlineDay - day));
    if (base <= 0) return 0;
    const logit = Math.log(Math.min(0.995, base) / (1 - Math.min(0.995, base))) + lerp(this.noise, day - this.day0);
    return micro(1 / (1 + Math.exp(-logit)));
  }
  state(): Float64Array {
    return Float64Array.of(this.day0, this.lambda, this.deadlineDay, this.stopDay, this.happens ? 1 : 0, ...this.noise);
  }
}

/** One market of a NegRisk event; the event's score matrix (k rows of boundary scores) is shared. */
export class NegRiskPath implements PricePath {
  constructor(
    private readonly day0: number,
    private readonly scores: Float64Array[],
    private readonly question: number,
    private readonly winner: number,
  ) {}
  yesAt(day: number): number {
    const count = this.scores[0]!.length;
    const T = count - 1;
    const x = Math.min(Math.max(day - this.day0, 0), T);
    if (x >= T) return this.question === this.winner ? PRICE_SCALE : 0;
    const boost = 7 * (x / T) ** 2;
    let max = -Infinity;
    const k = this.scores.length;
    for (let i = 0; i < k; i++) max = Math.max(max, lerp(this.scores[i]!, x) + (i === this.winner ? boost : 0));
    let sum = 0;
    let mine = 0;
    for (let i = 0; i < k; i++) {
      const e = Math.exp(lerp(this.scores[i]!, x) + (i === this.winner ? boost : 0) - max);
      sum += e;
      if (i === this.question) mine = e;
    }
    return micro(mine / sum);
  }
  state(): Float64Array {
    return Float64Array.of(this.day0, this.question, this.winner, ...this.scores[this.question]!);
  }
}

/**
 * Latent ladder: markets sharing one Brownian motion over [startDay, stopDay]; `initialPrices` (descending for
 * rising strikes) fix the thresholds, so each market opens at its initial price. Outcomes: 0 YES, 1 NO.
 */
export function latentLadder(
  rng: Rng,
  startDay: number,
  stopDay: number,
  initialPrices: readonly number[],
): { paths: LatentPath[]; truths: (0 | 1)[] } {
  const { day0, count } = span(startDay, stopDay);
  const T = count - 1;
  const xs = new Float64Array(count);
  for (let j = 1; j <= T; j++) xs[j] = xs[j - 1]! + rng.normal();
  const thresholds = initialPrices.map((p) => -normalQuantile(p) * Math.sqrt(T));
  return {
    paths: thresholds.map((c) => new LatentPath(day0, xs, c)),
    truths: thresholds.map((c) => (xs[T]! > c ? 0 : 1)),
  };
}

/**
 * Hazard ladder: "will it happen by deadline D_k". `finalProbability` is the chance it happens by the last
 * deadline. Per market: its path, its outcome and the (fractional) day trading stops.
 */
export function hazardLadder(
  rng: Rng,
  startDay: number,
  deadlines: readonly number[],
  finalProbability: number,
): { paths: HazardPath[]; truths: (0 | 1)[]; stopDays: number[] } {
  const lastDeadline = deadlines[deadlines.length - 1]!;
  const lambda = -Math.log(1 - finalProbability) / Math.max(0.5, lastDeadline - startDay);
  const happensAt = startDay + rng.exponential(1 / lambda);
  const { day0, count } = span(startDay, lastDeadline);
  // One news stream per event: every deadline of the event sees the same shocks.
  const noise = new Float64Array(count);
  for (let j = 1; j < count; j++) noise[j] = noise[j - 1]! + 0.12 * rng.normal();
  const paths: HazardPath[] = [];
  const truths: (0 | 1)[] = [];
  const stopDays: number[] = [];
  for (const deadline of deadlines) {
    const yes = happensAt <= deadline;
    const stop = yes ? happensAt : deadline;
    paths.push(new HazardPath(day0, noise, lambda, deadline, stop, yes));
    truths.push(yes ? 0 : 1);
    stopDays.push(stop);
  }
  return { paths, truths, stopDays };
}

/** NegRisk: k outcomes, exactly one wins; initial prices sum to 1 and the winner is drawn from them. */
export function negRiskPaths(
  rng: Rng,
  startDay: number,
  stopDay: number,
  k: number,
): { paths: NegRiskPath[]; winner: number } {
  const { day0, count } = span(startDay, stopDay);
  const weights = Array.from({ length: k }, () => Math.exp(1.3 * rng.normal()));
  const total = weights.reduce((a, b) => a + b, 0);
  const prior = weights.map((w) => w / total);
  let winner = k - 1;
  let u = rng.next();
  for (let i = 0; i < k; i++) {
    u -= prior[i]!;
    if (u < 0) {
      winner = i;
      break;
    }
  }
  const scores = prior.map((p) => {
    const s = new Float64Array(count);
    s[0] = Math.log(p);
    return s;
  });
  for (let j = 1; j < count; j++) for (const s of scores) s[j] = s[j - 1]! + 0.22 * rng.normal();
  return { paths: scores.map((_, q) => new NegRiskPath(day0, scores, q, winner)), winner };
}
