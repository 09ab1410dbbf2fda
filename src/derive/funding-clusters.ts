/**
 * The funding clusters (issue 52): every traced wallet grouped by shared non-hub funders (src/ledger/funding-graph.ts)
 * over every stored transfer, written whole to `funding_clusters` whenever the funding reader has stored something
 * since the last time. Run by the Deriver's refresh.
 */
import type { Config } from "../config/index.js";
import { busyFunders, fundingClusters, hubTest } from "../ledger/index.js";
import type { Store } from "../store/database.js";
import { allFundingEdges, fundingMark, replaceFundingClusters, tracedWallets } from "../store/funding.js";
import { fundingHubs } from "../venue/index.js";

export type FundingSettings = Pick<Config["funding"], "hops" | "extraHubs" | "hubFanout">;

export class FundingClusterWriter {
  private mark: string | null = null;

  constructor(
    private readonly store: Store,
    private readonly settings: FundingSettings,
  ) {}

  /** Recomputes the clusters when the stored funding changed; returns whether it did. */
  async refresh(): Promise<boolean> {
    const db = this.store.db;
    const mark = await fundingMark(db);
    if (mark === this.mark) return false;
    const [edges, wallets] = await Promise.all([allFundingEdges(db), tracedWallets(db)]);
    const isHub = hubTest(fundingHubs(this.settings.extraHubs), busyFunders(edges, this.settings.hubFanout));
    const clusters = fundingClusters(wallets, edges, isHub, this.settings.hops);
    await replaceFundingClusters(
      db,
      clusters.flatMap((c) =>
        c.members.map((m) => ({ wallet: m.wallet, cluster_id: c.funder, funder_hops: m.funderHops })),
      ),
    );
    this.mark = mark;
    return true;
  }
}
