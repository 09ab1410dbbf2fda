/**
 * Big positions (/api/v2/whale-alerts/big-positions and its summary): the smart whales' open positions whose cost
 * basis reaches a floor, one row per wallet and market (the side with the larger cost basis), largest first, read
 * from the per-process copy of their positions (smart-holdings.ts) and priced at the market's current price.
 */
import type { Category } from "../../venue/categories.js";
import type { IndexedMarket } from "../markets/market-index.js";
import type { WhaleHolding } from "./smart-holdings.js";
import type { WhaleReads } from "./whale-reads.js";

function priceOf(market: IndexedMarket | undefined, side: "YES" | "NO"): number | null {
  if (!market) return null;
  return side === "YES" ? market.price_yes : market.price_no;
}

function bigPosition(
  h: WhaleHolding,
  market: IndexedMarket | undefined,
  whale: { name: string | null; winRate: number; totalPnl: number } | undefined,
) {
  const held = (h.larger === "YES" ? h.yes : h.no)!;
  const currentPrice = priceOf(market, h.larger);
  const size = held.shares / 1e6;
  const value = currentPrice === null ? null : size * currentPrice;
  return {
    wallet: h.wallet,
    wallet_name: whale?.name ?? null,
    market_title: market?.question ?? null,
    side: h.larger,
    size,
    avg_price: held.avgPrice,
    current_price: currentPrice,
    cost_basis: held.costUsd,
    value_usd: value,
    unrealized_pnl: value === null ? null : value - held.costUsd,
    market_id: market?.id ?? null,
    condition_id: h.condition_id,
    category: market?.category ?? null,
    win_rate: whale?.winRate ?? null,
    total_pnl: whale?.totalPnl ?? null,
  };
}

export type BigPosition = ReturnType<typeof bigPosition>;

/** Every big position of at least `minUsd` in the category (null: all), largest cost basis first. */
async function bigPositionsOf(
  reads: WhaleReads,
  minUsd: number,
  category: Category | null,
): Promise<{ items: BigPosition[]; asOf: number }> {
  const [view, index] = await Promise.all([reads.holdings.current(), reads.markets()]);
  const items: BigPosition[] = [];
  for (const h of view.holdings) {
    if (h.largerCostUsd < minUsd) break;
    const market = index.byConditionId.get(h.condition_id);
    if (category !== null && market?.category !== category) continue;
    items.push(bigPosition(h, market, view.roster.whales.get(h.wallet)));
  }
  return { items, asOf: view.asOf };
}

export async function bigPositions(reads: WhaleReads, q: { minUsd: number; category: Category | null; limit: number }) {
  const { items, asOf } = await bigPositionsOf(reads, q.minUsd, q.category);
  const page = items.slice(0, q.limit);
  return { items: page, count: page.length, total: items.length, min_usd: q.minUsd, category: q.category, as_of: asOf };
}

/** Totals of the big positions of at least `minUsd`: count, held value (at cost where a market has no price), the largest, the whale holding most. */
export async function bigPositionsSummary(reads: WhaleReads, minUsd: number, category: Category | null) {
  const { items, asOf } = await bigPositionsOf(reads, minUsd, category);
  const byWallet = new Map<
    string,
    { wallet: string; name: string | null; positions: number; cost: number; value: number }
  >();
  let value = 0;
  let cost = 0;
  for (const item of items) {
    const held = item.value_usd ?? item.cost_basis;
    value += held;
    cost += item.cost_basis;
    const w = byWallet.get(item.wallet) ?? {
      wallet: item.wallet,
      name: item.wallet_name,
      positions: 0,
      cost: 0,
      value: 0,
    };
    w.positions++;
    w.cost += item.cost_basis;
    w.value += held;
    byWallet.set(item.wallet, w);
  }
  const top = [...byWallet.values()].sort((a, b) => b.cost - a.cost || (a.wallet < b.wallet ? -1 : 1))[0];
  return {
    total_positions: items.length,
    total_value_usd: value,
    total_cost_basis_usd: cost,
    biggest_position: items[0] ?? null,
    top_whale: top
      ? { wallet: top.wallet, name: top.name, positions: top.positions, cost_basis_usd: top.cost, value_usd: top.value }
      : null,
    min_usd: minUsd,
    category,
    as_of: asOf,
  };
}
