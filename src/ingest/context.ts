/** What every pipeline works with: the store, the batch writer, time, logs and the progress reporter. */
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import type { Store, StoreTransaction } from "../store/database.js";
import { upsertEvents, upsertMarkets } from "../store/markets.js";
import type { BatchWriter } from "./batch-writer.js";
import type { MarketRows } from "./market-rows.js";

/** Progress of a pipeline, for the `pelagic ingest` progress bar and log lines. */
export interface ProgressEvent {
  readonly source: string;
  /** Fills newly stored by the batch this event follows. */
  readonly newFills: number;
  /** Where the source stands and where it is heading, in `unit`s (blocks, markets): for the ETA. */
  readonly position?: number;
  readonly target?: number;
  readonly unit?: string;
}

export interface IngestContext {
  readonly store: Store;
  readonly writer: BatchWriter;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly progress: (event: ProgressEvent) => void;
}

/** Writes events, markets and tokens in the caller's transaction. */
export async function writeMarketRows(tx: StoreTransaction, rows: MarketRows): Promise<void> {
  if (rows.events.length) await upsertEvents(tx, rows.events);
  if (rows.markets.length) await upsertMarkets(tx, rows.markets, rows.tokens);
}
