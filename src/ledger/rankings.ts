/**
 * Rankings among ranked traders (docs/METRICS.md): wallets with at least `rankMinResolvedMarkets` resolved
 * markets, ranked 1-based and best first by each metric. Equal values share a rank and the next rank
 * skips ("1, 2, 2, 4"), so a rank never depends on the order wallets were listed in.
 */
import type { Config } from "../config/index.js";

export interface RankingEntry {
  readonly wallet: string;
  readonly resolved: number;
  readonly totalPnl: number;
  readonly winRate: number;
  readonly totalVolume: number;
  readonly profitFactor: number;
}

export interface WalletRankings {
  /** null for a wallet outside the ranked population. */
  readonly rankPnl: number | null;
  readonly rankWinRate: number | null;
  readonly rankVolume: number | null;
  readonly rankProfitFactor: number | null;
  readonly totalTraders: number;
}

type Metric = "totalPnl" | "winRate" | "totalVolume" | "profitFactor";

export function computeRankings(
  entries: Iterable<RankingEntry>,
  cfg: Pick<Config["ledger"], "rankMinResolvedMarkets">,
): Map<string, WalletRankings> {
  const all = [...entries];
  const ranked = all.filter((e) => e.resolved >= cfg.rankMinResolvedMarkets);
  const ranksBy = (metric: Metric) => {
    const ranks = new Map<string, number>();
    const sorted = [...ranked].sort((a, b) => b[metric] - a[metric]);
    sorted.forEach((entry, i) => {
      const previous = sorted[i - 1];
      ranks.set(entry.wallet, previous && previous[metric] === entry[metric] ? ranks.get(previous.wallet)! : i + 1);
    });
    return ranks;
  };
  const pnl = ranksBy("totalPnl");
  const winRate = ranksBy("winRate");
  const volume = ranksBy("totalVolume");
  const profitFactor = ranksBy("profitFactor");
  const result = new Map<string, WalletRankings>();
  for (const entry of all) {
    result.set(entry.wallet, {
      rankPnl: pnl.get(entry.wallet) ?? null,
      rankWinRate: winRate.get(entry.wallet) ?? null,
      rankVolume: volume.get(entry.wallet) ?? null,
      rankProfitFactor: profitFactor.get(entry.wallet) ?? null,
      totalTraders: ranked.length,
    });
  }
  return result;
}

/** The wallets whose ranks differ from one ranking to the next (new wallets included). */
export function rankChanges(before: Map<string, WalletRankings>, next: Map<string, WalletRankings>): string[] {
  const changed: string[] = [];
  for (const [wallet, ranks] of next) {
    const was = before.get(wallet);
    if (
      !was ||
      was.rankPnl !== ranks.rankPnl ||
      was.rankWinRate !== ranks.rankWinRate ||
      was.rankVolume !== ranks.rankVolume ||
      was.rankProfitFactor !== ranks.rankProfitFactor
    )
      changed.push(wallet);
  }
  return changed;
}
