/**
 * Seeded randomness for the simulated world. Nothing in the simulation may use Math.random: every draw comes
 * from an Rng (sfc32) whose seed derives from the world's seed, so the same options give the same world.
 * `hashWords` is a stateless keyed hash used to derive identifiers (addresses, tx hashes) lazily from an index.
 */
import { fmix32, hashString } from "../../platform/hash.js";

/** A world seed as two uint32 words; strings are hashed, numbers are split into their low and high words. */
export function seedWords(seed: number | string): [number, number] {
  if (typeof seed === "string") return [hashString(seed), hashString(`${seed}#2`)];
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer or a string, got ${seed}`);
  const lo = seed >>> 0;
  const hi = Math.floor(Math.abs(seed) / 4294967296) >>> 0;
  return [lo, (hi ^ (seed < 0 ? 0xffffffff : 0)) >>> 0];
}

/**
 * Keyed hash: `count` uint32 words from (key words, domain label, index). For a fixed key and domain the first
 * word is a bijection of the index, so distinct indexes (below 2^32) never give the same output.
 */
export function hashWords(
  key: readonly [number, number],
  domain: number,
  index: number,
  count: number,
  out: Uint32Array = new Uint32Array(count),
): Uint32Array {
  const k0 = fmix32(key[0] ^ fmix32(domain ^ 0x9e3779b9));
  const k1 = fmix32(key[1] ^ fmix32(domain + 0x7f4a7c15));
  const lo = index >>> 0;
  const hi = Math.floor(index / 4294967296) >>> 0;
  let h = fmix32(k0 ^ lo) ^ hi;
  out[0] = h >>> 0;
  for (let i = 1; i < count; i++) {
    h = fmix32((h + Math.imul(i, 0x9e3779b9) + k1) >>> 0) ^ fmix32(lo + Math.imul(i, 0x85ebca6b));
    out[i] = h >>> 0;
  }
  return out;
}

/** sfc32: small, fast, statistically good; 128 bits of state. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal = 0;
  private hasSpare = false;

  constructor(w0: number, w1: number, w2: number, w3: number) {
    this.a = w0 >>> 0;
    this.b = w1 >>> 0;
    this.c = w2 >>> 0;
    this.d = w3 >>> 0;
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** An Rng for (world seed, label, index): independent streams for independent purposes. */
  static derive(key: readonly [number, number], label: string, index = 0): Rng {
    const w = hashWords(key, hashString(label), index, 4);
    return new Rng(w[0]!, w[1]!, w[2]!, w[3]! | 1);
  }

  /** A child stream; consumes one draw of this stream. */
  fork(label: string): Rng {
    const salt = this.u32();
    return Rng.derive([salt, hashString(label)], label, salt);
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  intBetween(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** Uniform in [lo, hi). */
  between(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }

  /** Log-uniform in [lo, hi): for sizes that span orders of magnitude. */
  logBetween(lo: number, hi: number): number {
    return Math.exp(this.between(Math.log(lo), Math.log(hi)));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal (Box-Muller, caching the second value). */
  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spareNormal;
    }
    let u = this.next();
    while (u <= 1e-12) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    this.hasSpare = true;
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal around `median` with log-spread `sigma`. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** Poisson count (Knuth for small means, normal approximation above 60). */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 60) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick from an empty list");
    return items[this.int(items.length)] as T;
  }

  /** Fisher-Yates, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = items[i] as T;
      items[i] = items[j] as T;
      items[j] = t;
    }
    return items;
  }
}

/** Index of the first cumulative weight above `target` (cumulative weights ascending, within [lo, hi)). */
export function searchCumulative(cumulative: ArrayLike<number>, lo: number, hi: number, target: number): number {
  let a = lo;
  let b = hi - 1;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if ((cumulative[mid] as number) > target) b = mid;
    else a = mid + 1;
  }
  return a;
}

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 via erf; absolute error below 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
}

/** Inverse of normalCdf (Acklam's rational approximation; relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const q0 = Math.min(Math.max(p, 1e-12), 1 - 1e-12);
  const tail = (q: number) => {
    const r = Math.sqrt(-2 * Math.log(q));
    return (
      (((((c[0]! * r + c[1]!) * r + c[2]!) * r + c[3]!) * r + c[4]!) * r + c[5]!) /
      ((((d[0]! * r + d[1]!) * r + d[2]!) * r + d[3]!) * r + 1)
    );
  };
  if (q0 < 0.02425) return tail(q0);
  if (q0 > 1 - 0.02425) return -tail(1 - q0);
  const q = q0 - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}
