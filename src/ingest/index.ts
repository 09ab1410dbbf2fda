/**
 * Ingest: the pipelines that keep Pelagic's copy of the venue (markets, fills, activity, resolutions, wallet
 * caches) complete and exact, and the live trade relay. See README.md in this folder.
 */
export { Ingest, type IngestDeps, type ProgressListener } from "./ingest.js";
export {
  BatchWriter,
  type Batch,
  type CommittedBatch,
  type CommitListener,
  type SkippedRecord,
} from "./batch-writer.js";
export type { ProgressEvent } from "./context.js";
export { SOURCES, expectedIngestSources, fillsSource } from "./sources.js";
export { parseIngestStart, type IngestStart } from "./ingest-start.js";
export {
  LIVE_TRADES_CHANNEL,
  LiveTradeMessageShape,
  parseLiveTradeMessage,
  type LiveTradeMessage,
} from "./live-message.js";
export { apiFillKey } from "./data-api-trades.js";
export { chainKey } from "./chain-rows.js";
export { Stopped } from "./runner.js";
export { WalletSyncQueue, createWalletSyncQueue } from "./wallet-sync-queue.js";
