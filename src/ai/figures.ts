/**
 * Figures in a report's text: how the deterministic report writes them, and the check that every figure a report
 * quotes is one of its inputs (rounded as written). The model's answers go through the same check, so a model that
 * makes up a number, or does arithmetic of its own, is refused like a malformed answer.
 */
import type { AnalysisInputs } from "./inputs.js";
import { inertText } from "./plain-text.js";

const grouped = (value: number, decimals: number) =>
  Math.abs(value).toLocaleString("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: true,
  });

/** `$1,234.56`, `-$1,234.56`. */
export const usdText = (value: number): string => `${value < 0 ? "-" : ""}$${grouped(value, 2)}`;
/**
 * A percent figure (already 0..100): `61.2%`, from its value as the API serves it (two decimals): 53.846 is served
 * as 53.85, and the report quotes 53.9% as a reader of the served inputs would, not 53.8%.
 */
export const pctText = (value: number): string =>
  `${value < 0 ? "-" : ""}${grouped(Math.round(Math.abs(value) * 100) / 100, 1)}%`;
/** A count: `1,234`. */
export const countText = (value: number): string => `${value < 0 ? "-" : ""}${grouped(value, 0)}`;
/** A price 0..1 or a ratio: `0.62`. */
export const decimalText = (value: number, decimals = 2): string =>
  `${value < 0 ? "-" : ""}${grouped(value, decimals)}`;
/** A number of days: `3.4 days`. */
export const daysText = (value: number): string => `${grouped(value, 1)} days`;

/** Integers this small are words of counting ("3 categories", "top 5"), not figures; zero is no figure either. */
const COUNTING_MAX = 10;

const NUMBER = /(\$)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?([kKMB])\b)?(%)?/g;
const DATES = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?Z?)?/g;
const HEX = /0x[0-9a-fA-F]+/g;
const SCALE: Record<string, number> = { k: 1e3, K: 1e3, M: 1e6, B: 1e9 };

export interface QuotedFigure {
  text: string;
  value: number;
  /** Half the unit of the last digit written: how far the exact figure may be from it. */
  tolerance: number;
}

/** The figures a text quotes (absolute values), leaving out dates, addresses, small counting integers and `ignore`d text. */
export function quotedFigures(text: string, ignore: ReadonlyArray<string | null> = []): QuotedFigure[] {
  let rest = text.replace(DATES, " ").replace(HEX, " ");
  for (const phrase of ignore) if (phrase) rest = rest.split(phrase).join(" ");
  const out: QuotedFigure[] = [];
  for (const match of rest.matchAll(NUMBER)) {
    const [whole, dollar, digits, fraction, suffix, percent] = match;
    const scale = suffix ? SCALE[suffix]! : 1;
    const decimals = fraction ? fraction.length - 1 : 0;
    const value = Number(`${digits!.replace(/,/g, "")}${fraction ?? ""}`) * scale;
    if (value === 0 || (!dollar && !percent && !fraction && !suffix && value <= COUNTING_MAX)) continue;
    out.push({ text: whole.trim(), value, tolerance: (0.5 * scale) / 10 ** decimals + 1e-9 });
  }
  return out;
}

/**
 * Every number of the inputs (absolute values), wherever it sits, and each as the API serves it (two decimals): a
 * report may quote 53.846 as 53.8% or, reading the served 53.85, as 53.9%.
 */
export function inputNumbers(inputs: AnalysisInputs): number[] {
  const out: number[] = [];
  const push = (value: number) => {
    out.push(value);
    const served = Math.round(value * 100) / 100;
    if (served !== value) out.push(served);
  };
  const walk = (node: unknown): void => {
    if (typeof node === "number" && Number.isFinite(node)) push(Math.abs(node));
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") Object.values(node).forEach(walk);
  };
  walk(inputs);
  return out;
}

/** The text a report may quote that holds no figure of ours: the wallet's names and the market question, as is and as quoted. */
export function quotedPhrases(inputs: AnalysisInputs): string[] {
  const phrases = [inputs.wallet.name, inputs.wallet.pseudonym, inputs.recent.last_move?.question ?? null].filter(
    (p): p is string => !!p,
  );
  return [...phrases.map(quote), ...phrases];
}

/**
 * User-controlled text as a report quotes it: inert (no markup, URLs defanged: plain-text.ts), in double quotes,
 * with quotes and backslashes escaped (JSON).
 */
export const quote = (text: string): string => JSON.stringify(inertText(text));

/** The figures of `text` that are none of the inputs' numbers as written (empty when every figure is supported). */
export function unsupportedFigures(text: string, inputs: AnalysisInputs): string[] {
  const known = inputNumbers(inputs);
  return quotedFigures(text, quotedPhrases(inputs))
    .filter((figure) => !known.some((value) => Math.abs(value - figure.value) <= figure.tolerance))
    .map((figure) => figure.text);
}
