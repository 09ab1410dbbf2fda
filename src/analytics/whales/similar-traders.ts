/**
 * Similar traders (/api/v2/wallet/{address}/similar-traders): the most profitable Smart Money wallets whose primary
 * category is the wallet's own. Which wallets those are does not depend on the asking wallet: `similarCandidates`
 * reads every profitable smart whale once and keeps, per primary category, the `count + 1` most profitable (one more
 * than an answer lists, as the asking wallet may be among them); an answer is then the wallet's own category shares
 * against its category's few candidates, the same rows the whole read would have picked.
 */
import type { Config } from "../../config/index.js";
import type { Store } from "../../store/database.js";
import { CATEGORIES, type Category } from "../../venue/categories.js";
import { loadNames } from "../wallet/display-names.js";
import { parseCategoryShares, rankedCategories } from "../wallet/category-shares.js";

/** Wallets an answer lists at most. */
export const SIMILAR_TRADERS = 4;

export interface SimilarCandidate {
  wallet: string;
  name: string | null;
  total_pnl: number;
  profit_factor: number;
  win_rate: number;
  shares: Record<Category, number>;
}

/** Per primary category, its most profitable smart whales (total_pnl desc, then address), `count + 1` at most. */
export type SimilarCandidates = Partial<Record<Category, SimilarCandidate[]>>;

const primaryOf = (shares: Record<Category, number>): Category | null => rankedCategories(shares)[0]?.category ?? null;

export async function similarCandidates(store: Store, count = SIMILAR_TRADERS): Promise<SimilarCandidates> {
  const rows = await store.db
    .selectFrom("wallet_stats")
    .select(["wallet", "categories", "total_pnl", "profit_factor", "win_rate"])
    .where("is_smart", "=", 1)
    .where("total_pnl", ">", 0)
    .orderBy("total_pnl", "desc")
    .orderBy("wallet")
    .execute();
  const byCategory: Record<string, Array<Omit<SimilarCandidate, "name">>> = {};
  for (const row of rows) {
    const shares = parseCategoryShares(row.categories);
    const primary = primaryOf(shares);
    if (primary === null) continue;
    const list = (byCategory[primary] ??= []);
    if (list.length <= count)
      list.push({
        wallet: row.wallet,
        total_pnl: row.total_pnl,
        profit_factor: row.profit_factor,
        win_rate: row.win_rate,
        shares,
      });
  }
  const names = await loadNames(
    store,
    Object.values(byCategory).flatMap((list) => list.map((c) => c.wallet)),
  );
  const candidates: SimilarCandidates = {};
  for (const [category, list] of Object.entries(byCategory))
    candidates[category as Category] = list.map((c) => ({ ...c, name: names.get(c.wallet) ?? null }));
  return candidates;
}

/**
 * The wallet's similar traders among `candidates`: up to `count` of its primary category's, itself left out.
 * `categories`: the wallet's category shares as its statistics row holds them (null: no row).
 */
export function similarTraders(
  wallet: string,
  categories: string | null | undefined,
  candidates: SimilarCandidates,
  config: Config,
  count = SIMILAR_TRADERS,
) {
  const { categoryMinSharePct, similarHighOverlapPct, similarMediumOverlapPct } = config.insights;
  const shares = parseCategoryShares(categories);
  const primary = primaryOf(shares);
  if (primary === null) return { wallet, primary_category: null, similar: [] };
  const picked = (candidates[primary] ?? []).filter((c) => c.wallet !== wallet).slice(0, count);
  return {
    wallet,
    primary_category: primary,
    similar: picked.map(({ shares: theirs, ...c }) => {
      const overlap = CATEGORIES.reduce((a, cat) => a + Math.min(shares[cat], theirs[cat]), 0);
      return {
        wallet: c.wallet,
        name: c.name,
        total_pnl: c.total_pnl,
        profit_factor: c.profit_factor,
        win_rate: c.win_rate,
        shared_categories: CATEGORIES.filter(
          (cat) => shares[cat] >= categoryMinSharePct && theirs[cat] >= categoryMinSharePct,
        ),
        overlap_pct: overlap,
        overlap_label:
          overlap >= similarHighOverlapPct
            ? "Very similar"
            : overlap >= similarMediumOverlapPct
              ? "Similar"
              : "Some overlap",
      };
    }),
  };
}
