/**
 * A wallet against Smart Money: the whales sharing its (market, side) positions, what they won without it,
 * where they stand now, how its open positions align with whale consensus, similar traders and markets.
 */
import { majoritySide, teamOf, yesPct, type OutcomeSide } from "../ledger/index.js";
import type { Config } from "../config/index.js";
import { CATEGORIES, type Category } from "../venue/categories.js";
import type { Store } from "../store/database.js";
import { chunks, loadActiveMarkets, loadMarkets, loadNames, marketRef, outcomeSide, parseCategoryShares, rankedCategories, usd } from "./insight-support.js";

const pairKey = (conditionId: string, outcomeIndex: number) => `${conditionId}/${outcomeIndex}`;

interface WhalePosition {
  wallet: string;
  condition_id: string;
  outcome_index: number;
  shares: number;
  avg_price: number;
  realized_pnl: number;
  fees: number;
  status: "open" | "closed";
}

const positionColumns = ["wallet", "condition_id", "outcome_index", "shares", "avg_price", "realized_pnl", "fees", "status"] as const;

/** Smart Money wallets with their headline figures, the given wallet left out. */
async function smartWhales(store: Store, except: string) {
  const rows = await store.db
    .selectFrom("wallet_stats")
    .select(["wallet", "total_pnl", "win_rate", "profit_factor"])
    .where("is_smart", "=", 1)
    .where("wallet", "!=", except)
    .execute();
  return new Map(rows.map((r) => [r.wallet, r]));
}

/**
 * Every Smart Money wallet sharing at least one (market, side) position with the wallet, with the count of
 * shared positions. A position counts once anything was bought on it, open or closed.
 */
export async function matchedWhales(store: Store, wallet: string): Promise<Map<string, number>> {
  const own = await store.db.selectFrom("positions").select(["condition_id", "outcome_index"]).where("wallet", "=", wallet).where("total_bought", ">", 0).execute();
  const pairs = new Set(own.map((p) => pairKey(p.condition_id, p.outcome_index)));
  const whales = await smartWhales(store, wallet);
  const shared = new Map<string, number>();
  if (whales.size === 0) return shared;
  for (const part of chunks([...new Set(own.map((p) => p.condition_id))])) {
    const rows = await store.db
      .selectFrom("positions")
      .select(["wallet", "condition_id", "outcome_index"])
      .where("condition_id", "in", part)
      .where("total_bought", ">", 0)
      .where("wallet", "!=", wallet)
      .execute();
    for (const r of rows) {
      if (!whales.has(r.wallet) || !pairs.has(pairKey(r.condition_id, r.outcome_index))) continue;
      shared.set(r.wallet, (shared.get(r.wallet) ?? 0) + 1);
    }
  }
  return shared;
}

export async function whaleMatches(store: Store, wallet: string, limit: number) {
  const [shared, whales, ownCount] = await Promise.all([
    matchedWhales(store, wallet),
    smartWhales(store, wallet),
    store.db.selectFrom("positions").select((eb) => eb.fn.countAll<number>().as("n")).where("wallet", "=", wallet).where("total_bought", ">", 0).executeTakeFirst(),
  ]);
  const positions = Number(ownCount?.n ?? 0);
  const ranked = [...shared.entries()]
    .map(([whale, count]) => ({ whale, count, stats: whales.get(whale)! }))
    .sort((a, b) => b.count - a.count || b.stats.total_pnl - a.stats.total_pnl || a.whale.localeCompare(b.whale))
    .slice(0, limit);
  const names = await loadNames(store, ranked.map((r) => r.whale));
  return {
    address: wallet,
    positions_considered: positions,
    matched_whales: shared.size,
    matches: ranked.map((r) => ({
      wallet: r.whale,
      name: names.get(r.whale) ?? null,
      shared_positions: r.count,
      overlap_pct: positions > 0 ? (100 * r.count) / positions : 0,
      total_pnl: r.stats.total_pnl,
      win_rate: r.stats.win_rate,
      profit_factor: r.stats.profit_factor,
    })),
  };
}

async function positionsOf(store: Store, wallets: readonly string[], openOnly: boolean): Promise<WhalePosition[]> {
  const out: WhalePosition[] = [];
  for (const part of chunks(wallets)) {
    let query = store.db.selectFrom("positions").select([...positionColumns]).where("wallet", "in", part);
    query = openOnly ? query.where("status", "=", "open").where("shares", ">", 0) : query.where("total_bought", ">", 0);
    out.push(...(await query.execute()));
  }
  return out;
}

function groupBySide(positions: readonly WhalePosition[]) {
  const groups = new Map<string, { condition_id: string; outcome_index: number; rows: WhalePosition[] }>();
  for (const p of positions) {
    const key = pairKey(p.condition_id, p.outcome_index);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { condition_id: p.condition_id, outcome_index: p.outcome_index, rows: [] }));
    group.rows.push(p);
  }
  return [...groups.values()];
}

async function whaleList(store: Store, rows: readonly WhalePosition[]) {
  const names = await loadNames(store, rows.map((r) => r.wallet));
  return [...new Set(rows.map((r) => r.wallet))].sort().map((w) => ({ wallet: w, name: names.get(w) ?? null }));
}

export async function missedOpportunities(store: Store, wallet: string, limit: number, config: Config) {
  const matched = [...(await matchedWhales(store, wallet)).keys()];
  const [whalePositions, own] = await Promise.all([
    positionsOf(store, matched, false),
    store.db.selectFrom("positions").select("condition_id").where("wallet", "=", wallet).execute(),
  ]);
  const present = new Set(own.map((p) => p.condition_id));
  const candidates = groupBySide(whalePositions).filter((g) => !present.has(g.condition_id) && new Set(g.rows.map((r) => r.wallet)).size >= config.insights.matchMinWhales);
  const markets = await loadMarkets(store, candidates.map((g) => g.condition_id));
  const won = candidates
    .filter((g) => markets.get(g.condition_id)?.resolution === outcomeSide(g.outcome_index))
    .map((g) => ({ g, whaleCount: new Set(g.rows.map((r) => r.wallet)).size, pnl: g.rows.reduce((a, r) => a + usd(r.realized_pnl - r.fees), 0) }))
    .sort((a, b) => b.whaleCount - a.whaleCount || b.pnl - a.pnl || a.g.condition_id.localeCompare(b.g.condition_id))
    .slice(0, limit);
  return {
    address: wallet,
    matched_whales: matched.length,
    min_whales: config.insights.matchMinWhales,
    markets: await Promise.all(
      won.map(async ({ g, whaleCount, pnl }) => ({
        ...marketRef(g.condition_id, markets.get(g.condition_id)),
        category: markets.get(g.condition_id)?.category ?? null,
        winning_side: outcomeSide(g.outcome_index),
        whale_count: whaleCount,
        whales_pnl: pnl,
        whales: await whaleList(store, g.rows),
      })),
    ),
  };
}

/** Every active market where enough matched whales hold one side the wallet does not (the contract caches it 60 s). */
export async function activeWhaleMarkets(store: Store, wallet: string, config: Config) {
  const matched = [...(await matchedWhales(store, wallet)).keys()];
  const [whalePositions, own] = await Promise.all([
    positionsOf(store, matched, true),
    store.db.selectFrom("positions").select(["condition_id", "outcome_index"]).where("wallet", "=", wallet).where("status", "=", "open").where("shares", ">", 0).execute(),
  ]);
  const held = new Set(own.map((p) => pairKey(p.condition_id, p.outcome_index)));
  const candidates = groupBySide(whalePositions).filter((g) => !held.has(pairKey(g.condition_id, g.outcome_index)) && g.rows.length >= config.insights.matchMinWhales);
  const markets = await loadMarkets(store, candidates.map((g) => g.condition_id));
  const active = candidates
    .filter((g) => {
      const m = markets.get(g.condition_id);
      return m !== undefined && !m.closed && m.resolution === null;
    })
    .map((g) => ({ g, cost: g.rows.reduce((a, r) => a + (usd(r.shares) * r.avg_price), 0) }))
    .sort((a, b) => b.g.rows.length - a.g.rows.length || b.cost - a.cost || a.g.condition_id.localeCompare(b.g.condition_id));
  return {
    address: wallet,
    matched_whales: matched.length,
    min_whales: config.insights.matchMinWhales,
    markets: await Promise.all(
      active.map(async ({ g, cost }) => {
        const m = markets.get(g.condition_id)!;
        return {
          ...marketRef(g.condition_id, m),
          category: m.category,
          side: outcomeSide(g.outcome_index),
          price: g.outcome_index === 0 ? m.price_yes : m.price_no,
          whale_count: g.rows.length,
          whales_cost_usd: cost,
          wallet_holds_opposite: held.has(pairKey(g.condition_id, 1 - g.outcome_index)),
          whales: await whaleList(store, g.rows),
        };
      }),
    ),
  };
}

type Alignment = "aligned" | "against" | "no_consensus";

export async function walletAlignment(store: Store, wallet: string, config: Config) {
  const [open, self] = await Promise.all([
    store.db.selectFrom("positions").select(["condition_id", "outcome_index", "shares", "avg_price"]).where("wallet", "=", wallet).where("status", "=", "open").where("shares", ">", 0).execute(),
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
    const rows = await store.db.selectFrom("market_stats").select(["condition_id", "whales_yes", "whales_no"]).where("condition_id", "in", part).execute();
    for (const r of rows) consensus.set(r.condition_id, r);
  }
  const markets = await loadMarkets(store, held.map(([c]) => c));
  const items = held.map(([conditionId, n]) => {
    const side: OutcomeSide = n > 0 ? "YES" : "NO";
    let { whales_yes: yes, whales_no: no } = consensus.get(conditionId) ?? { whales_yes: 0, whales_no: 0 };
    // A Smart Money wallet stands on its own market's team: the consensus shown is that of the other whales.
    if (self?.is_smart === 1 && teamOf(n, config.whales.consensusMinUsd) === side) {
      if (side === "YES") yes = Math.max(0, yes - 1);
      else no = Math.max(0, no - 1);
    }
    const consensusSide = majoritySide(yes, no);
    const alignment: Alignment = consensusSide === null ? "no_consensus" : consensusSide === side ? "aligned" : "against";
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
    aligned_pct: aligned.length + against.length > 0 ? (100 * aligned.length) / (aligned.length + against.length) : null,
    aligned_cost_usd: aligned.reduce((a, i) => a + i.cost_usd, 0),
    against_cost_usd: against.reduce((a, i) => a + i.cost_usd, 0),
    markets: items,
  };
}

export async function similarTraders(store: Store, wallet: string, config: Config, count = 4) {
  const { categoryMinSharePct, similarHighOverlapPct, similarMediumOverlapPct } = config.insights;
  const own = await store.db.selectFrom("wallet_stats").select("categories").where("wallet", "=", wallet).executeTakeFirst();
  const shares = parseCategoryShares(own?.categories);
  const primary: Category | null = rankedCategories(shares)[0]?.category ?? null;
  if (primary === null) return { wallet, primary_category: null, similar: [] };
  const rows = await store.db
    .selectFrom("wallet_stats")
    .select(["wallet", "categories", "total_pnl", "profit_factor", "win_rate"])
    .where("is_smart", "=", 1)
    .where("total_pnl", ">", 0)
    .where("wallet", "!=", wallet)
    .orderBy("total_pnl", "desc")
    .orderBy("wallet")
    .execute();
  const picked = rows
    .map((r) => ({ row: r, shares: parseCategoryShares(r.categories) }))
    .filter((c) => rankedCategories(c.shares)[0]?.category === primary)
    .slice(0, count);
  const names = await loadNames(store, picked.map((p) => p.row.wallet));
  return {
    wallet,
    primary_category: primary,
    similar: picked.map(({ row, shares: theirs }) => {
      const overlap = CATEGORIES.reduce((a, c) => a + Math.min(shares[c], theirs[c]), 0);
      return {
        wallet: row.wallet,
        name: names.get(row.wallet) ?? null,
        total_pnl: row.total_pnl,
        profit_factor: row.profit_factor,
        win_rate: row.win_rate,
        shared_categories: CATEGORIES.filter((c) => shares[c] >= categoryMinSharePct && theirs[c] >= categoryMinSharePct),
        overlap_pct: overlap,
        overlap_label: overlap >= similarHighOverlapPct ? "Very similar" : overlap >= similarMediumOverlapPct ? "Similar" : "Some overlap",
      };
    }),
  };
}

export async function relatedMarkets(store: Store, wallet: string, now: number, config: Config) {
  const { categoryMinSharePct, relatedMarketsPerCategory, relatedPriceMin, relatedPriceMax } = config.insights;
  const own = await store.db.selectFrom("wallet_stats").select("categories").where("wallet", "=", wallet).executeTakeFirst();
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
        .filter((m) => m.category === category && m.price_yes !== null && m.price_yes >= relatedPriceMin && m.price_yes <= relatedPriceMax)
        .sort((a, b) => b.volume_24h - a.volume_24h || a.condition_id.localeCompare(b.condition_id))
        .slice(0, relatedMarketsPerCategory)
        .map((m) => ({ market_id: m.market_id, condition_id: m.condition_id, question: m.question, slug: m.slug, price_yes: m.price_yes, price_no: m.price_no, volume_24h: m.volume_24h, end_date: m.end_date })),
    })),
  };
}
