/**
 * The ingest: builds the pipelines from the configuration and runs them. `runUntilCaughtUp` does the first full
 * sync (markets, then fills up to the venue's head) and returns; `start` does that in the background and then
 * keeps every source current (markets on an interval, fills by polling, the live feed) until `stop`, which ends
 * each pipeline between two batches. `onCommitted` registers listeners for every committed batch's new rows;
 * `wallets` syncs a wallet on demand; `walletSchedule` takes the syncs other processes ask for and keeps the
 * listed wallets fresh; `firstLookWallets` syncs the listed wallets before the service says ready.
 */
import type { Config } from "../config/index.js";
import type { Logger } from "../platform/logger.js";
import type { Platform } from "../platform/index.js";
import type { Store } from "../store/database.js";
import { chainHoldsWholeHistory } from "../store/checkpoints.js";
import type { IndexBuildMemory } from "../store/fills.js";
import {
  ChainClient,
  chainRateLimits,
  createVenueClients,
  realSleep,
  rpcRateShares,
  type Sleep,
  type VenueClients,
  type VenueHttpEvent,
  type VenueHttpOptions,
} from "../venue/index.js";
import { BatchWriter, type CommitListener, type CommittingListener } from "./batch-writer.js";
import { ChainLogsPipeline } from "./chain-logs.js";
import { inlineChainReader, ThreadedChainReader, type ChainReader } from "./chain-reader.js";
import type { IngestContext, ProgressEvent } from "./context.js";
import { DataApiTradesPipeline } from "./data-api-trades.js";
import { parseIngestStart } from "./ingest-start.js";
import { LiveFeed } from "./live-feed.js";
import { MarketDirectory } from "./market-directory.js";
import { MarketsSync } from "./markets-sync.js";
import { FundingSync, fundingSyncOptions } from "./funding-sync.js";
import { follow, runUntilCaughtUp, Stopped, type Pipeline, type RunnerContext } from "./runner.js";
import { expectedIngestSources } from "./sources.js";
import { createWalletSyncQueue, type WalletSyncQueue } from "./wallet-sync-queue.js";
import { WalletSyncSchedule } from "./wallet-sync-schedule.js";

export interface IngestDeps {
  readonly config: Config;
  readonly store: Store;
  readonly platform: Platform;
  readonly logger: Logger;
  /** The venue's clients; built from the configuration when absent (tests pass their own). */
  readonly venue?: VenueClients;
  /**
   * Where chain logs are read: when absent, on a worker thread with its own client from the configuration
   * (INGEST_READ_THREAD) if the clients are too, else on this thread with `venue.chain`.
   */
  readonly chainReader?: (config: Config) => ChainReader;
  readonly sleep?: Sleep;
}

export type ProgressListener = (event: ProgressEvent) => void;

export class Ingest {
  readonly expectedSources: readonly string[];
  readonly wallets: WalletSyncQueue;
  /** Requested syncs (a wallet's first view, from any process) and the listed wallets kept fresh. */
  readonly walletSchedule: WalletSyncSchedule;
  private readonly writer: BatchWriter;
  private readonly markets: Pipeline;
  private readonly fills: Pipeline;
  /** Where the wallets' collateral came from: on the chain only, with FUNDING on. */
  private readonly funding: Pipeline | null = null;
  private readonly live: LiveFeed;
  private readonly chainReader: ChainReader | null = null;
  private readonly runner: RunnerContext;
  private readonly progressListeners = new Set<ProgressListener>();
  private readonly caughtUpListeners = new Set<() => unknown>();
  private readonly controller = new AbortController();
  private background: Promise<void> | null = null;
  private walletSyncs: Promise<void> | null = null;

  constructor(private readonly deps: IngestDeps) {
    const { config, store, platform, logger } = deps;
    const clock = platform.clock;
    const sleep = deps.sleep ?? realSleep;
    const venue = deps.venue ?? defaultVenueClients(config, logger);
    this.writer = new BatchWriter(store, clock, logger);
    const ctx: IngestContext = {
      store,
      writer: this.writer,
      clock,
      logger,
      progress: (event) => this.progressListeners.forEach((l) => l(event)),
    };
    const start = parseIngestStart(config.ingest.startDate);
    this.expectedSources = expectedIngestSources(config);
    this.markets = new MarketsSync(ctx, venue.gamma);
    if (venue.chain) {
      const directory = new MarketDirectory(store, venue.gamma, clock);
      this.chainReader =
        deps.chainReader?.(config) ??
        (!deps.venue && config.ingest.readThread
          ? new ThreadedChainReader(config, logVenueEvent(logger))
          : inlineChainReader(venue.chain));
      const { confirmations, blockSpan, batchRecords, deferIndexesBlocks, unlistedRecheckSeconds, unlistedKeepDays } =
        config.ingest;
      this.fills = new ChainLogsPipeline(ctx, venue.chain, this.chainReader, directory, {
        start,
        confirmations,
        blockSpan,
        batchRecords,
        deferIndexesBlocks,
        indexBuildMemory: indexBuildMemory(config),
        unlisted: { recheckSeconds: unlistedRecheckSeconds, keepDays: unlistedKeepDays },
      });
      if (config.funding.enabled)
        this.funding = new FundingSync(ctx, venue.chain, fundingSyncOptions(config), config.funding.extraHubs);
    } else {
      if (start?.kind === "block")
        logger.warn("INGEST_START is a block number but no VENUE_RPC_URL is set: the Data API backfill starts now");
      // Without a start date it follows from now, as the chain pipeline follows from the head without a start block.
      const startTs = start?.kind === "date" ? start.ts : clock.now();
      this.fills = new DataApiTradesPipeline(ctx, venue.dataApi, {
        startTs,
        overlapSeconds: config.ingest.tradesOverlapSeconds,
      });
    }
    this.live = new LiveFeed(ctx, venue.rtds, venue.dataApi, platform.pubsub, {
      pollMs: config.ingest.livePollSeconds * 1000,
      sleep,
    });
    this.wallets = createWalletSyncQueue({
      config,
      store,
      clock,
      logger,
      writer: this.writer,
      dataApi: venue.dataApi,
      pnl: venue.pnl,
      chainFills: !!venue.chain,
    });
    const { walletSyncConcurrency, walletRequestPollSeconds, walletRefreshSeconds, walletRefreshTop } = config.ingest;
    this.walletSchedule = new WalletSyncSchedule(this.wallets, store, clock, logger, {
      concurrency: walletSyncConcurrency,
      pollSeconds: walletRequestPollSeconds,
      refreshSeconds: walletRefreshSeconds,
      refreshTop: walletRefreshTop,
    });
    this.runner = { store, clock, logger, sleep, retryBaseMs: 1_000, retryMaxMs: config.ingest.retryMaxSeconds * 1000 };
  }

  /** Registers a listener for the new rows of every committed batch; returns the function that removes it. */
  onCommitted(listener: CommitListener): () => void {
    return this.writer.onCommitted(listener);
  }

  /**
   * Registers a listener that sees every batch's new fills inside the batch's transaction (what it writes commits
   * with them, and a throw rolls the batch back to be retried); returns the function that removes it.
   */
  onCommitting(listener: CommittingListener): () => void {
    return this.writer.onCommitting(listener);
  }

  /** Registers a listener called once `start`'s first full sync has caught up (every batch of it committed). */
  onCaughtUp(listener: () => unknown): () => void {
    this.caughtUpListeners.add(listener);
    return () => this.caughtUpListeners.delete(listener);
  }

  onProgress(listener: ProgressListener): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  /**
   * The first full sync: markets, then fills up to the venue's head (less the confirmation depth). Resolves when
   * caught up; rejects with Stopped when `stop` (or `signal`) ends it first. Safe to call again: it resumes.
   */
  async runUntilCaughtUp(signal?: AbortSignal): Promise<void> {
    const combined = signal ? AbortSignal.any([signal, this.controller.signal]) : this.controller.signal;
    await runUntilCaughtUp(this.markets, this.runner, combined);
    await runUntilCaughtUp(this.fills, this.runner, combined);
  }

  /**
   * Reads the funding of every wallet seen so far (and their funders') until none is left; resolves at once without
   * a chain. `start` keeps it following after the first sync; tests and benches call it to finish a read.
   */
  async traceFunding(signal?: AbortSignal): Promise<void> {
    if (!this.funding) return;
    const combined = signal ? AbortSignal.any([signal, this.controller.signal]) : this.controller.signal;
    await runUntilCaughtUp(this.funding, this.runner, combined);
  }

  /**
   * Before `ready`: when the chain history may be shorter than some wallets' (no VENUE_HISTORY_START at or after
   * its start), their wins and losses need the venue's closed positions, so the wallets people look at first (the
   * listed ones: Smart Money and the leaderboards' first pages) are synced now, at most INGEST_READY_WALLETS.
   * Returns how many were synced (0: none needed). The Deriver calls it after the first sync's statistics are
   * written (they say which wallets are listed) and again after the syncs' statistics, for wallets newly listed.
   */
  async firstLookWallets(): Promise<number> {
    const { store, config, logger } = this.deps;
    if (await chainHoldsWholeHistory(store.db, config.derive.venueHistoryStart)) return 0;
    const synced = await this.walletSchedule.firstLook(config.ingest.readyWallets);
    if (synced > 0) logger.info({ wallets: synced }, "listed wallets synced before ready");
    return synced;
  }

  /** Runs in the background: the live feed and the wallet syncs at once, the first full sync, then following every source. */
  start(): void {
    if (this.background) return;
    const signal = this.controller.signal;
    this.live.start();
    this.walletSyncs = this.walletSchedule.run(signal);
    this.background = (async () => {
      try {
        await this.runUntilCaughtUp();
        this.deps.logger.info("ingest caught up; following the venue");
        for (const listener of this.caughtUpListeners)
          void Promise.resolve(listener()).catch((error: unknown) =>
            this.deps.logger.error({ err: error }, "a caught-up listener failed"),
          );
        const config = this.deps.config.ingest;
        await Promise.all([
          follow(this.markets, this.runner, config.marketsIntervalSeconds * 1000, signal),
          follow(this.fills, this.runner, config.pollSeconds * 1000, signal),
          ...(this.funding
            ? [follow(this.funding, this.runner, this.deps.config.funding.pollSeconds * 1000, signal)]
            : []),
        ]);
      } catch (error) {
        if (!(error instanceof Stopped))
          this.deps.logger.error({ err: error }, "ingest stopped on an unexpected error");
      }
    })();
  }

  /** Stops between batches: requests under way are aborted before anything of theirs is written. */
  async stop(): Promise<void> {
    this.controller.abort();
    this.wallets.close();
    await Promise.all([this.background, this.walletSyncs, this.live.stop()]);
    await this.chainReader?.close();
  }
}

/** The memory of the index build that ends a first chain sync, from the configuration. */
export function indexBuildMemory(config: Config): IndexBuildMemory {
  return { postgresMb: config.ingest.indexBuildMemoryMb, sqliteCacheMb: config.ingest.sqliteIndexBuildCacheMb };
}

/** How the venue clients' retries and give-ups are logged, on this thread's clients and the reader thread's alike. */
function logVenueEvent(logger: Logger): (event: VenueHttpEvent) => void {
  return (event) => {
    if (event.type === "version") logger.warn({ venue: event }, "venue API answered as gone: reading its next version");
    else logger.debug({ venue: event }, event.type === "retry" ? "venue request retried" : "venue unavailable");
  };
}

function defaultVenueClients(config: Config, logger: Logger): VenueClients {
  const http: Partial<VenueHttpOptions> = { onEvent: logVenueEvent(logger) };
  // With the reader thread, eth_getLogs has a client of its own there, paced at its share of the rate.
  const rateLimits = config.ingest.readThread
    ? chainRateLimits(rpcRateShares(config.venue.rpcRequestsPerSecond).other)
    : undefined;
  return {
    ...createVenueClients(config, http),
    chain: ChainClient.fromConfig(
      config,
      { ...http, ...(rateLimits && { rateLimits }) },
      { maxBlockSpan: config.ingest.blockSpan },
    ),
  };
}
