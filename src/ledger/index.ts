/**
 * The pure ledger: fills and activity in, positions, P&L, wallet statistics, farmer verdicts,
 * Smart Money and skill out. No I/O; time is an input.
 */
export type {
  ConversionActivity,
  IncomeActivity,
  LedgerActivity,
  LedgerEvent,
  LedgerFill,
  MarketFacts,
  OutcomeIndex,
  PnlPointRow,
  PositionRow,
  PositionSnapshotRow,
  RedeemActivity,
  SplitOrMergeActivity,
} from "./types.js";
export { MICRO, FIFTY_CENTS, fillPrice, fromMicro, negRiskYesPrice, realizedDelta, toMicroPrice, weightedAveragePrice } from "./fixed-point.js";
export { PositionTable, SECONDS_PER_DAY, type Position } from "./books.js";
export { DayLog, WalletTable, type WalletBook } from "./wallets.js";
export { MarketBook, resolutionPayoutYes, sidePayout } from "./markets.js";
export { LedgerState, replay, type LedgerCapacity } from "./state.js";
export { CATEGORIES, categoryShares, marketCategory, type Category } from "./categories.js";
export { summarizeWallet, type WalletSummary, type MarketUnit, type SkillCluster } from "./summary.js";
export {
  chooseWinSource,
  computeWalletStats,
  median,
  medianHoldDays,
  pnlChange24h,
  profitFactor,
  profitableStreak,
  summarizeVenueClosedPositions,
  winRate,
  type PnlPoint,
  type VenueClosedPositions,
  type WalletStats,
  type WalletStatsInput,
  type WinSource,
} from "./stats.js";
export { FARMER_TESTS, checkFarmer, farmerMetrics, washRing, type CounterpartyFill, type FarmerMetrics, type FarmerTest, type FarmerVerdict, type WashRing } from "./farmer.js";
export { isSmartMoney, skillScore, type SkillScore, type SmartMoneyInput } from "./skill.js";
export { computeRankings, type RankingEntry, type WalletRankings } from "./rankings.js";
export { assessWallet, type AssessmentInput, type LedgerConfig, type WalletAssessment } from "./assess.js";
export { dailyRealizedPnlPoints, ledgerTotalPnl, pnlPointRows, positionRow, positionRows, positionSnapshotRows, walletStatsRow } from "./rows.js";
