/**
 * What each kind of alert rule listens for, and its filters checked and put in one form (addresses and condition
 * ids lower case, categories as codes, sides and sizes with their defaults):
 * - `wallet_trade`: a watched wallet trades (`wallets` required; optional `markets`, `categories`, `side`, `min_usd`, default 0);
 * - `market_whale_trade`: a Smart Money wallet trades a watched market (`markets` required; `side`, `min_usd`, default ALERTS_WHALE_MIN_USD);
 * - `whale_trade`: a Smart Money wallet trades at least `min_usd` anywhere, or in `categories` (the whale alerts' rule);
 * - `smart_new_market`: a Smart Money wallet buys into a market no Smart Money wallet held (`categories`, `min_usd`, default 0);
 * - `price_move`: a watched market's YES price moves by at least `min_points` (percentage points) within `window_minutes`
 *   (default 60) of trades (`markets` and `min_points` required);
 * - `territory_event`: the territory monitor publishes an event (`cities`, none: all; `min_severity`, none: any);
 * - `consensus_flip`: a watched market's Smart Money consensus changes side (`markets` required);
 * - `insider_alert`: a bet reaches the insider score `min_score` (default INSIDER_MIN_SCORE; optional `markets`,
 *   `categories`).
 */
import type { Config } from "../config/index.js";
import { THREAT_LEVELS, type ThreatLevel } from "../isw/threat.js";
import { CATEGORIES, parseCategory, type Category } from "../venue/categories.js";
import { AlertInvalid } from "./alert-errors.js";
import type { RuleKind } from "./tables.js";

export type Side = "buy" | "sell" | "both";

/** A rule's filters as stored and matched. */
export interface RuleFilters {
  readonly wallets: readonly string[];
  readonly markets: readonly string[];
  readonly categories: readonly Category[];
  readonly side: Side;
  readonly min_usd: number;
  /** price_move: the move, in percentage points of the YES price; null for the other kinds. */
  readonly min_points: number | null;
  /** price_move: the window the move is measured over; null for the other kinds. */
  readonly window_minutes: number | null;
  /** territory_event: the cities (none: all). */
  readonly cities: readonly string[];
  /** territory_event: the least severity told (null: any). */
  readonly min_severity: ThreatLevel | null;
  /** insider_alert: the least insider score told (null: INSIDER_MIN_SCORE). */
  readonly min_score: number | null;
}

/** The filters as a request sends them (every field optional; which are required depends on the kind). */
export interface FiltersInput {
  readonly wallets?: readonly string[];
  readonly markets?: readonly string[];
  readonly categories?: readonly string[];
  readonly side?: Side;
  readonly min_usd?: number;
  readonly min_points?: number;
  readonly window_minutes?: number;
  readonly cities?: readonly string[];
  readonly min_severity?: ThreatLevel;
  readonly min_score?: number;
}

export const RULE_KIND_TEXT: Readonly<Record<RuleKind, string>> = {
  wallet_trade: "a watched wallet trades (wallets required; markets, categories, side and min_usd narrow it)",
  market_whale_trade:
    "a Smart Money wallet trades a watched market (markets required; side and min_usd, default ALERTS_WHALE_MIN_USD)",
  whale_trade: "a Smart Money wallet trades at least min_usd (default ALERTS_WHALE_MIN_USD) anywhere, or in categories",
  smart_new_market:
    "a Smart Money wallet buys into a market no Smart Money wallet held (categories and min_usd, default 0, narrow it)",
  consensus_flip:
    "a watched market's Smart Money consensus (the side more whales stand on) changes side (markets required)",
  territory_event:
    "the territory monitor publishes an event (CAPTURED, THREAT_*...) for one of cities (none: all) at min_severity or above (none: any)",
  insider_alert:
    "a bet reaches the insider score min_score (default INSIDER_MIN_SCORE) in markets or categories (none: all)",
  price_move:
    "a watched market's YES price moves by at least min_points (percentage points) within window_minutes (default 60) of its trades (markets and min_points required)",
};

const PRICE_WINDOW_DEFAULT_MINUTES = 60;

const ADDRESS = /^0x[0-9a-f]{40}$/;
const CONDITION_ID = /^0x[0-9a-f]{64}$/;

function distinctChecked(
  values: readonly string[] | undefined,
  field: string,
  pattern: RegExp,
  what: string,
  max: number,
): string[] {
  const out: string[] = [];
  for (const [index, raw] of (values ?? []).entries()) {
    const value = raw.trim().toLowerCase();
    if (!pattern.test(value)) throw new AlertInvalid(["body", "filters", field, index], `${raw} is not ${what}`);
    if (!out.includes(value)) out.push(value);
  }
  if (out.length > max)
    throw new AlertInvalid(
      ["body", "filters", field],
      `at most ${max} ${field} per rule (ALERTS_SUBJECTS_PER_RULE), got ${out.length}`,
    );
  return out.sort();
}

function categoriesOf(values: readonly string[] | undefined): Category[] {
  const out: Category[] = [];
  for (const [index, raw] of (values ?? []).entries()) {
    const category = parseCategory(raw);
    if (!category)
      throw new AlertInvalid(
        ["body", "filters", "categories", index],
        `${JSON.stringify(raw)} is not a category: one of ${CATEGORIES.join(", ")} (or their labels)`,
      );
    if (!out.includes(category)) out.push(category);
  }
  return out.sort();
}

/** The filters of a rule of `kind`, checked; AlertInvalid names the field that breaks a rule. */
export function normalizeFilters(kind: RuleKind, input: FiltersInput, settings: Config["alerts"]): RuleFilters {
  const max = settings.subjectsPerRule;
  const wallets = distinctChecked(input.wallets, "wallets", ADDRESS, "a wallet address (0x and 40 hex digits)", max);
  const markets = distinctChecked(input.markets, "markets", CONDITION_ID, "a condition id (0x and 64 hex digits)", max);
  const categories = categoriesOf(input.categories);
  const refuse = (field: string, why: string) => {
    throw new AlertInvalid(["body", "filters", field], why);
  };
  if (kind === "wallet_trade" && wallets.length === 0)
    refuse("wallets", "a wallet_trade rule watches at least one wallet");
  if (kind !== "wallet_trade" && wallets.length > 0) refuse("wallets", `a ${kind} rule watches no wallets`);
  if ((kind === "market_whale_trade" || kind === "price_move" || kind === "consensus_flip") && markets.length === 0)
    refuse("markets", `a ${kind} rule watches at least one market`);
  if (kind === "price_move") {
    if (input.min_points === undefined)
      refuse("min_points", "a price_move rule names the move it waits for, in percentage points");
    if (categories.length > 0) refuse("categories", "a price_move rule names its markets, not categories");
    if (input.side !== undefined || input.min_usd !== undefined)
      refuse(input.side !== undefined ? "side" : "min_usd", "a price_move rule hears of prices, whatever the trade");
  } else {
    if (input.min_points !== undefined) refuse("min_points", "only a price_move rule takes min_points");
    if (input.window_minutes !== undefined) refuse("window_minutes", "only a price_move rule takes window_minutes");
  }
  if ((kind === "whale_trade" || kind === "smart_new_market") && markets.length > 0)
    refuse("markets", `a ${kind} rule watches every market, or categories`);
  if (kind === "smart_new_market" && input.side !== undefined && input.side !== "buy")
    refuse("side", "a smart_new_market rule hears of buys: a position opened");
  if (kind === "market_whale_trade" && categories.length > 0)
    refuse("categories", "a market_whale_trade rule names its markets, not categories");
  const defaultMin = kind === "wallet_trade" || kind === "smart_new_market" ? 0 : settings.defaultMinUsd;
  const side = kind === "smart_new_market" ? "buy" : (input.side ?? "both");
  const territory = kind === "territory_event";
  const cities = [...new Set((input.cities ?? []).map((city) => city.trim()).filter((city) => city !== ""))].sort();
  if (kind === "consensus_flip")
    for (const [field, given] of [
      ["categories", categories.length > 0],
      ["side", input.side !== undefined],
      ["min_usd", input.min_usd !== undefined],
    ] as const)
      if (given) refuse(field, "a consensus_flip rule hears of its markets' consensus, whatever the trade");
  if (territory) {
    for (const [field, given] of [
      ["wallets", wallets.length > 0],
      ["markets", markets.length > 0],
      ["categories", categories.length > 0],
      ["side", input.side !== undefined],
      ["min_usd", input.min_usd !== undefined],
    ] as const)
      if (given)
        refuse(field, "a territory_event rule hears of the territory monitor's events: cities and min_severity");
    if (cities.length > max)
      refuse("cities", `at most ${max} cities per rule (ALERTS_SUBJECTS_PER_RULE), got ${cities.length}`);
  } else {
    if (input.cities !== undefined) refuse("cities", "only a territory_event rule takes cities");
    if (input.min_severity !== undefined) refuse("min_severity", "only a territory_event rule takes min_severity");
  }
  const insider = kind === "insider_alert";
  if (insider && (input.side !== undefined || input.min_usd !== undefined))
    refuse(input.side !== undefined ? "side" : "min_usd", "an insider_alert rule hears of scored bets: min_score");
  if (!insider && input.min_score !== undefined) refuse("min_score", "only an insider_alert rule takes min_score");
  if (input.min_severity !== undefined && !THREAT_LEVELS.includes(input.min_severity))
    refuse("min_severity", `one of ${THREAT_LEVELS.join(", ")}`);
  const price = kind === "price_move";
  return {
    wallets,
    markets,
    categories,
    side,
    min_usd: input.min_usd ?? (price || territory || insider || kind === "consensus_flip" ? 0 : defaultMin),
    min_points: price ? (input.min_points ?? null) : null,
    window_minutes: price ? (input.window_minutes ?? PRICE_WINDOW_DEFAULT_MINUTES) : null,
    cities: territory ? cities : [],
    min_severity: territory ? (input.min_severity ?? null) : null,
    min_score: insider ? (input.min_score ?? null) : null,
  };
}
