/**
 * The one way ingest writes: a batch's fills, activity, resolutions, wallet sightings, pipeline-specific rows and
 * the source's checkpoint in one transaction, so a crash leaves all or nothing and a replay inserts nothing twice.
 * It is also the one guard that keeps the venue's contracts (the four exchanges, the NegRisk adapter) out of the
 * wallets and the fills, and the one place that logs and counts the malformed records a batch skipped. After the
 * commit it hands the rows that were new to the registered listeners (the ledger keeps positions with them).
 */
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import { metrics } from "../platform/metrics.js";
import { recordSourceError, saveCheckpoint } from "../store/checkpoints.js";
import type { Store, StoreTransaction } from "../store/database.js";
import { insertActivity, insertFills, type NewActivity, type NewFill } from "../store/fills.js";
import { recordResolutions, type NewResolution } from "../store/markets.js";
import {
  recordFirstSightings,
  recordWalletSightings,
  type FirstSighting,
  type WalletSighting,
} from "../store/wallets.js";
import { isProtocolAddress, type SkippedRecord } from "../venue/index.js";

/** A record the venue sent that ingest could not use (defined beside the venue's shapes, src/venue/shapes/shape.ts). */
export type { SkippedRecord };

export interface Batch {
  /** The checkpoint name (`ingest_checkpoints.source`). */
  readonly source: string;
  readonly cursor: string;
  /** Set once the source's first full sync is complete. */
  readonly firstSyncDone?: boolean;
  readonly fills?: readonly NewFill[];
  /**
   * A first sync with deferred indexes (ChainLogsPipeline): only the fills' wallets not recorded yet are written, as
   * they are first seen; the batch that ends the first sync merges every fill's first and last time in.
   */
  readonly fillWalletsLater?: boolean;
  readonly activity?: readonly NewActivity[];
  readonly resolutions?: readonly NewResolution[];
  /** Wallets with profile fields (fills and activity add their own wallets). */
  readonly sightings?: readonly WalletSighting[];
  readonly skipped?: readonly SkippedRecord[];
  /** The pipeline's own rows (markets, the wallet cache), written in the same transaction. */
  readonly write?: (tx: StoreTransaction) => Promise<void>;
}

export interface CommittedBatch {
  readonly source: string;
  readonly cursor: string;
  /** Only rows that were not stored before: a replayed batch hands over nothing. */
  readonly fills: readonly NewFill[];
  readonly activity: readonly NewActivity[];
  readonly resolutions: readonly NewResolution[];
}

export type CommitListener = (batch: CommittedBatch) => void | Promise<void>;

/** Sees a batch's new fills inside its transaction (the alerts' matcher stores its deliveries with them). */
export type CommittingListener = (tx: StoreTransaction, fills: readonly NewFill[]) => Promise<void>;

/** Skipped records logged one by one, at most this many per batch (all are counted). */
const LOGGED_SKIPS_PER_BATCH = 20;
/** Wallets a deferring first sync remembers as recorded (then it forgets them all: a repeat insert does nothing). */
const RECORDED_WALLETS_KEPT = 500_000;

export class BatchWriter {
  private readonly listeners = new Set<CommitListener>();
  private readonly committing = new Set<CommittingListener>();
  /** Wallets this process recorded during a first sync that defers them (their rows exist). */
  private readonly recorded = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Registers a listener for committed batches; returns the function that removes it. */
  onCommitted(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Registers a listener called inside each batch's transaction with its new fills; returns the function that removes it. */
  onCommitting(listener: CommittingListener): () => void {
    this.committing.add(listener);
    return () => this.committing.delete(listener);
  }

  async commit(batch: Batch): Promise<CommittedBatch> {
    const now = this.clock.now();
    const fills = (batch.fills ?? []).filter((f) => !isProtocolAddress(f.wallet)).map(withoutProtocolCounterparty);
    // Merges and splits of an exchange or the adapter are trade mechanics, not a wallet's own action.
    const activity = (batch.activity ?? []).filter((a) => !isProtocolAddress(a.wallet));
    const skipped = batch.skipped ?? [];
    for (const s of skipped.slice(0, LOGGED_SKIPS_PER_BATCH))
      this.logger.warn(
        { source: batch.source, origin: s.origin, reason: s.reason },
        "skipped a malformed venue record",
      );
    if (skipped.length > LOGGED_SKIPS_PER_BATCH)
      this.logger.warn(
        { source: batch.source, more: skipped.length - LOGGED_SKIPS_PER_BATCH },
        "skipped more malformed venue records",
      );

    let firstSeen: FirstSighting[] = [];
    const committed = await this.store.transaction(async (tx) => {
      const newFills = await insertFills(tx, fills);
      if (newFills.length > 0) for (const listener of this.committing) await listener(tx, newFills);
      if (batch.fillWalletsLater) firstSeen = this.firstSightings(newFills);
      const newActivity = await insertActivity(tx, activity);
      const newResolutions = batch.resolutions?.length ? await recordResolutions(tx, batch.resolutions) : [];
      const sightings: WalletSighting[] = (batch.sightings ?? []).filter((s) => !isProtocolAddress(s.address));
      if (batch.fillWalletsLater) await recordFirstSightings(tx, firstSeen, now);
      else for (const f of newFills) sightings.push({ address: f.wallet, ts: f.ts });
      for (const a of newActivity) sightings.push({ address: a.wallet, ts: a.ts });
      await recordWalletSightings(tx, sightings, now);
      await batch.write?.(tx);
      const last = skipped.at(-1);
      if (last) await recordSourceError(tx.db, batch.source, `${last.origin}: ${last.reason}`, now, skipped.length);
      await saveCheckpoint(tx.db, batch.source, batch.cursor, now, batch.firstSyncDone);
      return {
        source: batch.source,
        cursor: batch.cursor,
        fills: newFills,
        activity: newActivity,
        resolutions: newResolutions,
      };
    });
    if (this.recorded.size + firstSeen.length > RECORDED_WALLETS_KEPT) this.recorded.clear();
    for (const s of firstSeen) this.recorded.add(s.address);
    metrics.ingestCommitted(
      batch.source,
      { fills: committed.fills.length, activity: committed.activity.length, resolutions: committed.resolutions.length },
      newestEventTs(committed),
      this.clock.now(),
    );
    for (const listener of this.listeners) {
      try {
        await listener(committed);
      } catch (error) {
        this.logger.error({ err: error, source: batch.source }, "a committed-batch listener failed");
      }
    }
    return committed;
  }

  /** The fills' wallets this process has not recorded yet (fills in chain order: each wallet's first is its earliest). */
  private firstSightings(fills: readonly NewFill[]): FirstSighting[] {
    const out: FirstSighting[] = [];
    const seen = new Set<string>();
    for (const f of fills) {
      const wallet = f.wallet;
      if (this.recorded.has(wallet) || seen.has(wallet)) continue;
      seen.add(wallet);
      out.push({ address: wallet, ts: f.ts });
    }
    return out;
  }
}

/** The time of the batch's newest new fill or activity; null when it stored none. */
function newestEventTs(batch: CommittedBatch): number | null {
  let newest: number | null = null;
  for (const row of [...batch.fills, ...batch.activity]) if (newest === null || row.ts > newest) newest = row.ts;
  return newest;
}

function withoutProtocolCounterparty(fill: NewFill): NewFill {
  return fill.counterparty && isProtocolAddress(fill.counterparty) ? { ...fill, counterparty: null } : fill;
}
