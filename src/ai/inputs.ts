/**
 * The inputs of an AI analysis: the wallet's stored statistics at the moment of generation, gathered from the same
 * read models the API serves (the overview, insights, hold and changes-since), so that every figure a report quotes
 * is one a Premium user can find on the wallet's pages. Saved beside the report's text. The schema is the OpenAPI
 * description of the `inputs` field.
 */
import { Type, type Static, type TSchema } from "typebox";
import type { Config } from "../config/index.js";
import { makerShare, roleProfile } from "../ledger/role-profile.js";
import { SECONDS_PER_DAY, isoDay } from "../ledger/index.js";
import { BOARD_WINDOW_DAYS } from "../store/schema.js";
import { changesSince } from "../analytics/wallet/wallet-history.js";
import { walletHold, walletInsights } from "../analytics/wallet/wallet-insights.js";
import { overviewBody, rankedTraders, readStats, resolveWallet } from "../analytics/wallet/wallet-overview.js";
import type { Store } from "../store/database.js";
import { yieldToLoop } from "../platform/yield-to-loop.js";

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Num = Type.Number();
const Int = Type.Integer();
const Text = Type.String();
const Tally = { closed_positions: Int, wins: Int, losses: Int, win_rate: Nullable(Num), realized_pnl: Num };

/** The longest a venue profile name or pseudonym may be in a prompt (they are user-controlled text). */
export const MAX_NAME_CHARS = 64;
/** The longest a market question may be in a prompt (venue text, not ours either). */
export const MAX_QUESTION_CHARS = 200;

export const AnalysisInputs = Type.Object(
  {
    wallet: Type.Object(
      { address: Text, name: Nullable(Text), pseudonym: Nullable(Text) },
      {
        description:
          "name and pseudonym as the venue profile gives them (user-controlled; control characters removed, at most 64 characters)",
      },
    ),
    as_of: Type.Integer({ description: "when the wallet statistics were computed (unix seconds)" }),
    generated_for: Type.Integer({ description: "the clock when these inputs were read (unix seconds)" }),
    overview: Type.Object(
      {
        total_trades: Int,
        total_markets: Int,
        total_volume: Num,
        last_trade: Nullable(Int),
        last_trade_date: Nullable(Text),
        active_count: Int,
        closed_count: Int,
        median_hold_days: Nullable(Num),
        hold_positions_count: Int,
      },
      { description: "the overview group of GET /api/v2/wallet/{address}" },
    ),
    stats: Type.Object(
      {
        resolved: Int,
        wins: Int,
        losses: Int,
        win_rate: Num,
        win_source: Text,
        market_win_rate: Num,
        market_wins: Int,
        market_losses: Int,
        total_pnl: Num,
        total_pnl_source: Text,
        realized_pnl: Num,
        unrealized_pnl: Num,
        profit_factor: Num,
        is_smart: Type.Boolean(),
        is_farmer: Type.Boolean(),
        farmer_reason: Nullable(Text),
        has_skill: Type.Boolean(),
        skill_z: Nullable(Num),
        edge_bps: Nullable(Num),
        skill_sample: Int,
        profitable_streak: Int,
        pnl_24h: Nullable(Num),
      },
      { description: "the stats group of the overview" },
    ),
    rankings: Type.Object({
      rank_pnl: Nullable(Int),
      rank_winrate: Nullable(Int),
      rank_volume: Nullable(Int),
      rank_profit_factor: Nullable(Int),
      total_traders: Int,
    }),
    categories: Type.Array(Type.Object({ category: Text, volume_share_pct: Num, ...Tally }), {
      description: "categories with volume or closed positions, largest share first (insights)",
    }),
    entry_prices: Type.Array(Type.Object({ min_price: Num, max_price: Num, ...Tally }), {
      description: "entry-price buckets with closed positions (insights)",
    }),
    sizes: Type.Object(
      {
        avg_fill_usd: Nullable(Num),
        volume_per_market_usd: Nullable(Num),
        avg_entry_price: Nullable(Num),
        volume_window_days: Int,
        volume_30d: Num,
        maker_share_30d_pct: Nullable(Num),
        role_profile: Text,
      },
      {
        description:
          "total_volume / total_trades, total_volume / total_markets, and the leaderboards' average entry price, 30-day volume, maker share and role",
      },
    ),
    hold: Type.Object(
      {
        window_days: Int,
        median_hold_days: Nullable(Num),
        mean_hold_days: Nullable(Num),
        shortest_hold_days: Nullable(Num),
        longest_hold_days: Nullable(Num),
        avg_hold_days_all_closed: Nullable(Num),
        open_positions: Int,
        open_avg_age_days: Nullable(Num),
      },
      { description: "GET /hold, and the insights' mean hold over every closed position" },
    ),
    recent: Type.Object(
      {
        days: Int,
        trades_count: Int,
        volume_usd: Num,
        pnl_delta: Num,
        last_move: Nullable(Type.Object({ question: Nullable(Text), action_label: Text, usd: Num, date: Text })),
      },
      { description: "GET /changes-since over the last AI_ANALYSIS_RECENT_DAYS days" },
    ),
    thresholds: Type.Object(
      {
        smart_min_resolved_markets: Num,
        smart_min_win_rate: Num,
        skill_min_resolved_markets: Num,
        skill_min_z: Num,
        skill_max_event_pnl_share: Num,
        rank_min_resolved_markets: Num,
        hold_min_positions: Num,
        farmer_favourite_avg_buy_price: Num,
        farmer_bot_min_fills: Num,
        farmer_bot_max_avg_fill_usd: Num,
        farmer_two_sided_market_share: Num,
        farmer_two_sided_min_markets: Num,
        farmer_split_merge_volume_share: Num,
        farmer_wash_ring_volume_share: Num,
        farmer_wash_ring_max_counterparties: Num,
      },
      { description: "the settings the verdicts were decided with" },
    ),
  },
  { description: "the stored statistics the report was written from, as they were at generation" },
);
export type AnalysisInputs = Static<typeof AnalysisInputs>;

/** Venue text as a prompt may carry it: no control or formatting characters, one line, at most `max` characters. */
export function cleanText(text: string | null | undefined, max = MAX_NAME_CHARS): string | null {
  const flat = (text ?? "")
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat ? [...flat].slice(0, max).join("") : null;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

function thresholdsOf(config: Config): AnalysisInputs["thresholds"] {
  const { smart, farmer, ledger } = config;
  return {
    smart_min_resolved_markets: smart.minResolvedMarkets,
    smart_min_win_rate: smart.minWinRate,
    skill_min_resolved_markets: smart.skillMinResolvedMarkets,
    skill_min_z: smart.skillMinZ,
    skill_max_event_pnl_share: smart.skillMaxEventPnlShare,
    rank_min_resolved_markets: ledger.rankMinResolvedMarkets,
    hold_min_positions: ledger.holdMinPositions,
    farmer_favourite_avg_buy_price: farmer.favouriteMinAvgBuyPrice,
    farmer_bot_min_fills: farmer.botMinFills,
    farmer_bot_max_avg_fill_usd: farmer.botMaxAvgFillUsd,
    farmer_two_sided_market_share: farmer.twoSidedMarketShare,
    farmer_two_sided_min_markets: farmer.twoSidedMinMarkets,
    farmer_split_merge_volume_share: farmer.splitMergeVolumeShare,
    farmer_wash_ring_volume_share: farmer.washRingVolumeShare,
    farmer_wash_ring_max_counterparties: farmer.washRingMaxCounterparties,
  };
}

/** The proxy wallet whose statistics answer for an address, or null when it has none. */
export async function analysedWallet(store: Store, address: string): Promise<string | null> {
  const { proxy } = await resolveWallet(store, address);
  return (await readStats(store, proxy)) ? proxy : null;
}

/** Everything a report may quote about a wallet (its proxy), read now; null when it has no statistics. */
export async function gatherInputs(
  store: Store,
  wallet: string,
  config: Config,
  now: number,
): Promise<AnalysisInputs | null> {
  const identity = await resolveWallet(store, wallet);
  const stats = await readStats(store, identity.proxy);
  if (!stats) return null;
  const proxy = identity.proxy;
  const recentDays = config.ai.recentDays;
  // One read at a time, letting requests in between (a busy wallet's insights take milliseconds of SQLite).
  const totalTraders = await rankedTraders(store);
  const board = await store.db
    .selectFrom("wallet_stats")
    .select(["avg_entry_price", "volume_30d", "maker_volume_30d"])
    .where("wallet", "=", proxy)
    .executeTakeFirstOrThrow();
  await yieldToLoop();
  const insights = await walletInsights(store, proxy);
  await yieldToLoop();
  const hold = await walletHold(store, proxy, now, config);
  await yieldToLoop();
  const changes = await changesSince(store, proxy, now - recentDays * SECONDS_PER_DAY, now);
  const body = overviewBody(identity, stats, totalTraders, "proxy", false);
  const o = body.overview;
  const makerShare30d = makerShare(board.maker_volume_30d, board.volume_30d);
  const lastMove = changes.last_move;
  return {
    wallet: { address: proxy, name: cleanText(body.profile.name), pseudonym: cleanText(body.profile.pseudonym) },
    as_of: body.as_of,
    generated_for: now,
    overview: {
      total_trades: o.total_trades,
      total_markets: o.total_markets,
      total_volume: o.total_volume,
      last_trade: o.last_trade,
      last_trade_date: o.last_trade === null ? null : isoDay(Math.floor(o.last_trade / SECONDS_PER_DAY)),
      active_count: o.active_count ?? 0,
      closed_count: o.closed_count ?? 0,
      median_hold_days: o.median_hold_days,
      hold_positions_count: o.hold_positions_count,
    },
    stats: {
      ...body.stats,
      wins: body.stats.wins ?? 0,
      losses: body.stats.losses ?? 0,
      market_wins: body.stats.market_wins ?? 0,
      market_losses: body.stats.market_losses ?? 0,
    },
    rankings: {
      rank_pnl: body.rankings.rank_pnl,
      rank_winrate: body.rankings.rank_winrate,
      rank_volume: body.rankings.rank_volume,
      rank_profit_factor: body.rankings.rank_profit_factor,
      total_traders: totalTraders,
    },
    // A share is served to two decimals (src/api/rounding.ts): one that shows as 0 with nothing closed is not listed.
    categories: insights.categories
      .filter((c) => Math.round(c.volume_share_pct * 100) > 0 || c.closed_positions > 0)
      .sort((a, b) => b.volume_share_pct - a.volume_share_pct)
      .map(({ category, volume_share_pct, closed_positions, wins, losses, win_rate, realized_pnl }) => ({
        category,
        volume_share_pct,
        closed_positions,
        wins,
        losses,
        win_rate,
        realized_pnl,
      })),
    entry_prices: insights.entry_price_buckets
      .filter((b) => b.closed_positions > 0)
      .map(({ min_price, max_price, closed_positions, wins, losses, win_rate, realized_pnl }) => ({
        min_price,
        max_price,
        closed_positions,
        wins,
        losses,
        win_rate,
        realized_pnl,
      })),
    sizes: {
      avg_fill_usd: ratio(o.total_volume, o.total_trades),
      volume_per_market_usd: ratio(o.total_volume, o.total_markets),
      avg_entry_price: board.avg_entry_price,
      volume_window_days: BOARD_WINDOW_DAYS,
      volume_30d: board.volume_30d,
      maker_share_30d_pct: makerShare30d === null ? null : 100 * makerShare30d,
      role_profile: roleProfile(makerShare30d, board.avg_entry_price, config.boards),
    },
    hold: {
      window_days: hold.window_days,
      median_hold_days: hold.median_hold_days,
      mean_hold_days: hold.mean_hold_days,
      shortest_hold_days: hold.shortest_hold_days,
      longest_hold_days: hold.longest_hold_days,
      avg_hold_days_all_closed: insights.avg_hold_days,
      open_positions: hold.open_positions,
      open_avg_age_days: hold.open_avg_age_days,
    },
    recent: {
      days: recentDays,
      trades_count: changes.trades_count,
      volume_usd: changes.volume_usd,
      pnl_delta: changes.pnl_delta,
      last_move: lastMove
        ? {
            question: cleanText(lastMove.question, MAX_QUESTION_CHARS),
            action_label: lastMove.action_label,
            usd: lastMove.usd,
            date: isoDay(Math.floor(lastMove.ts / SECONDS_PER_DAY)),
          }
        : null,
    },
    thresholds: thresholdsOf(config),
  };
}
