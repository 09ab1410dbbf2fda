/** A wallet's stored category shares (wallet_stats.categories), read and ranked. */
import { CATEGORIES, type Category } from "../../venue/categories.js";

/** wallet_stats.categories (JSON percent shares) as a complete record; zeros when absent or unreadable. */
export function parseCategoryShares(json: string | null | undefined): Record<Category, number> {
  const shares = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
  if (!json) return shares;
  try {
    const parsed = JSON.parse(json) as Record<string, unknown>;
    for (const c of CATEGORIES) if (typeof parsed[c] === "number") shares[c] = parsed[c] as number;
  } catch {
    // unreadable: all zeros
  }
  return shares;
}

/** The wallet's categories by share, largest first (ties by the fixed category order); zero shares left out. */
export function rankedCategories(shares: Record<Category, number>): Array<{ category: Category; share_pct: number }> {
  return CATEGORIES.map((category) => ({ category, share_pct: shares[category] }))
    .filter((c) => c.share_pct > 0)
    .sort((a, b) => b.share_pct - a.share_pct);
}
