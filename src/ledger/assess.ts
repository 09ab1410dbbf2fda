/**
 * Everything the service stores about a wallet, from the ledger state and the venue's synced
 * figures: statistics, the farmer verdict, Smart Money and the skill badge.
 */
import type { Config } from "../config/index.js";
import { checkFarmer, farmerMetrics, type FarmerMetrics, type FarmerVerdict } from "./farmer.js";
import { isSmartMoney, skillScore, type SkillScore } from "./skill.js";
import type { LedgerState } from "./state.js";
import { computeWalletStats, type WalletStats, type WalletStatsInput } from "./stats.js";
import { summarizeWallet } from "./summary.js";

export type LedgerConfig = Pick<Config, "ledger" | "farmer" | "smart">;

export interface AssessmentInput extends WalletStatsInput {
  /** From `washRing` over the wallet's fills with counterparties; null when they are unknown. */
  readonly washRingVolumeShare?: number | null;
}

export interface WalletAssessment {
  readonly stats: WalletStats;
  readonly farmerMetrics: FarmerMetrics;
  readonly farmer: FarmerVerdict;
  readonly isSmart: boolean;
  readonly skill: SkillScore;
}

export function assessWallet(
  state: LedgerState,
  wallet: string,
  input: AssessmentInput,
  config: LedgerConfig,
): WalletAssessment | undefined {
  const summary = summarizeWallet(state, wallet, input.now, config.ledger);
  if (!summary) return undefined;
  const stats = computeWalletStats(summary, input, config.ledger);
  const metrics = farmerMetrics(summary, config.farmer, input.washRingVolumeShare ?? null);
  const farmer = checkFarmer(metrics, config.farmer);
  const isSmart = isSmartMoney(
    { isFarmer: farmer.isFarmer, resolved: stats.resolved, winRate: stats.winRate, totalPnl: stats.totalPnl },
    config.smart,
  );
  const skill = skillScore(summary.skillClusters, stats.resolved, isSmart, config.smart);
  return { stats, farmerMetrics: metrics, farmer, isSmart, skill };
}
