/**
 * The incremental path, kept by the ingest process. `start` warms the ledger from the store and rewrites every
 * derived table (as `rebuild` does, so a crash between an ingest commit and our write loses nothing). Then two
 * parts keep the tables current, one after the other on one queue:
 *
 * - the batch applier (`batch-applier.ts`): each committed ingest batch (`onCommitted`), its positions and its
 *   wallets' statistics, and the day's position snapshot;
 * - the refresh scheduler (`refresh-scheduler.ts`): every `derive.refreshSeconds`, its named jobs (market facts,
 *   wallets out of order, synced wallets, wash shares, every wallet's statistics once an hour, the 30-day volumes,
 *   ranks, market_stats, daily and hourly P&L points), `derive_state.stats_generation` bumped when statistics
 *   were written.
 *
 * Time is `asOf` = min(clock, latest event applied): a resolution is never swept before the events that precede
 * it have arrived (the ingest may be backfilling months behind the clock).
 */
import { SECONDS_PER_DAY } from "../ledger/index.js";
import { metrics } from "../platform/metrics.js";
import { FIRST_SYNC_DERIVED, writeDeriveState } from "../store/derive-state.js";
import { deferredFillIndexesPresent } from "../store/fills.js";
import { settleAfterBulkWrite } from "../store/settle.js";
import { BatchApplier, RecentReads, type CommittedRows, type DeriverDeps } from "./batch-applier.js";
import { deriveFromStore, derivedTables, storedWatermarks, writeDerivedTables } from "./rebuild.js";
import { RefreshScheduler } from "./refresh-scheduler.js";
import { HOUR, LiveHours, type PriceHistory } from "./hourly-points.js";

/** Rounds of first-look wallet syncs before `ready`: the listed wallets, then those their statistics newly list. */
const FIRST_LOOK_ROUNDS = 2;

interface Started {
  readonly applier: BatchApplier;
  readonly scheduler: RefreshScheduler;
}

export class Deriver {
  private started: Started | null = null;
  private queue: Promise<void> = Promise.resolve();
  private early: CommittedRows[] | null = [];
  private readonly reads = new RecentReads();
  /** The ingest's first sync caught up: the next refresh that completes records it (FIRST_SYNC_DERIVED). */
  private firstSyncToRecord = false;
  /** Started in a first sync without the fills' wallet index: nothing is derived until the sync completes. */
  private waitingForFirstSync = false;
  /** Until the ingest's first sync is caught up, a batch may be the first of a backfill that deferred the fills' wallet index. */
  private firstSyncMayDefer = true;

  constructor(private readonly deps: DeriverDeps) {}

  /** The listener for the ingest's committed batches; resolves once the batch's rows are written. */
  readonly onCommitted = (batch: CommittedRows): Promise<void> => {
    // Waiting for a first sync's end: its batches are in the store, replayed once it completes.
    if (this.waitingForFirstSync) return Promise.resolve();
    if (this.early) {
      this.early.push(batch);
      return Promise.resolve();
    }
    return this.enqueue("batch", async () => {
      if (this.waitingForFirstSync || (await this.firstSyncDeferred())) return;
      await this.parts().applier.apply(batch);
    });
  };

  /**
   * A first sync that deferred the fills' wallet index (a backfill of many blocks) is derived once, at its end, as
   * a restart during it is: replaying the whole store once costs less than applying and rewriting the same
   * wallets' rows batch after batch (docs/decisions.md, "A deferred backfill is derived once, at its end").
   */
  private async firstSyncDeferred(): Promise<boolean> {
    if (!this.firstSyncMayDefer || (await this.deps.store.transaction(deferredFillIndexesPresent))) return false;
    this.firstSyncMayDefer = false;
    this.started?.scheduler.stop();
    this.started?.applier.stop();
    this.started = null;
    this.waitingForFirstSync = true;
    this.deps.logger.info("a first sync deferred the fills' wallet index: the ledger is derived once it completes");
    return true;
  }

  /**
   * Warms from the store, rewrites every derived table, then applies the batches handed over meanwhile and
   * starts the refresh timer. Register `onCommitted` first; start the ingest after this resolves.
   *
   * A store in the middle of a first sync that dropped the fills' wallet index (a restart during the backfill) is
   * not read now: streaming it in wallet order would sort every stored fill. The Deriver then waits for the sync's
   * end (`firstSyncCaughtUp`), whose last batch builds the index, and warms from the store then.
   */
  async start(): Promise<void> {
    if (!(await this.deps.store.transaction(deferredFillIndexesPresent))) {
      this.firstSyncMayDefer = false;
      this.waitingForFirstSync = true;
      this.early = null;
      this.deps.logger.info(
        "a first sync is under way without the fills' wallet index: the ledger is derived once it completes",
      );
      return;
    }
    await this.warm();
    await this.queue;
  }

  private async warm(): Promise<void> {
    const { store, clock } = this.deps;
    const now = clock.now();
    const before = await storedWatermarks(store);
    const derived = await deriveFromStore(store, this.deps.config, now, this.reads.rows(before, true));
    await writeDerivedTables(store, await derivedTables(store, derived, now), derived.snapshots);
    await this.settle();
    const { derivation } = derived;
    // Hourly points go on from the first boundary after as-of, with the wallets that had an event since the last one.
    const next = Math.floor(derived.asOf / HOUR) * HOUR + HOUR;
    const moved = derivation
      .liveBooks()
      .map(({ address }) => address)
      .filter((address) => derivation.lastEventTs(address) >= next - HOUR);
    const hours = new LiveHours(
      derivation.prices as PriceHistory,
      next,
      moved,
      this.deps.config.derive.hourlyPointsDays,
    );
    const applier = new BatchApplier(
      this.deps,
      derivation,
      this.reads,
      derived.day,
      (what, job) => this.enqueue(what, job),
      hours,
    );
    // The point of a day with bookings is dated at its end: today's is written once today is over.
    const today = derived.day / SECONDS_PER_DAY;
    for (const { address, book } of derived.derivation.liveBooks())
      if (book.days.get(today)) applier.pending.markDaily(address, derived.day);
    const scheduler = new RefreshScheduler(this.deps, applier, this.reads, {
      at: now,
      watermarks: before,
      asOf: derived.asOf,
    });
    this.started = { applier, scheduler };
    const early = this.early ?? [];
    this.early = null;
    for (const batch of early) void this.enqueue("batch", () => applier.apply(batch));
    scheduler.schedule(() => this.refresh());
  }

  /**
   * Runs a refresh after the work already queued; `full` recomputes every wallet's statistics (as each passing
   * hour does) and the wash shares of all wallets that traded since theirs was computed.
   */
  refresh(options: { full?: boolean } = {}): Promise<void> {
    return this.enqueue("refresh", async () => {
      // A refresh the timer queued before a first sync deferred the ledger: nothing is derived until its end.
      if (this.waitingForFirstSync) return;
      const timer = metrics.deriveRefreshDuration.startTimer();
      try {
        await this.parts().scheduler.run(options.full ?? false);
        timer({ outcome: "ok" });
      } catch (error) {
        timer({ outcome: "failed" });
        throw error;
      }
      if (this.firstSyncToRecord) {
        await writeDeriveState(this.deps.store.db, FIRST_SYNC_DERIVED, 1);
        this.firstSyncToRecord = false;
      }
    });
  }

  /**
   * The tables just written vacuumed and analyzed (src/store/settle.ts): after a first sync this runs before `ready`;
   * one that fails only costs speed.
   */
  private async settle(): Promise<void> {
    const started = performance.now();
    try {
      await settleAfterBulkWrite(this.deps.store);
      if (this.deps.store.kind === "postgres")
        this.deps.logger.info(
          { ms: Math.round(performance.now() - started) },
          "derived tables written: store vacuumed and analyzed",
        );
    } catch (error) {
      this.deps.logger.warn(
        { err: error },
        "vacuuming the store after its derivation failed; autovacuum is left to do it",
      );
    }
  }

  /**
   * The ingest's first full sync caught up (every batch of it handed over): a refresh writes the statistics the
   * backfill deferred, then records that the first sync is derived, which turns health's `ready` on. A refresh
   * that fails leaves the record to the next one.
   *
   * `firstLook` (Ingest.firstLookWallets) runs between the two: it syncs the wallets those statistics list and says
   * how many; their statistics are written by a refresh before `ready`, and a wallet they newly list (a sync moved
   * its win rate into Smart Money, say) gets a second round.
   */
  async firstSyncCaughtUp(firstLook?: () => Promise<number>): Promise<void> {
    this.firstSyncMayDefer = false;
    if (this.waitingForFirstSync) {
      this.waitingForFirstSync = false;
      void this.enqueue("warm start", () => this.warm());
    }
    if (firstLook) {
      await this.refresh();
      for (let round = 0; round < FIRST_LOOK_ROUNDS; round++) {
        const synced = await firstLook().catch((error: unknown) => {
          this.deps.logger.warn({ err: error }, "syncing the listed wallets before ready failed");
          return 0;
        });
        if (synced === 0) break;
        await this.refresh();
      }
    }
    this.firstSyncToRecord = true;
    return this.refresh();
  }

  /**
   * Resolves once everything handed over so far is written: a write a backfill deferred (its flush waiting for
   * CATCH_UP_FLUSH_MS of quiet) is run now, not left to land later behind the caller's back.
   */
  async idle(): Promise<void> {
    do await this.queue;
    while (this.started?.applier.flushDeferred());
  }

  /**
   * Stops the refresh timer and writes what is handed over, a backfill's deferred write included: a process that
   * stops gracefully leaves the tables as current as its batches (a crash leaves that to the next start, which
   * rewrites every derived table). Call it after the ingest has stopped handing batches over.
   */
  async stop(): Promise<void> {
    this.started?.scheduler.stop();
    await this.idle();
    this.started?.applier.stop();
  }

  private enqueue(what: string, job: () => Promise<void>): Promise<void> {
    metrics.deriveQueueDepth.inc();
    this.queue = this.queue
      .then(job)
      .catch((error: unknown) => {
        const step = what === "refresh" ? this.started?.scheduler.current : null;
        this.deps.logger.error(
          { err: error, job: what, ...(step ? { step } : {}) },
          "deriving the ledger's tables failed",
        );
      })
      .finally(() => {
        metrics.deriveQueueDepth.dec();
        metrics.deriveJobs.inc({ job: what });
      });
    return this.queue;
  }

  private parts(): Started {
    if (!this.started) throw new Error("the Deriver has not started");
    return this.started;
  }
}
