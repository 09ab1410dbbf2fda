/**
 * The stateful side of the ledger: reads the store, runs the pure ledger (src/ledger), writes its results
 * (positions, wallet_stats, market_stats, position_snapshots, the P&L series). `rebuild` recomputes everything;
 * the Deriver keeps the tables current from the ingest's committed batches. See deriver.ts for what is written
 * when, and rebuild.ts for the "as of" rule.
 */
import type { CommittedRows, DeriverDeps } from "./batch-applier.js";
import { Deriver } from "./deriver.js";

export { Deriver } from "./deriver.js";
export type { CommittedRows, DeriverDeps } from "./batch-applier.js";
export {
  rebuild,
  deriveFromStore,
  derivedTables,
  writeDerivedTables,
  storedFrontier,
  type RebuildResult,
} from "./rebuild.js";
export { loadMarketFacts, questionIndexOf } from "./market-facts.js";

/** What the Deriver listens to: the ingest (`Ingest.onCommitted`, `Ingest.onCaughtUp`). */
export interface CommittedSource {
  onCommitted(listener: (batch: CommittedRows) => Promise<void>): () => void;
  onCaughtUp?(listener: () => unknown): () => void;
  /** Syncs the wallets people look at first before `ready`, when needed; how many (Ingest.firstLookWallets). */
  firstLookWallets?(): Promise<number>;
}

/**
 * Starts the ingest process's Deriver: listens to the ingest's committed batches, warms from the store and
 * rewrites the derived tables. Call it before `ingest.start()`, and `deriver.stop()` after `ingest.stop()`.
 */
export async function startDeriver(deps: DeriverDeps & { readonly ingest: CommittedSource }): Promise<Deriver> {
  const deriver = new Deriver(deps);
  deps.ingest.onCommitted(deriver.onCommitted);
  const firstLook = deps.ingest.firstLookWallets?.bind(deps.ingest);
  deps.ingest.onCaughtUp?.(() => deriver.firstSyncCaughtUp(firstLook));
  await deriver.start();
  return deriver;
}
