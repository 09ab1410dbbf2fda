/**
 * The live relay, run once, by the process that runs the venue's live feed (role all or ingest), so that every
 * subscriber of every API process gets the same label and each trade once:
 * - the raw relay: each trade the live feed publishes on `trades` is held LIVE_SETTLEMENT_HOLD_MS, grouped with
 *   the rest of its transaction, labelled (settlement-type.ts) and published on `live:trades`, a message per
 *   transaction holding the event JSON the streams send for each of its fills;
 * - the indexed stream: once ingest has caught up (live only: no backfill), each committed chain batch's classified
 *   fills, with their market metadata, on `live:trades-indexed`.
 * API processes fan both channels out to their subscribers (hub.ts).
 */
import type { CommittedBatch } from "../ingest/batch-writer.js";
import { LIVE_TRADES_CHANNEL, parseLiveTradeMessage, type LiveTradeMessage } from "../ingest/live-message.js";
import { SOURCES } from "../ingest/sources.js";
import type { Logger } from "../platform/logger.js";
import type { PubSub } from "../platform/pubsub.js";
import type { Store } from "../store/database.js";
import type { NewFill } from "../store/fills.js";
import { marketFactsOf } from "./market-facts.js";
import type { Scheduler } from "./scheduler.js";
import { SettlementHold } from "./settlement-hold.js";
import { settlementTypeOf } from "./settlement-type.js";
import { indexedTradeEvent, relayTradeEvent } from "./trade-events.js";

/**
 * A message holds the `data` (JSON) of one or more `trade` events, one per line: a transaction's fills on the raw
 * relay's channel, a committed batch's classified fills on the indexed one. A subscriber then gets them in one
 * write.
 */
export const LIVE_CHANNELS = {
  trades: "live:trades",
  indexed: "live:trades-indexed",
} as const;

/** A large batch (a catch-up after a pause) goes out in messages of this many events: one write stays small. */
const INDEXED_EVENTS_PER_MESSAGE = 100;

export interface LiveRelayDeps {
  readonly pubsub: PubSub;
  readonly store: Store;
  readonly logger: Logger;
  readonly scheduler: Scheduler;
  readonly holdMs: number;
}

export class LiveRelay {
  private readonly hold: SettlementHold<LiveTradeMessage>;
  private unsubscribe: (() => Promise<void>) | null = null;
  private indexing = false;
  /** The indexed stream's batches, published one after another in commit order. */
  private indexed: Promise<void> = Promise.resolve();

  constructor(private readonly deps: LiveRelayDeps) {
    this.hold = new SettlementHold(deps.scheduler, deps.holdMs, (rows) => this.releaseTransaction(rows));
  }

  /** Subscribes to the live feed's trades. */
  async start(): Promise<void> {
    if (this.unsubscribe) return;
    this.unsubscribe = await this.deps.pubsub.subscribe(LIVE_TRADES_CHANNEL, (text) => {
      const trade = parseLiveTradeMessage(text);
      if (trade) this.hold.add(trade);
    });
  }

  /** From now on, committed chain batches are published on the indexed stream (call once ingest has caught up). */
  indexFromNow(): void {
    this.indexing = true;
  }

  /** A committed batch (a BatchWriter listener): returns at once, publishing in the background, in order. */
  onCommitted(batch: CommittedBatch): void {
    if (!this.indexing || batch.source !== SOURCES.chain) return;
    const fills = batch.fills.filter((fill) => fill.entry_type !== null && fill.entry_type !== undefined);
    if (fills.length === 0) return;
    this.indexed = this.indexed
      .then(() => this.publishIndexed(fills))
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, "publishing indexed live trades failed"));
  }

  async stop(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = null;
    await unsubscribe?.().catch(() => undefined);
    this.hold.flush();
    await this.indexed;
  }

  private releaseTransaction(rows: readonly LiveTradeMessage[]): void {
    const type = settlementTypeOf(rows);
    this.publish(
      LIVE_CHANNELS.trades,
      rows.map((row) => JSON.stringify(relayTradeEvent(row, type, this.deps.holdMs))).join("\n"),
    );
  }

  private async publishIndexed(fills: readonly NewFill[]): Promise<void> {
    const { markets, outcomes } = await marketFactsOf(
      this.deps.store.db,
      fills.map((f) => f.condition_id),
      fills.map((f) => f.token_id),
    );
    const events = fills.flatMap(
      (fill) => indexedTradeEvent(fill, markets.get(fill.condition_id), outcomes.get(fill.token_id)) ?? [],
    );
    for (let i = 0; i < events.length; i += INDEXED_EVENTS_PER_MESSAGE) {
      this.publish(
        LIVE_CHANNELS.indexed,
        events
          .slice(i, i + INDEXED_EVENTS_PER_MESSAGE)
          .map((event) => JSON.stringify(event))
          .join("\n"),
      );
    }
  }

  private publish(channel: string, message: string): void {
    this.deps.pubsub
      .publish(channel, message)
      .catch((error: unknown) => this.deps.logger.warn({ err: error, channel }, "publishing a live trade failed"));
  }
}

/** What the relay listens to: the ingest (`Ingest.onCommitted`, `Ingest.onCaughtUp`). */
export interface RelaySource {
  onCommitted(listener: (batch: CommittedBatch) => void): () => void;
  onCaughtUp(listener: () => unknown): () => void;
}

/**
 * The relay of the process that runs the ingest (and so the live feed), listening to its committed batches and
 * indexing from the moment it has caught up. Start it with the ingest, stop it after.
 */
export function attachLiveRelay(source: RelaySource, deps: LiveRelayDeps): LiveRelay {
  const relay = new LiveRelay(deps);
  source.onCommitted((batch) => relay.onCommitted(batch));
  source.onCaughtUp(() => relay.indexFromNow());
  return relay;
}
