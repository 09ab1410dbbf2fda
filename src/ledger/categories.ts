/**
 * Categories of the wallet statistics. The mapping from the venue's tags and categories is the one
 * table of `venue/categories.ts`; this module only applies it to the ledger's market facts and
 * turns volumes into percent shares.
 */
import { CATEGORIES, categoryFromTags, type Category } from "../venue/categories.js";

/** The category of a market from its venue category and tag slugs or labels; null when none maps. */
export function marketCategory(category: string | null, tags: readonly string[] = []): Category | null {
  return categoryFromTags(
    tags.map((tag) => ({ slug: tag })),
    category,
  );
}

/**
 * Percent share per category of a volume split; shares sum to 100 over the mapped volume
 * (all zeros when nothing mapped). Not rounded, so that the shares keep summing to 100.
 */
export function categoryShares(volumeByCategory: ReadonlyMap<Category, number>): Record<Category, number> {
  let mapped = 0;
  for (const category of CATEGORIES) mapped += volumeByCategory.get(category) ?? 0;
  const shares = {} as Record<Category, number>;
  for (const category of CATEGORIES) {
    const volume = volumeByCategory.get(category) ?? 0;
    shares[category] = mapped > 0 ? (100 * volume) / mapped : 0;
  }
  return shares;
}
