/**
 * A wallet against Smart Money: the whales sharing its (market, side) positions, what they won without it,
 * where they stand now, how its open positions align with whale consensus, similar traders and markets.
 */
import { majoritySide, teamOf, yesPct, type OutcomeSide } from "../ledger/index.js";
import type { Config } from "../config/index.js";
import { CATEGORIES, type Category } from "../venue/categories.js";
import type { Store } from "../store/database.js";
import {
  chunks,
  loadActiveMarkets,
  loadMarkets,
  loadNames,
  marketRef,
  outcomeSide,
  parseCategoryShares,
  rankedCategories,
  usd,
} from "./insight-support.js";
import { pairKey, type BookPosition, type WhaleBookView } from "./whale-book.js";

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

/**
 * Every Smart Money wallet sharing at least one (market, side) position with the wallet, with the count of
 * shared positions. A position counts once anything was bought on it, open or closed.
 */
export function matchedWhales(book: WhaleBookView, wallet: string, own: readonly OwnPosition[]): Map<string, number> {
  const shared = new Map<string, number>();
  const pairs = new Set(own.filter((p) => p.total_bought > 0).map((p) => pairKey(p.condition_id, p.outcome_index)));
  for (const pair of pairs) {
    for (const p of book.boughtByPair.get(pair) ?? [])
      if (p.wallet !== wallet) shared.set(p.wallet, (shared.get(p.wallet) ?? 0) + 1);
  }
  return shared;
}

export function whaleMatches(book: WhaleBookView, wallet: string, own: readonly OwnPosition[], limit: number) {
  const shared = matchedWhales(book, wallet, own);
  const positions = own.filter((p) => p.total_bought > 0).length;
  const ranked = [...shared.entries()]
    .map(([whale, count]) => ({ whale, count, stats: book.whales.get(whale)! }))
    .sort((a, b) => b.count - a.count || b.stats.total_pnl - a.stats.total_pnl || a.whale.localeCompare(b.whale))
    .slice(0, limit);
  return {
    address: wallet,
    positions_considered: positions,
    matched_whales: shared.size,
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

/**
 * The matched whales' positions that `keep` admits, grouped by (market, side), the groups in first-seen order and
 * each group's rows in whale order (so sums over a group add in one order, whatever order the store returned).
 */
function groupMatched(
  byWhale: WhaleBookView["wonByWhale"],
  matched: readonly string[],
  keep: (p: BookPosition) => boolean,
): BookPosition[][] {
  const groups = new Map<string, BookPosition[]>();
  for (const whale of [...matched].sort()) {
    for (const p of byWhale.get(whale) ?? []) {
      if (!keep(p)) continue;
      const key = pairKey(p.condition_id, p.outcome_index);
      const group = groups.get(key);
      if (group) group.push(p);
      else groups.set(key, [p]);
    }
  }
  return [...groups.values()];
}

/** The distinct whales of a group, by address, with their names. */
function whaleList(book: WhaleBookView, rows: readonly BookPosition[]) {
  return [...new Set(rows.map((r) => r.wallet))]
    .sort()
    .map((w) => ({ wallet: w, name: book.whales.get(w)?.name ?? null }));
}

export function missedOpportunities(
  book: WhaleBookView,
  wallet: string,
  own: readonly OwnPosition[],
  limit: number,
  config: Config,
) {
  const { matchMinWhales } = config.insights;
  const matched = [...matchedWhales(book, wallet, own).keys()];
  const present = new Set(own.map((p) => p.condition_id));
  const won = groupMatched(book.wonByWhale, matched, (p) => !present.has(p.condition_id))
    .filter((rows) => rows.length >= matchMinWhales)
    .map((rows) => ({
      rows,
      conditionId: rows[0]!.condition_id,
      outcomeIndex: rows[0]!.outcome_index,
      pnl: rows.reduce((a, r) => a + r.net_usd, 0),
    }))
    .sort((a, b) => b.rows.length - a.rows.length || b.pnl - a.pnl || a.conditionId.localeCompare(b.conditionId))
    .slice(0, limit);
  return {
    address: wallet,
    matched_whales: matched.length,
    min_whales: matchMinWhales,
    markets: won.map(({ rows, conditionId, outcomeIndex, pnl }) => ({
      ...marketRef(conditionId, book.markets.get(conditionId)),
      category: book.markets.get(conditionId)?.category ?? null,
      winning_side: outcomeSide(outcomeIndex),
      whale_count: rows.length,
      whales_pnl: pnl,
      whales: whaleList(book, rows),
    })),
  };
}

/** Every active market where enough matched whales hold one side the wallet does not. */
export function activeWhaleMarkets(book: WhaleBookView, wallet: string, own: readonly OwnPosition[], config: Config) {
  const { matchMinWhales } = config.insights;
  const matched = [...matchedWhales(book, wallet, own).keys()];
  const held = new Set(
    own.filter((p) => p.status === "open" && p.shares > 0).map((p) => pairKey(p.condition_id, p.outcome_index)),
  );
  const active = groupMatched(book.activeByWhale, matched, (p) => !held.has(pairKey(p.condition_id, p.outcome_index)))
    .filter((rows) => rows.length >= matchMinWhales)
    .map((rows) => ({
      rows,
      conditionId: rows[0]!.condition_id,
      outcomeIndex: rows[0]!.outcome_index,
      cost: rows.reduce((a, r) => a + usd(r.shares) * r.avg_price, 0),
    }))
    .sort(
      (a, b) =>
        b.rows.length - a.rows.length ||
        b.cost - a.cost ||
        a.conditionId.localeCompare(b.conditionId) ||
        a.outcomeIndex - b.outcomeIndex,
    );
  return {
    address: wallet,
    matched_whales: matched.length,
    min_whales: matchMinWhales,
    markets: active.map(({ rows, conditionId, outcomeIndex, cost }) => {
      const m = book.markets.get(conditionId)!;
      return {
        ...marketRef(conditionId, m),
        category: m.category,
        side: outcomeSide(outcomeIndex),
        price: outcomeIndex === 0 ? m.price_yes : m.price_no,
        whale_count: rows.length,
        whales_cost_usd: cost,
        wallet_holds_opposite: held.has(pairKey(conditionId, 1 - outcomeIndex)),
        whales: whaleList(book, rows),
      };
    }),
  };
}

type Alignment = "aligned" | "against" | "no_consensus";

export async function walletAlignment(store: Store, wallet: string, config: Config) {
  const [open, self] = await Promise.all([
    store.db
      .selectFrom("positions")
      .select(["condition_id", "outcome_index", "shares", "avg_price"])
      .where("wallet", "=", wallet)
      .where("status", "=", "open")
      .where("shares", ">", 0)
      .execute(),
    store.db.selectFrom("wallet_stats").select("is_smart").where("wallet", "=", wallet).executeTakeFirst(),
  ]);
  const net = new Map<string, number>();
  for (const p of open) {
    const cost = usd(p.shares) * p.avg_price;
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
    return {
      ...marketRef(conditionId, markets.get(conditionId)),
      side,
      cost_usd: Math.abs(n),
      whales_yes: yes,
      whales_no: no,
      yes_pct: yesPct(yes, no),
      consensus_side: consensusSide,
      alignment,
    };
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

export async function relatedMarkets(store: Store, wallet: string, now: number, config: Config) {
  const { categoryMinSharePct, relatedMarketsPerCategory, relatedPriceMin, relatedPriceMax } = config.insights;
  const own = await store.db
    .selectFrom("wallet_stats")
    .select("categories")
    .where("wallet", "=", wallet)
    .executeTakeFirst();
  const top = rankedCategories(parseCategoryShares(own?.categories))
    .filter((c) => c.share_pct >= categoryMinSharePct)
    .slice(0, 2);
  const active = top.length > 0 ? await loadActiveMarkets(store, now) : [];
  return {
    address: wallet,
    price_range: { min: relatedPriceMin, max: relatedPriceMax },
    categories: top.map(({ category, share_pct }) => ({
      category,
      share_pct,
      markets: active
        .filter(
          (m) =>
            m.category === category &&
            m.price_yes !== null &&
            m.price_yes >= relatedPriceMin &&
            m.price_yes <= relatedPriceMax,
        )
        .sort((a, b) => b.volume_24h - a.volume_24h || a.condition_id.localeCompare(b.condition_id))
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
    })),
  };
}
