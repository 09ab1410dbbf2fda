/**
 * The one table from venue tags to the contract's six categories (docs/METRICS.md, wallet figures).
 * A market carries many tags ("Politics", "Geopolitics", "Ukraine"); the most specific category wins, so the
 * broad POLITICS umbrella is tried last.
 */
export const CATEGORIES = ["SPORTS", "GEOPOLITICS", "CRYPTO", "POLITICS", "ECONOMICS", "TECH"] as const;
export type Category = (typeof CATEGORIES)[number];

const PRECEDENCE: readonly Category[] = ["SPORTS", "CRYPTO", "GEOPOLITICS", "ECONOMICS", "TECH", "POLITICS"];

/** Tag slugs (lower case) of each category. Gamma's legacy `category` field is looked up here too, slugified. */
export const CATEGORY_TAG_SLUGS: Readonly<Record<Category, readonly string[]>> = {
  SPORTS: [
    "sports",
    "nba",
    "nfl",
    "mlb",
    "nhl",
    "soccer",
    "football",
    "epl",
    "champions-league",
    "tennis",
    "golf",
    "ufc",
    "mma",
    "boxing",
    "f1",
    "formula-1",
    "cricket",
    "esports",
    "ncaa",
    "cfb",
    "cbb",
    "olympics",
    "world-cup",
    "chess",
  ],
  CRYPTO: [
    "crypto",
    "bitcoin",
    "btc",
    "ethereum",
    "eth",
    "solana",
    "xrp",
    "crypto-prices",
    "stablecoins",
    "defi",
    "airdrops",
    "memecoins",
  ],
  GEOPOLITICS: [
    "geopolitics",
    "world",
    "ukraine",
    "ukraine-map",
    "russia",
    "israel",
    "iran",
    "gaza",
    "middle-east",
    "china",
    "taiwan",
    "north-korea",
    "war",
    "military",
    "nato",
    "world-affairs",
  ],
  ECONOMICS: [
    "economics",
    "economy",
    "finance",
    "fed",
    "fed-rates",
    "interest-rates",
    "inflation",
    "cpi",
    "gdp",
    "recession",
    "jobs",
    "stocks",
    "business",
    "commodities",
    "tariffs",
    "earnings",
  ],
  TECH: [
    "tech",
    "technology",
    "ai",
    "science",
    "big-tech",
    "openai",
    "space",
    "spacex",
    "apple",
    "google",
    "elon-musk",
  ],
  POLITICS: [
    "politics",
    "us-politics",
    "elections",
    "global-elections",
    "us-election",
    "trump",
    "congress",
    "senate",
    "us-current-affairs",
  ],
};

const CATEGORY_BY_SLUG: ReadonlyMap<string, Category> = new Map(
  PRECEDENCE.flatMap((category) => CATEGORY_TAG_SLUGS[category].map((slug) => [slug, category] as const)),
);

function slugify(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/**
 * The category of a market or event from its tags (slug, else label) and Gamma's legacy `category` string;
 * null when nothing maps (such markets count in no category share).
 */
export function categoryFromTags(
  tags: readonly { slug?: string | null; label?: string | null }[],
  legacyCategory?: string | null,
): Category | null {
  const found = new Set<Category>();
  for (const tag of tags) {
    const key = slugify(tag.slug || tag.label || "");
    const category = CATEGORY_BY_SLUG.get(key);
    if (category) found.add(category);
  }
  if (legacyCategory) {
    const category = CATEGORY_BY_SLUG.get(slugify(legacyCategory));
    if (category) found.add(category);
  }
  return PRECEDENCE.find((c) => found.has(c)) ?? null;
}

/** The search filter's labels (contract: All, Crypto, Geopolitics, Sports, Politics, Economics, Tech/AI) by category. */
export const CATEGORY_LABELS: Readonly<Record<Category, string>> = {
  CRYPTO: "Crypto",
  GEOPOLITICS: "Geopolitics",
  SPORTS: "Sports",
  POLITICS: "Politics",
  ECONOMICS: "Economics",
  TECH: "Tech/AI",
};

const CATEGORY_ALIASES: ReadonlyMap<string, Category> = new Map([
  ...CATEGORIES.map((c) => [c.toLowerCase(), c] as const),
  ...CATEGORIES.map((c) => [CATEGORY_LABELS[c].toLowerCase(), c] as const),
  ["ai", "TECH"],
  ["tech-ai", "TECH"],
]);

/**
 * A category filter value (every `category` query parameter) as a category: null for all ("" or "All"),
 * undefined when unknown. Case-insensitive; takes the labels and the stored codes (`SPORTS`, `Tech`).
 */
export function parseCategory(value: string): Category | null | undefined {
  const key = value.trim().toLowerCase();
  if (key === "" || key === "all") return null;
  return CATEGORY_ALIASES.get(key);
}

/** How every answer's `category` field is described: the codes, one spelling on every endpoint. */
export const CATEGORY_CODES_TEXT = `${CATEGORIES.join(", ")} (one spelling on every endpoint; a category parameter also takes the labels); null when no tag maps`;
