/**
 * Served numbers are rounded to what they mean (docs/decisions.md, "Numbers rounded to what they mean"): a test
 * compares a served figure with the value it computes on its own, at the field's decided precision. The precisions
 * are written here again, apart from src/api/rounding.ts, so that a serializer rounding coarser than decided fails.
 */
import { expect } from "vitest";

/** Decimals kept per kind of figure. */
export const AT = {
  /** USD amounts: whole cents. */
  usd: 2,
  /** Percents and ratios. */
  percent: 2,
  /** Prices, and shares of 0..1. */
  price: 4,
  /** One fill's amounts, and shares: the chain's micro-units. */
  micro: 6,
} as const;

/** Float noise of the test's own arithmetic, relative to the figure (beyond the rounding's half step). */
const NOISE = 1e-9;

/**
 * The rounded terms a comparison allows for: a count of figures rounded to `decimals` (the served one included), or
 * the decimals of each other rounded figure the expected value is made of (the served one's half step added).
 */
export type Terms = number | readonly number[];

/** Whether `served` may be `expected` rounded to `decimals` (see `Terms`). */
export function withinRounding(served: number, expected: number, decimals: number, terms: Terms = 1): boolean {
  const half = (d: number) => 10 ** -d / 2;
  const allowed =
    typeof terms === "number" ? terms * half(decimals) : half(decimals) + terms.reduce((a, d) => a + half(d), 0);
  const noise = NOISE * Math.max(1, Math.abs(expected));
  return Math.abs(served - expected) <= allowed + noise;
}

/** Whether a number is written with at most `decimals` decimals. */
function onGrid(served: number, decimals: number): boolean {
  const scaled = served * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) <= NOISE * Math.max(1, Math.abs(scaled));
}

/**
 * `served` is `expected` rounded to `decimals`: on that grid, and within half a step of it (more when `expected` is
 * made of rounded figures: see `Terms`). `label` names the figure in a failure.
 */
export function expectServed(served: unknown, expected: number, decimals: number, terms: Terms = 1, label = ""): void {
  const what = `${label ? `${label}: ` : ""}${String(served)}`;
  expect(typeof served, `${what} served for ${expected}`).toBe("number");
  const n = served as number;
  expect(onGrid(n, decimals), `${what} written with at most ${decimals} decimals`).toBe(true);
  expect(withinRounding(n, expected, decimals, terms), `${what} is ${expected} to ${decimals} decimals`).toBe(true);
}

/**
 * `expectServed` as an asymmetric matcher, for `toEqual` and `toMatchObject`; `grid: false` leaves out the check
 * that the number has at most `decimals` decimals (for a field known to be rounded finer).
 */
export function servedAs(expected: number, decimals: number, terms: Terms = 1, { grid = true } = {}) {
  return {
    asymmetricMatch: (served: unknown) =>
      typeof served === "number" &&
      (!grid || onGrid(served, decimals)) &&
      withinRounding(served, expected, decimals, terms),
    toString: () => "servedAs",
    toAsymmetricMatcher: () => `servedAs(${expected}, ${decimals} decimals, terms ${String(terms)})`,
  };
}

/**
 * `expected` with each number as a matcher of its served form, whatever its field's precision: integers as they are,
 * other numbers within half a cent (the coarsest rounding decided). For records served as they were given (an AI
 * analysis's inputs), where the figures were computed elsewhere.
 */
export function servedTree(expected: unknown): unknown {
  if (typeof expected === "number")
    return Number.isInteger(expected) ? expected : servedAs(expected, AT.usd, 1, { grid: false });
  if (Array.isArray(expected)) return expected.map(servedTree);
  if (typeof expected === "object" && expected !== null)
    return Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, servedTree(v)]));
  return expected;
}
