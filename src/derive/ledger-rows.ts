/**
 * The ledger's results as rows of the store's tables (`positions`, `wallet_stats`, `position_snapshots`): the
 * ledger's records in, the store's units out (prices 0..1, amounts in micro-units).
 */
import {
  SECONDS_PER_DAY,
  positionCostUsd,
  type LedgerState,
  type Position,
  type WalletAssessment,
  type WalletBook,
  type WalletRankings,
} from "../ledger/index.js";
import type { PositionSnapshotsTable, PositionsTable, WalletStatsTable } from "../store/schema.js";
import { MICRO } from "../venue/units.js";

export function positionRow(state: LedgerState, position: Position): PositionsTable {
  const condition = position.conditionIndex;
  const conditionId = state.markets.conditionIds[condition]!;
  return {
    wallet: state.walletTable.addresses[position.walletId]!,
    // A token seen only through splits or conversions of a market without facts has no known id yet.
    token_id: state.markets.tokenIds[position.token] ?? `${conditionId}/${position.outcomeIndex}`,
    condition_id: conditionId,
    outcome_index: position.outcomeIndex,
    shares: position.shares,
    avg_price: position.avgPrice / MICRO,
    total_bought: position.totalBought,
    realized_pnl: position.realizedPnl,
    fees: position.fees,
    first_ts: position.firstTs,
    last_ts: position.lastTs,
    closed_ts: position.closedTs >= 0 ? position.closedTs : null,
    status: position.open ? "open" : "closed",
  };
}

/** Every position of one wallet, or of every wallet. */
export function positionRows(state: LedgerState, wallet?: string): PositionsTable[] {
  const books =
    wallet === undefined ? [...state.wallets()] : [state.wallet(wallet)].filter((b): b is WalletBook => !!b);
  return books.flatMap((book) => state.positionIndices(book).map((p) => positionRow(state, state.positions.read(p))));
}

/**
 * The wallet's positions in one 32-bit number: the sum of each position's hash (FNV-1a over its shares, realized
 * P&L, total bought and status), so that neither the order the ledger holds them in nor its internal ids count, and a
 * rebuild writes what the Deriver does. Written with its statistics row, it moves the stamp of the wallet's kept
 * answers with any write that changes a position, one that leaves every figure of the row as it was (a redemption of
 * a resolved winner) included.
 */
export function positionsDigest(state: LedgerState, book: WalletBook | undefined): number {
  let sum = 0;
  if (book)
    for (const p of state.positionIndices(book)) {
      const position = state.positions.read(p);
      let hash = FNV_OFFSET;
      hash = mix(hash, position.shares);
      hash = mix(hash, position.realizedPnl);
      hash = mix(hash, position.totalBought);
      hash = mix(hash, position.open ? 1 : 0);
      sum = (sum + (hash >>> 0)) >>> 0;
    }
  return sum;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** An integer of up to 53 bits into the hash: its low 32 bits, then the rest. */
function mix(hash: number, value: number): number {
  const low = Math.imul(hash ^ (value | 0), FNV_PRIME);
  return Math.imul(low ^ (Math.floor(value / 2 ** 32) | 0), FNV_PRIME);
}

export function walletStatsRow(
  assessment: WalletAssessment,
  rankings: WalletRankings | undefined,
  computedAt: number,
): Omit<WalletStatsTable, "positions_digest"> {
  const { stats, farmer, skill } = assessment;
  return {
    wallet: stats.wallet,
    computed_at: computedAt,
    total_trades: stats.totalTrades,
    total_markets: stats.totalMarkets,
    total_volume: stats.totalVolume,
    last_trade: stats.lastTrade,
    active_count: stats.activeCount,
    resolved: stats.resolved,
    wins: stats.wins,
    losses: stats.losses,
    win_rate: stats.winRate,
    win_source: stats.winSource,
    market_wins: stats.marketWins,
    market_losses: stats.marketLosses,
    market_win_rate: stats.marketWinRate,
    total_pnl: stats.totalPnl,
    total_pnl_source: stats.totalPnlSource,
    realized_pnl: stats.realizedPnl,
    unrealized_pnl: stats.unrealizedPnl,
    gross_profit: stats.grossProfit,
    gross_loss: stats.grossLoss,
    profit_factor: stats.profitFactor,
    pnl_24h: stats.pnl24h,
    is_smart: assessment.isSmart ? 1 : 0,
    is_farmer: farmer.isFarmer ? 1 : 0,
    farmer_reason: farmer.test,
    has_skill: skill.hasSkill ? 1 : 0,
    skill_z: skill.z,
    edge_bps: skill.edgeBps,
    skill_sample: skill.sample,
    profitable_streak: stats.profitableStreak,
    median_hold_days: stats.medianHoldDays,
    hold_positions_count: stats.holdPositionsCount,
    categories: JSON.stringify(stats.categories),
    rank_pnl: rankings?.rankPnl ?? null,
    rank_winrate: rankings?.rankWinRate ?? null,
    rank_volume: rankings?.rankVolume ?? null,
    rank_profit_factor: rankings?.rankProfitFactor ?? null,
  };
}

/**
 * A daily snapshot: per wallet and market with open shares, each side's shares and cost in USD
 * (shares * average price), dated at 00:00 UTC of the day containing `at` (the ledger is advanced to `at`).
 * Markets where neither side reaches `minSideCostUsd` are left out: below the consensus minimum a wallet is on
 * no side (docs/METRICS.md), so there is nothing a flip could start from, and most open positions are that small.
 * Each wallet's rows are made as the stream reaches the wallet; the ledger is advanced to `at` at once, and must not
 * move until the stream is read.
 */
export function positionSnapshotRowStream(
  state: LedgerState,
  at: number,
  minSideCostUsd = 0,
): Generator<PositionSnapshotsTable> {
  state.advanceTo(at);
  return snapshotRowsOfWallets(state, Math.floor(at / SECONDS_PER_DAY) * SECONDS_PER_DAY, minSideCostUsd);
}

function* snapshotRowsOfWallets(
  state: LedgerState,
  day: number,
  minSideCostUsd: number,
): Generator<PositionSnapshotsTable> {
  for (const book of state.wallets()) {
    const byMarket = new Map<number, PositionSnapshotsTable>();
    for (const p of state.positionIndices(book)) {
      const position = state.positions.read(p);
      if (!position.open) continue;
      const condition = position.conditionIndex;
      let row = byMarket.get(condition);
      if (!row) {
        row = {
          day,
          wallet: book.address,
          condition_id: state.markets.conditionIds[condition]!,
          yes_shares: 0,
          yes_cost: 0,
          no_shares: 0,
          no_cost: 0,
        };
        byMarket.set(condition, row);
      }
      const cost = positionCostUsd(position);
      if (position.outcomeIndex === 0) {
        row.yes_shares = position.shares;
        row.yes_cost = cost;
      } else {
        row.no_shares = position.shares;
        row.no_cost = cost;
      }
    }
    for (const row of byMarket.values())
      if (minSideCostUsd <= 0 || Math.max(row.yes_cost, row.no_cost) >= minSideCostUsd) yield row;
  }
}
