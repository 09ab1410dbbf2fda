/**
 * The simulated venue's world: a seeded, deterministic history of events, markets, wallets and on-chain
 * transactions (matches with their fills, and non-trade operations), plus the venue's own reference P&L,
 * the world's make-up and a live continuation. The loopback servers encode their payloads from this.
 *
 *   const world = generateWorld({ seed: 1, end: dayStartUtc });
 *   world.fill(i) / world.match(j) / world.op(k)          plain views (micro-units, unix seconds)
 *   world.matchesBetween(from, to)                         time ranges (chronological indexes)
 *   world.fillsOfWallet(w) / world.matchesOfMarket(m)      lazy indexes
 *   referencePnl(world, w)                                 /positions, /closed-positions, user P&L curve
 *   startLive(world, { from, matchesPerSecond }).advanceTo(now)
 *   world.informed / world.funding                         insiders and decoys, every wallet's funding (ground truth)
 */
export { generateWorld, resolveWorldOptions, WORLD_DEFAULTS } from "./generate.js";
export { World, worldDigest } from "./world.js";
export { worldStats, formatWorldStats, type WorldStats } from "./stats.js";
export {
  referencePnl,
  ReferenceLedger,
  ledgerBuy,
  ledgerSell,
  negRiskYesPrice,
  newPosition,
  mulDivTrunc,
  type LedgerPosition,
  type ReferencePosition,
  type ReferenceClosedPosition,
  type PnlPoint,
  type WalletReference,
} from "./reference-pnl.js";
export { LiveFeed, startLive, rebuildHoldings, type LiveOptions, type LiveAppend } from "./live.js";
export {
  BLOCK_ANCHOR,
  BLOCK_TIME_SECONDS,
  V2_CUTOVER_TS,
  blockAt,
  blockTimestamp,
  collateralAddress,
  collateralAdapterAt,
  exchangeAddress,
  exchangeVersion,
  matchMechanicsLogs,
  opLogLayout,
  type OpLogLayout,
} from "./chain.js";
export { notionalMicro, takerFeeMicro } from "./fees.js";
export { FLAG_NO, FLAG_SELL, FLAG_TAKER, TradeTables } from "./columns.js";
export { PROFILES, archetypeCounts } from "./population.js";
export { InformedPlan, LONG_ODDS, type InformedBet } from "./informed.js";
export {
  COLLATERAL_TOKENS,
  FUNDING_HUBS,
  FundingTransfers,
  type FundingGroup,
  type FundingGroupKind,
  type FundingHub,
} from "./funding.js";
export * from "./types.js";
