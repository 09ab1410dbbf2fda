/**
 * What each kind of alert rule listens for, and its filters checked and put in one form (addresses and condition
 * ids lower case, categories as codes, sides and sizes with their defaults):
 * - `wallet_trade`: a watched wallet trades (`wallets` required; optional `markets`, `categories`, `side`, `min_usd`, default 0);
 * - `market_whale_trade`: a Smart Money wallet trades a watched market (`markets` required; `side`, `min_usd`, default ALERTS_WHALE_MIN_USD);
 * - `whale_trade`: a Smart Money wallet trades at least `min_usd` anywhere, or in `categories` (the whale alerts' rule).
 */
import type { Config } from "../config/index.js";
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
}

/** The filters as a request sends them (every field optional; which are required depends on the kind). */
export interface FiltersInput {
  readonly wallets?: readonly string[];
  readonly markets?: readonly string[];
  readonly categories?: readonly string[];
  readonly side?: Side;
  readonly min_usd?: number;
}

export const RULE_KIND_TEXT: Readonly<Record<RuleKind, string>> = {
  wallet_trade: "a watched wallet trades (wallets required; markets, categories, side and min_usd narrow it)",
  market_whale_trade:
    "a Smart Money wallet trades a watched market (markets required; side and min_usd, default ALERTS_WHALE_MIN_USD)",
  whale_trade: "a Smart Money wallet trades at least min_usd (default ALERTS_WHALE_MIN_USD) anywhere, or in categories",
};

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
  if (kind === "market_whale_trade" && markets.length === 0)
    refuse("markets", "a market_whale_trade rule watches at least one market");
  if (kind === "whale_trade" && markets.length > 0)
    refuse("markets", "a whale_trade rule watches every market, or categories");
  if (kind === "market_whale_trade" && categories.length > 0)
    refuse("categories", "a market_whale_trade rule names its markets, not categories");
  const defaultMin = kind === "wallet_trade" ? 0 : settings.defaultMinUsd;
  return { wallets, markets, categories, side: input.side ?? "both", min_usd: input.min_usd ?? defaultMin };
}
