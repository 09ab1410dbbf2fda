/**
 * How the scored bets (`insider_score_rows`, src/store/id-keyed.ts) store their facts since migration 0061 (issue 49):
 * `facts` is the JSON array `encodeInsiderFacts` writes (src/ledger/insider-score.ts), about 55 bytes a row, of
 * integers (times, counts, flags 0/1), amounts in USD to the cent and nulls, e.g.
 * `[1782475576,11,496349.03,25047584.85,0,1799349590,null,0,0]`. Each place is stored as an integer column
 * (`INSIDER_FACTS`: the amounts as cents), about 18 bytes a row, and the view `insider_scores` writes the array again
 * from them in SQL (`valueSql`), the same text on both stores, so its one reader (src/analytics/informed/) is
 * unchanged. A text is coded only when that text is the one written: parsed, each place an integer or whole cents
 * (under 10^15, so that its decimal digits are the ones JavaScript prints), and written again by JSON.stringify from
 * the values read back, it must be the same, byte for byte. Any other text (another length, an amount with more
 * places, a '[]' stored before 0040 filled the facts in) is kept as it is, so a change of the array's layout in the
 * ledger costs bytes, never a fact. Decision: docs/decisions.md,
 * "Scored bets store their facts, confidence and price as integers".
 */
import type { ExactCode } from "./exact-codes.js";

/** The array's places, in its order, each with its column and what it holds: an integer, or USD stored as cents. */
export const INSIDER_FACTS = [
  ["wallet_since", "integer"],
  ["markets_before", "integer"],
  ["wallet_bought_cents", "cents"],
  ["market_volume_cents", "cents"],
  ["market_liquidity_cents", "cents"],
  ["market_end", "integer"],
  ["won", "integer"],
  ["in_cluster", "integer"],
  ["cluster_backers", "integer"],
] as const;

type Place = (typeof INSIDER_FACTS)[number][1];

/** Cents from this on (USD 10 trillion) are not coded: their amount may print with fewer digits than they have. */
const CENTS_LIMIT = 1e15;

/** A place's value as its integer (undefined: it has none; null stays null). */
function placeCode(value: unknown, place: Place): number | null | undefined {
  if (value === null) return null;
  if (typeof value !== "number") return undefined;
  const code = place === "cents" ? Math.round(value * 100) : value;
  if (!Number.isSafeInteger(code)) return undefined;
  return place === "cents" && Math.abs(code) >= CENTS_LIMIT ? undefined : code;
}

/** The value a place's integer reads back as. */
const placeValue = (code: number | null, place: Place) => (code === null || place === "integer" ? code : code / 100);

/** A facts text's integers, in its places' order; null when they would not give the same text back. */
function factCodes(text: string): (number | null)[] | null {
  let facts: unknown;
  try {
    facts = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(facts) || facts.length !== INSIDER_FACTS.length) return null;
  const codes = facts.map((value, i) => placeCode(value, INSIDER_FACTS[i]![1]));
  if (codes.includes(undefined)) return null;
  const coded = codes as (number | null)[];
  const readBack = coded.map((code, i) => placeValue(code, INSIDER_FACTS[i]![1]));
  return JSON.stringify(readBack) === text ? coded : null;
}

/** SQL: an integer count of cents as JavaScript prints its amount in USD (`-12.3`, `0.05`, `7`); null stays null. */
function centsTextSql(cents: string): string {
  const units = `abs(${cents})`;
  const fraction = `(${units} % 100)`;
  return `(case when ${cents} < 0 then '-' else '' end || cast(${units} / 100 as text) || case
    when ${fraction} = 0 then '' when ${fraction} % 10 = 0 then '.' || cast(${fraction} / 10 as text)
    else '.' || substr(cast(${fraction} + 100 as text), 2) end)`;
}

/** `insider_scores.facts` as `INSIDER_FACTS`' integer columns, or as its text where they cannot give it back. */
export const INSIDER_FACTS_CODE: ExactCode = {
  codes: INSIDER_FACTS.map(([column]) => column),
  stored(value) {
    const codes = typeof value === "string" ? factCodes(value) : null;
    return codes ? [null, ...codes] : [value ?? null, ...INSIDER_FACTS.map(() => null)];
  },
  // Integer division, remainder, `abs`, `substr` and an integer's text are alike on both stores.
  valueSql(alias) {
    const places = INSIDER_FACTS.map(([column, place]) => {
      const value = `${alias}.${column}`;
      return `coalesce(${place === "cents" ? centsTextSql(value) : `cast(${value} as text)`}, 'null')`;
    });
    return `coalesce(${alias}.facts, '[' || ${places.join(" || ',' || ")} || ']')`;
  },
};
