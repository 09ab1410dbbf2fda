/**
 * The queue in front of WalletSync: a few wallets at a time (the venue's limits are shared with every other
 * pipeline), one sync per wallet at once (callers asking for a wallet already queued share its result), and a
 * freshness window within which a wallet is answered from the cache without asking the venue again.
 */
import type { Config } from "../config/index.js";
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import { DataApiClient, PnlClient } from "../venue/index.js";
import { BatchWriter } from "./batch-writer.js";
import { recordSourceError } from "../store/checkpoints.js";
import type { Store } from "../store/database.js";
import { readWalletSync, saveWalletSync, type WalletSyncRow } from "../store/wallet-cache.js";
import { SOURCES } from "./sources.js";
import { WalletSync } from "./wallet-sync.js";

export interface WalletSyncQueueOptions {
  readonly concurrency: number;
  /** A wallet synced this recently is not synced again unless forced. */
  readonly freshSeconds: number;
}

interface Job {
  readonly wallet: string;
  readonly promise: Promise<WalletSyncRow>;
  start(): void;
}

export class WalletSyncQueue {
  private readonly jobs = new Map<string, Job>();
  private readonly waiting: Job[] = [];
  private running = 0;
  private readonly controller = new AbortController();

  constructor(
    private readonly sync: WalletSync,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: WalletSyncQueueOptions,
  ) {}

  /** The wallet's sync row, syncing it first unless it is fresh (or `force`). Rejects when the sync fails. */
  async request(address: string, options: { force?: boolean } = {}): Promise<WalletSyncRow> {
    const wallet = address.toLowerCase();
    const pending = this.jobs.get(wallet);
    if (pending) return pending.promise;
    if (!options.force) {
      const stored = await readWalletSync(this.store.db, wallet);
      if (
        stored?.status === "ok" &&
        stored.synced_at !== null &&
        this.clock.now() - stored.synced_at < this.options.freshSeconds
      )
        return stored;
    }
    // Another caller may have queued it while the cache was read.
    return (this.jobs.get(wallet) ?? this.schedule(wallet)).promise;
  }

  /** Queues a sync without waiting for it (failures are logged and counted). */
  enqueue(address: string, options: { force?: boolean } = {}): void {
    this.request(address, options).catch(() => undefined);
  }

  /** Wallets queued or syncing. */
  get size(): number {
    return this.jobs.size;
  }

  /** Stops starting syncs and aborts those under way. */
  close(): void {
    this.controller.abort();
    for (const job of this.waiting.splice(0)) job.start();
  }

  private schedule(wallet: string): Job {
    let release!: () => void;
    const started = new Promise<void>((resolve) => (release = resolve));
    const promise = started.then(() => this.run(wallet));
    const job: Job = {
      wallet,
      promise,
      start: () => {
        this.running += 1;
        release();
      },
    };
    this.jobs.set(wallet, job);
    void promise
      .catch(() => undefined)
      .finally(() => {
        this.jobs.delete(wallet);
        this.running -= 1;
        this.waiting.shift()?.start();
      });
    if (this.running < this.options.concurrency) job.start();
    else this.waiting.push(job);
    return job;
  }

  private async run(wallet: string): Promise<WalletSyncRow> {
    const signal = this.controller.signal;
    if (signal.aborted) throw new Error("wallet sync stopped");
    try {
      return await this.sync.sync(wallet, signal);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!signal.aborted) {
        this.logger.warn({ wallet, err: message }, "wallet sync failed");
        const now = this.clock.now();
        const stored = await readWalletSync(this.store.db, wallet).catch(() => undefined);
        await saveWalletSync(this.store.db, {
          ...(stored ?? emptySync(wallet, now)),
          status: "error",
          last_error: message,
          updated_at: now,
        }).catch(() => undefined);
        await recordSourceError(this.store.db, SOURCES.wallets, `${wallet}: ${message}`, now).catch(() => undefined);
      }
      throw error;
    }
  }
}

function emptySync(wallet: string, now: number): WalletSyncRow {
  return {
    wallet,
    synced_at: null,
    status: "error",
    positions_count: 0,
    positions_truncated: 0,
    closed_positions_count: 0,
    closed_positions_truncated: 0,
    activity_count: 0,
    activity_truncated: 0,
    activity_cursor: null,
    lifetime_pnl: null,
    venue_history_from: null,
    last_error: null,
    updated_at: now,
  };
}

/**
 * A wallet sync queue for a process that runs no ingest (an API process in the scaled mode): its own clients of
 * the Data API and the P&L curve, writing to the shared store. With an Ingest, use its `wallets`.
 */
export function createWalletSyncQueue(deps: {
  config: Config;
  store: Store;
  clock: Clock;
  logger: Logger;
  /** The Ingest's writer, so that its listeners see wallet syncs too; a writer of its own when absent. */
  writer?: BatchWriter;
  dataApi?: DataApiClient;
  pnl?: PnlClient;
  /** Whether fills come from chain logs; default: whether VENUE_RPC_URL is set. */
  chainFills?: boolean;
}): WalletSyncQueue {
  const { config, store, clock, logger } = deps;
  const writer = deps.writer ?? new BatchWriter(store, clock, logger);
  const sync = new WalletSync(
    { store, writer, clock, logger, progress: () => undefined },
    deps.dataApi ?? DataApiClient.fromConfig(config),
    deps.pnl ?? PnlClient.fromConfig(config),
    {
      storeTradesAndChainActivity: !(deps.chainFills ?? !!config.venue.rpcUrl),
      maxClosedPositions: config.ingest.walletMaxClosedPositions,
    },
  );
  return new WalletSyncQueue(sync, store, clock, logger, {
    concurrency: config.ingest.walletSyncConcurrency,
    freshSeconds: config.ingest.walletSyncFreshSeconds,
  });
}
