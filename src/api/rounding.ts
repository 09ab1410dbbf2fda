/**
 * Numbers in answers rounded to what they mean, in one place: the serializer of every route's response schema
 * (`roundingSerializers` in src/api/compiled-schemas.ts, given to Fastify in src/api/app.ts) rounds each number field
 * `decimalsOf` names before it writes the JSON, so answers built per request and answers kept serialized
 * (`reply.serialize`) alike carry `win_rate` 92.11 rather than 92.10526315789474. The walk is compiled once per
 * schema, from the schema: it visits only the objects that hold a rounded field, and copies them (the read models'
 * cached objects keep full precision).
 * The precision of each field, and why: docs/decisions.md ("Numbers rounded to what they mean").
 */

/** USD: whole cents, as the contract writes amounts (19.99 USD). */
const USD = 2;
/** Percent 0..100 and ratios such as profit_factor: two decimals, as the contract's cap 99.99. */
const PERCENT = 2;
/** Prices and shares of 0..1: four decimals (a hundredth of a cent per share). */
const PRICE = 4;
/** Shares, and the USD of single fills: micro-units, the chain's 6 decimals (exact; only float noise goes). */
const MICRO = 6;

/** Fields whose name alone decides (before the rules below). */
const BY_NAME: Readonly<Record<string, number>> = {
  // One fill's amounts, and shares: exact micro-units.
  usd: MICRO,
  usd_amount: MICRO,
  fee_usd: MICRO,
  size: MICRO,
  shares: MICRO,
  open_shares: MICRO,
  tokens: MICRO,
  // Prices named without "price".
  yes: PRICE,
  no: PRICE,
  close_yes: PRICE,
  vwap_yes: PRICE,
  coverage: PRICE,
  // Both a USD curve (top movers) and a price curve (home hot markets): the finer of the two.
  sparkline: PRICE,
  // USD named without a USD word.
  p: USD,
  delta: USD,
  liquidity: USD,
  expectancy: USD,
  avg_win: USD,
  avg_loss: USD,
  fees: USD,
  // Ratios.
  wr: PERCENT,
  roi: PERCENT,
  profit_factor: PERCENT,
  payoff_ratio: PERCENT,
  skill_z: PERCENT,
  // Insider scores (0..100), their confidence, and each component's value and weight (0..1).
  score: PERCENT,
  confidence: PRICE,
  value: PRICE,
  weight: PRICE,
  // The scorecard's ratios (0..1) and returns.
  hit_rate: PRICE,
  hit_rate_low: PRICE,
  hit_rate_high: PRICE,
  mean_return: PRICE,
  mean_return_low: PRICE,
  mean_return_high: PRICE,
  follow_return: PRICE,
  payout: PRICE,
  // Ahead of the news: a YES price's move and its minimum (0..1), and hours from a trade to the event.
  move: PRICE,
  min_move: PRICE,
  lead_hours: PERCENT,
  // A wallet's category shares, percent.
  SPORTS: PERCENT,
  GEOPOLITICS: PERCENT,
  CRYPTO: PERCENT,
  POLITICS: PERCENT,
  ECONOMICS: PERCENT,
  TECH: PERCENT,
};

/** Then by what the name says, first rule that matches. */
const BY_RULE: ReadonlyArray<[RegExp, number]> = [
  [/_share$/, PRICE],
  [/(_pct|win_rate|_wr)$/, PERCENT],
  [/_tokens$|^tokens_|_tokens_|token_amount|shares_bought/, MICRO],
  [/price|avg_entry/, PRICE],
  [/_bps$/, PERCENT],
  [/pnl|_usd$|volume|cost|invested|value|gross_/, USD],
];

/** The decimals a number field keeps, by its name; undefined: written as computed. */
export function decimalsOf(name: string): number | undefined {
  if (name in BY_NAME) return BY_NAME[name];
  return BY_RULE.find(([rule]) => rule.test(name))?.[1];
}

type Schema = Record<string, unknown> & {
  type?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: unknown;
  patternProperties?: Record<string, Schema>;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Walk = (value: unknown) => unknown;

const factors = new Map<number, number>();
function roundTo(decimals: number): (n: number) => number {
  const factor = factors.get(decimals) ?? 10 ** decimals;
  factors.set(decimals, factor);
  return (n) => (Number.isFinite(n) && !Number.isInteger(n) ? Math.round(n * factor) / factor : n);
}

/** The schema's alternatives (a nullable object is `anyOf: [object, null]`) and parts (an intersection's `allOf`). */
function variantsOf(schema: Schema): Schema[] {
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
}

/** Whether `schema` has `type` (alone, or in a list of types such as `["number", "null"]`: src/api/nullable.ts). */
function hasType(schema: Schema, type: string): boolean {
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
}

function isNumeric(schema: Schema): boolean {
  if (hasType(schema, "number")) return true;
  return variantsOf(schema).some((s) => hasType(s, "number"));
}

/** A walk rounding the named number fields under `schema`, or null when nothing under it is rounded. */
function walkFor(schema: Schema, decimals?: number): Walk | null {
  if (decimals !== undefined && isNumeric(schema)) {
    const round = roundTo(decimals);
    return (value) => (typeof value === "number" ? round(value) : value);
  }
  if (decimals !== undefined && hasType(schema, "array") && schema.items && isNumeric(schema.items)) {
    const round = roundTo(decimals);
    return (value) => (Array.isArray(value) ? value.map((v) => (typeof v === "number" ? round(v) : v)) : value);
  }
  const variants = variantsOf(schema)
    .map((s) => walkFor(s))
    .filter((w): w is Walk => w !== null);
  if (variants.length > 0) {
    // Alternatives of one field are shaped apart (an object or null, objects of other fields), an intersection's
    // parts name different fields: each value is walked by every one's walk, which rounds only the fields it names.
    return (value) => variants.reduce((v, walk) => walk(v), value);
  }
  if (hasType(schema, "array") && schema.items) {
    const item = walkFor(schema.items);
    return item ? (value) => (Array.isArray(value) ? value.map(item) : value) : null;
  }
  const fields: Array<[string, Walk]> = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const walk = walkFor(property, decimalsOf(name));
    if (walk) fields.push([name, walk]);
  }
  const records = [schema.additionalProperties, ...Object.values(schema.patternProperties ?? {})]
    .filter((s): s is Schema => typeof s === "object" && s !== null)
    .map((s) => walkFor(s))
    .filter((w): w is Walk => w !== null);
  if (fields.length === 0 && records.length === 0) return null;
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const source = value as Record<string, unknown>;
    const copy: Record<string, unknown> = { ...source };
    for (const [name, walk] of fields) if (name in source) copy[name] = walk(source[name]);
    if (records.length > 0) {
      const named = new Set(Object.keys(schema.properties ?? {}));
      for (const key of Object.keys(source))
        if (!named.has(key)) copy[key] = records.reduce((v, walk) => walk(v), source[key]);
    }
    return copy;
  };
}

/** The rounding walk of a response schema (null: it has no field to round). */
export function roundingFor(schema: unknown): Walk | null {
  return typeof schema === "object" && schema !== null ? walkFor(schema as Schema) : null;
}
