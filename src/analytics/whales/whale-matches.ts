/**
 * A wallet against Smart Money: the whales sharing its (market, side) positions, what they won without it,
 * where they stand now, how its open positions align with whale consensus, similar traders and markets.
 */
import { majoritySide, teamOf, yesPct, type OutcomeSide } from "../../ledger/index.js";
import type { Config } from "../../config/index.js";
import { CATEGORIES, type Category } from "../../venue/categories.js";
import type { Store } from "../../store/database.js";
import { POSITION_STATUS_CODE, positionsWithStatusCode } from "../../store/position-status.js";
import { firstRow, chunks } from "../../store/raw-sql.js";
import { loadActiveMarkets, loadMarkets, marketRef, outcomeSide } from "../markets/market-facts.js";
import { parseCategoryShares, rankedCategories } from "../wallet/category-shares.js";
import { fromMicro } from "../../venue/units.js";
import { pairKey, type BookWhale, type WhaleBookView } from "./whale-book.js";
import { topMatchedGroups, type MatchedGroup, type WalkCost } from "./whale-groups.js";

/** The wallet's own positions: the one read of the asking wallet a whale-match request makes. */
export interface OwnPosition {
  condition_id: string;
  outcome_index: number;
  total_bought: number;
  status: "open" | "closed";
  shares: number;
}

export function ownPositions(store: Store, wallet: string): Promise<OwnPosition[]> {
  return store.db
    .selectFrom("positions")
    .select(["condition_id", "outcome_index", "total_bought", "status", "shares"])
    .where("wallet", "=", wallet)
    .execute();
}

/** The wallet's number in the copy, or -1 when it is not a whale. */
function whaleNumberOf(book: WhaleBookView, wallet: string): number {
  return book.whales.has(wallet) ? book.whaleAddresses.indexOf(wallet) : -1;
}

/**
 * Per whale (by number), how many of the wallet's (market, side) positions it shares, the wallet itself left out. A
 * position counts once anything was bought on it, open or closed. Counted in a typed array: a busy wallet's
 * positions meet hundreds of thousands of whale positions.
 */
function sharedCounts(book: WhaleBookView, wallet: string, own: readonly OwnPosition[]): Int32Array {
  const counts = new Int32Array(book.whaleAddresses.length);
  // One row per (wallet, token), so each (market, side) comes once.
  for (const p of own) {
    if (!(p.total_bought > 0)) continue;
    for (const whale of book.boughtByPair.get(pairKey(p.condition_id, p.outcome_index)) ?? []) counts[whale]!++;
  }
  const self = whaleNumberOf(book, wallet);
  if (self >= 0) counts[self] = 0;
  return counts;
}

export function whaleMatches(book: WhaleBookView, wallet: string, own: readonly OwnPosition[], limit: number) {
  const counts = sharedCounts(book, wallet, own);
  const positions = own.filter((p) => p.total_bought > 0).length;
  const shared: Array<{ whale: string; count: number; stats: BookWhale }> = [];
  counts.forEach((count, n) => {
    if (count === 0) return;
    const whale = book.whaleAddresses[n]!;
    shared.push({ whale, count, stats: book.whales.get(whale)! });
  });
  const ranked = shared
    .sort((a, b) => b.count - a.count || b.stats.total_pnl - a.stats.total_pnl || a.whale.localeCompare(b.whale))
    .slice(0, limit);
  return {
    address: wallet,
    positions_considered: positions,
    matched_whales: shared.length,
    matches: ranked.map((r) => ({
      wallet: r.whale,
      name: r.stats.name,
      shared_positions: r.count,
      overlap_pct: positions > 0 ? (100 * r.count) / positions : 0,
      total_pnl: r.stats.total_pnl,
      win_rate: r.stats.win_rate,
      profit_factor: r.stats.profit_factor,
    })),
  };
}

/** The matched whales as marks by whale number (what the group walks read), with their count. */
function matchedMarks(book: WhaleBookView, wallet: string, own: readonly OwnPosition[]) {
  const counts = sharedCounts(book, wallet, own);
  const marks = new Uint8Array(counts.length);
  let count = 0;
  for (let n = 0; n < counts.length; n++)
    if (counts[n]! > 0) {
      marks[n] = 1;
      count++;
    }
  return { marks, count };
}

/**
 * The `max` matched whales of a group with the largest figures (ties by address), with their names: a busy wallet's
 * groups hold hundreds of whales, and every one of them by name made a five-market answer weigh 230 KB.
 */
function whaleList(book: WhaleBookView, matched: MatchedGroup, max: number) {
  const order = matched.whales.map((_, i) => i);
  order.sort((a, b) => matched.figures[b]! - matched.figures[a]! || matched.whales[a]! - matched.whales[b]!);
  return order.slice(0, max).map((i) => {
    const wallet = book.whaleAddresses[matched.whales[i]!]!;
    return { wallet, name: book.whales.get(wallet)?.name ?? null };
  });
}

/**
 * The first `limit` resolved markets the wallet never traded where at least `matchMinWhales` matched whales bought
 * the winning side, by count, then their net P&L: a walk of the copy's ranked groups (`whale-groups.ts`).
 */
export function missedOpportunities(
  book: WhaleBookView,
  wallet: string,
  own: readonly OwnPosition[],
  limit: number,
  config: Config,
  cost?: WalkCost,
) {
  const { matchMinWhales } = config.insights;
  const matched = matchedMarks(book, wallet, own);
  const present = new Set(own.map((p) => p.condition_id));
  const won = topMatchedGroups(
    book.wonGroups,
    matched.marks,
    matchMinWhales,
    limit,
    (g) => present.has(g.condition_id),
    cost,
  );
  return {
    address: wallet,
    matched_whales: matched.count,
    min_whales: matchMinWhales,
    markets: won.map((matchedGroup) => {
      const { group, whales, sum } = matchedGroup;
      const market = book.markets.get(group.condition_id);
      return Object.assign(marketRef(group.condition_id, market), {
        category: market?.category ?? null,
        winning_side: outcomeSide(group.outcome_index),
        whale_count: whales.length,
        whales_pnl: sum,
        whales: whaleList(book, matchedGroup, config.insights.groupWhalesListed),
      });
    }),
  };
}

/**
 * The first `limit` open, unresolved (market, side) where at least `matchMinWhales` matched whales hold a side the
 * wallet does not, by count, then their cost: a walk of the copy's ranked groups (`whale-groups.ts`).
 */
export function activeWhaleMarkets(
  book: WhaleBookView,
  wallet: string,
  own: readonly OwnPosition[],
  limit: number,
  config: Config,
  cost?: WalkCost,
) {
  const { matchMinWhales } = config.insights;
  const matched = matchedMarks(book, wallet, own);
  const held = new Set(
    own.filter((p) => p.status === "open" && p.shares > 0).map((p) => pairKey(p.condition_id, p.outcome_index)),
  );
  const active = topMatchedGroups(
    book.activeGroups,
    matched.marks,
    matchMinWhales,
    limit,
    (g) => held.has(pairKey(g.condition_id, g.outcome_index)),
    cost,
  );
  return {
    address: wallet,
    matched_whales: matched.count,
    min_whales: matchMinWhales,
    markets: active.map((matchedGroup) => {
      const { group, whales, sum } = matchedGroup;
      const m = book.markets.get(group.condition_id)!;
      return Object.assign(marketRef(group.condition_id, m), {
        category: m.category,
        side: outcomeSide(group.outcome_index),
        price: group.outcome_index === 0 ? m.price_yes : m.price_no,
        whale_count: whales.length,
        whales_cost_usd: sum,
        wallet_holds_opposite: held.has(pairKey(group.condition_id, 1 - group.outcome_index)),
        whales: whaleList(book, matchedGroup, config.insights.groupWhalesListed),
      });
    }),
  };
}

type Alignment = "aligned" | "against" | "no_consensus";

export async function walletAlignment(store: Store, wallet: string, config: Config) {
  const [open, self] = await Promise.all([
    store.db
      .selectFrom(positionsWithStatusCode(store.kind))
      .select(["condition_id", "outcome_index", "shares", "avg_price"])
      .where("wallet", "=", wallet)
      .where("status_code", "=", POSITION_STATUS_CODE.open)
      .where("shares", ">", 0)
      .execute(),
    store.db.selectFrom("wallet_stats").select("is_smart").where("wallet", "=", wallet).executeTakeFirst(),
  ]);
  const net = new Map<string, number>();
  for (const p of open) {
    const cost = fromMicro(p.shares) * p.avg_price;
    net.set(p.condition_id, (net.get(p.condition_id) ?? 0) + (p.outcome_index === 0 ? cost : -cost));
  }
  const held = [...net.entries()].filter(([, n]) => n !== 0);
  const consensus = new Map<string, { whales_yes: number; whales_no: number }>();
  for (const part of chunks(held.map(([c]) => c))) {
    const rows = await store.db
      .selectFrom("market_stats")
      .select(["condition_id", "whales_yes", "whales_no"])
      .where("condition_id", "in", part)
      .execute();
    for (const r of rows) consensus.set(r.condition_id, r);
  }
  const markets = await loadMarkets(
    store,
    held.map(([c]) => c),
  );
  const items = held.map(([conditionId, n]) => {
    const side: OutcomeSide = n > 0 ? "YES" : "NO";
    let { whales_yes: yes, whales_no: no } = consensus.get(conditionId) ?? { whales_yes: 0, whales_no: 0 };
    // A Smart Money wallet stands on its own market's team: the consensus shown is that of the other whales.
    if (self?.is_smart === 1 && teamOf(n, config.whales.consensusMinUsd) === side) {
      if (side === "YES") yes = Math.max(0, yes - 1);
      else no = Math.max(0, no - 1);
    }
    const consensusSide = majoritySide(yes, no);
    const alignment: Alignment =
      consensusSide === null ? "no_consensus" : consensusSide === side ? "aligned" : "against";
    return Object.assign(marketRef(conditionId, markets.get(conditionId)), {
      side,
      cost_usd: Math.abs(n),
      whales_yes: yes,
      whales_no: no,
      yes_pct: yesPct(yes, no),
      consensus_side: consensusSide,
      alignment,
    });
  });
  items.sort((a, b) => b.cost_usd - a.cost_usd || a.condition_id.localeCompare(b.condition_id));
  const count = (a: Alignment) => items.filter((i) => i.alignment === a);
  const aligned = count("aligned");
  const against = count("against");
  return {
    address: wallet,
    positions: items.length,
    aligned: aligned.length,
    against: against.length,
    no_consensus: count("no_consensus").length,
    aligned_pct:
      aligned.length + against.length > 0 ? (100 * aligned.length) / (aligned.length + against.length) : null,
    aligned_cost_usd: aligned.reduce((a, i) => a + i.cost_usd, 0),
    against_cost_usd: against.reduce((a, i) => a + i.cost_usd, 0),
    markets: items,
  };
}

/** A market related-markets lists. */
export interface RelatedMarket {
  market_id: string;
  condition_id: string;
  question: string;
  slug: string;
  price_yes: number | null;
  price_no: number | null;
  volume_24h: number;
  end_date: number | null;
}

/**
 * Per category, its active markets priced within the related range, by 24-hour volume, the first
 * `relatedMarketsPerCategory`: the same for every wallet, so read once and kept (the route) rather than per wallet.
 */
export async function relatedByCategory(
  store: Store,
  now: number,
  config: Config,
): Promise<Record<Category, RelatedMarket[]>> {
  const { relatedMarketsPerCategory, relatedPriceMin, relatedPriceMax } = config.insights;
  const active = await loadActiveMarkets(store, now);
  const inRange = active
    .filter((m) => m.price_yes !== null && m.price_yes >= relatedPriceMin && m.price_yes <= relatedPriceMax)
    .sort((a, b) => b.volume_24h - a.volume_24h || a.condition_id.localeCompare(b.condition_id));
  return Object.fromEntries(
    CATEGORIES.map((category) => [
      category,
      inRange
        .filter((m) => m.category === category)
        .slice(0, relatedMarketsPerCategory)
        .map((m) => ({
          market_id: m.market_id,
          condition_id: m.condition_id,
          question: m.question,
          slug: m.slug,
          price_yes: m.price_yes,
          price_no: m.price_no,
          volume_24h: m.volume_24h,
          end_date: m.end_date,
        })),
    ]),
  ) as Record<Category, RelatedMarket[]>;
}

/** The wallet's (at most two) main categories with their related markets (`relatedByCategory`). */
export async function relatedMarkets(
  store: Store,
  wallet: string,
  byCategory: () => Promise<Record<Category, RelatedMarket[]>>,
  config: Config,
) {
  const { categoryMinSharePct, relatedPriceMin, relatedPriceMax } = config.insights;
  const own = await firstRow<{ categories: string | null }>(store.db, store.kind, WALLET_CATEGORIES, [wallet]);
  const top = rankedCategories(parseCategoryShares(own?.categories))
    .filter((c) => c.share_pct >= categoryMinSharePct)
    .slice(0, 2);
  const markets = top.length > 0 ? await byCategory() : undefined;
  return {
    address: wallet,
    price_range: { min: relatedPriceMin, max: relatedPriceMax },
    categories: top.map(({ category, share_pct }) => ({ category, share_pct, markets: markets?.[category] ?? [] })),
  };
}

const WALLET_CATEGORIES = "select categories from wallet_stats where wallet = ?";
