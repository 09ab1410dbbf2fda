/**
 * What keeps the venue's per-wallet caches current in the ingest process, through the one WalletSyncQueue (whose
 * clients are paced under the venue's published request limits):
 *
 * - requested syncs: every INGEST_WALLET_REQUEST_POLL_SECONDS, the oldest rows of `wallet_sync_requests` (a
 *   wallet's first view in any API process wrote them) are synced, as many as the queue runs at once, each row
 *   deleted once its sync has run (or failed: the failure is counted on the `wallet-sync` source);
 * - the listed wallets: Smart Money (every whale list reads it) and the best INGEST_WALLET_REFRESH_TOP by lifetime
 *   P&L (the leaderboards' first pages), synced again once their last sync is INGEST_WALLET_REFRESH_SECONDS old,
 *   one at a time and only while the queue has a free slot, so a requested sync never waits behind them.
 */
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import { queryRows } from "../store/raw-sql.js";
import { deleteWalletSyncRequests, oldestWalletSyncRequests } from "../store/wallet-sync-requests.js";
import { realSleep } from "../venue/index.js";
import type { WalletSyncQueue } from "./wallet-sync-queue.js";

export interface WalletSyncScheduleOptions {
  readonly concurrency: number;
  readonly pollSeconds: number;
  readonly refreshSeconds: number;
  readonly refreshTop: number;
}

export class WalletSyncSchedule {
  /** Requested wallets whose sync is under way (their rows stay until it ends). */
  private readonly underway = new Set<string>();
  private background: Promise<unknown> | null = null;

  constructor(
    private readonly queue: WalletSyncQueue,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: WalletSyncScheduleOptions,
  ) {}

  /** Runs both loops until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.takeRequests();
        await this.refreshOne();
      } catch (error) {
        this.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          "wallet sync schedule: a round failed",
        );
      }
      await realSleep(this.options.pollSeconds * 1000, signal).catch(() => undefined);
    }
  }

  /** Starts the syncs of the oldest requests the queue has room for; each request's row goes once its sync ends. */
  async takeRequests(): Promise<string[]> {
    const room = this.options.concurrency * 2 - this.underway.size;
    if (room <= 0) return [];
    const wallets = await oldestWalletSyncRequests(this.store.db, room, this.underway);
    for (const wallet of wallets) {
      this.underway.add(wallet);
      void this.queue
        .request(wallet)
        .catch(() => undefined)
        .then(() => deleteWalletSyncRequests(this.store.db, [wallet]))
        .catch((error: unknown) =>
          this.logger.warn({ wallet, err: String(error) }, "wallet sync request: could not delete"),
        )
        .finally(() => this.underway.delete(wallet));
    }
    return wallets;
  }

  /** Starts the sync of the stalest listed wallet, unless one is under way or the queue is busy; returns it. */
  async refreshOne(): Promise<string | null> {
    if (this.background || this.queue.size >= this.options.concurrency) return null;
    const wallet = await this.stalestListed();
    if (wallet === null || this.background) return null;
    this.background = this.queue
      .request(wallet)
      .catch(() => null)
      .finally(() => (this.background = null));
    return wallet;
  }

  /** Resolves once the background sync under way (if any) has ended. */
  async idle(): Promise<void> {
    await this.background;
  }

  /** The listed wallet whose last sync (or failed attempt) is oldest and older than INGEST_WALLET_REFRESH_SECONDS. */
  async stalestListed(): Promise<string | null> {
    const before = this.clock.now() - this.options.refreshSeconds;
    const [row] = await queryRows<{ wallet: string }>(
      this.store.db,
      this.store.kind,
      `select s.wallet from wallet_stats s left join wallet_sync y on y.wallet = s.wallet
        where (s.is_smart = 1 or s.rank_pnl <= ?) and (y.wallet is null or y.updated_at < ?)
        order by coalesce(y.updated_at, 0), s.wallet limit 1`,
      [this.options.refreshTop, before],
    );
    return row?.wallet ?? null;
  }
}
