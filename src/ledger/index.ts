/**
 * The pure ledger: fills and activity in, positions, P&L, wallet statistics, farmer verdicts, Smart Money and skill
 * out; and the rule of every other figure (valuations, market totals, whale consensus, role profile), wherever it is
 * applied. No I/O; time is an input; domain records in and out (the store's rows are mapped in src/derive/).
 */
export type {
  ConversionActivity,
  Direction,
  EntryType,
  IncomeActivity,
  LedgerActivity,
  LedgerEvent,
  LedgerFill,
  MarketFacts,
  OutcomeIndex,
  OutcomeSide,
  RedeemActivity,
  Resolution,
  SplitOrMergeActivity,
} from "./types.js";
export {
  FIFTY_CENTS,
  fillPrice,
  negRiskYesPrice,
  realizedDelta,
  toMicroPrice,
  weightedAveragePrice,
} from "./fixed-point.js";
export { PositionTable, SECONDS_PER_DAY, isoDay, type Position } from "./books.js";
export { DayLog, WalletTable, type WalletBook } from "./wallets.js";
export { MarketBook, resolutionPayoutYes, sidePayout } from "./markets.js";
export { LedgerState, replay, type LedgerCapacity } from "./state.js";
export { categoryShares, marketCategory } from "./categories.js";
export { summarizeWallet, type WalletSummary, type MarketUnit, type SkillCluster } from "./summary.js";
export {
  changePct,
  chooseWinSource,
  computeWalletStats,
  isProfitableDay,
  longestProfitableRun,
  median,
  medianHoldDays,
  payoffFigures,
  pnlChange24h,
  profitFactor,
  profitableDays,
  profitableStreak,
  returnOnVolumePct,
  summarizeVenueClosedPositions,
  winRate,
  winRateOrNull,
  type DayBooking,
  type PnlPoint,
  type ProfitableRun,
  type VenueClosedPositions,
  type WalletStats,
  type WalletStatsInput,
  type WinSource,
} from "./stats.js";
export { isVenueListedClosed, venueClosedPositions } from "./venue-closed.js";
export {
  FARMER_TESTS,
  checkFarmer,
  farmerMetrics,
  offsettingRing,
  washRing,
  washShare,
  type CounterpartyFill,
  type FarmerMetrics,
  type FarmerTest,
  type FarmerVerdict,
  type WashRing,
} from "./farmer.js";
export { isSmartMoney, skillScore, type SkillScore, type SmartMoneyInput } from "./skill.js";
export { computeRankings, rankChanges, type RankingEntry, type WalletRankings } from "./rankings.js";
export { assessWallet, type AssessmentInput, type LedgerConfig, type WalletAssessment } from "./assess.js";
export {
  dailySettledPnl,
  ledgerTotalPnl,
  ledgerValueAt,
  positionCostUsd,
  settledNetUsd,
  unrealizedPnlUsd,
  type PnlAt,
} from "./valuation.js";
export { MarketTotals, countsTowardMarket, marketVolume, type MarketTotal } from "./market-totals.js";
export { majoritySide, teamOf, whaleConsensus, yesPct, type TeamCounts } from "./consensus.js";
export {
  ROLE_PROFILES,
  averageEntryPrice,
  makerShare,
  roleProfile,
  type RoleProfile,
  type RoleThresholds,
} from "./role-profile.js";
export { effectiveTrade, marketSides, type SideTotals, type SideTrade } from "./market-sides.js";
export {
  convictionClusters,
  whaleFlip,
  type ClusterMember,
  type ConvictionCluster,
  type EventStand,
  type WhaleFlip,
} from "./whale-signals.js";
export {
  busyFunders,
  edgesInto,
  fundingClusters,
  fundingPaths,
  hubTest,
  sharedFunderCandidates,
  type FundingCluster,
  type FundingClusterMember,
  type FundingEdge,
  type FundingPath,
  type PathEnd,
} from "./funding-graph.js";
export {
  FULL_VOLUME_SHARE,
  INSIDER_COMPONENTS,
  INSIDER_WEIGHTS,
  decodeInsiderFacts,
  encodeInsiderFacts,
  insiderComponents,
  insiderConfidence,
  insiderScore,
  type InsiderBet,
  type InsiderComponent,
  type InsiderScore,
  type ScoredComponent,
} from "./insider-score.js";
export {
  followReturn,
  meanInterval,
  scorecardRows,
  takerFeePerShare,
  wilsonInterval,
  type GradedSignal,
  type ScorecardRow,
} from "./scorecard.js";
export {
  aheadOfNews,
  yesPrice,
  type AheadOfNews,
  type AheadRules,
  type AheadWallet,
  type MarketMove,
  type NewsTrade,
} from "./ahead-of-news.js";
