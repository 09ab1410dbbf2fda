/**
 * What keeps the venue's per-wallet caches current in the ingest process, through the one WalletSyncQueue (whose
 * clients are paced under the venue's published request limits):
 *
 * - requested syncs: every INGEST_WALLET_REQUEST_POLL_SECONDS, the oldest rows of `wallet_sync_requests` (a
 *   wallet's first view in any API process wrote them) are synced, as many as the queue runs at once, each row
 *   deleted once its sync has run (or failed: the failure is counted on the `wallet-sync` source);
 * - the listed wallets: Smart Money (every whale list reads it) and the best INGEST_WALLET_REFRESH_TOP by lifetime
 *   P&L (the leaderboards' first pages), synced again once their last sync is INGEST_WALLET_REFRESH_SECONDS old,
 *   one at a time and only while the queue has a free slot, so a requested sync never waits behind them;
 * - before `ready`, when the chain history may be shorter than some wallets' (`firstLook`): the wallets people
 *   look at first that were never synced, so that they answer the venue's own counters from the first request.
 */
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import { inSlices, placeholders, queryRows } from "../store/raw-sql.js";
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

  /**
   * Syncs, and waits for, the wallets people look at first that were never synced: the heads of Smart Money, of the
   * best by lifetime P&L, of the largest by volume and of the busiest by trades (the whale lists and the
   * leaderboards' first pages), a quarter of `limit` each. A failed sync is logged and counted by the queue and
   * stops none of the others. Called again after the statistics moved, it syncs only the wallets that moved into a
   * head. Returns how many it tried.
   */
  async firstLook(limit: number): Promise<number> {
    const share = Math.ceil(limit / FIRST_LOOK_LISTS.length);
    const heads = await Promise.all(FIRST_LOOK_LISTS.map((list) => this.walletsOf(`${list} limit ?`, [share])));
    const candidates = [...new Set(heads.flat())];
    const synced = new Set(
      await inSlices(candidates, (slice) =>
        this.walletsOf(`select wallet from wallet_sync where wallet in ${placeholders(slice.length)}`, slice),
      ),
    );
    const chosen = candidates.filter((wallet) => !synced.has(wallet));
    await Promise.all(chosen.map((wallet) => this.queue.request(wallet).catch(() => null)));
    return chosen.length;
  }

  private async walletsOf(text: string, params: readonly unknown[]): Promise<string[]> {
    const rows = await queryRows<{ wallet: string }>(this.store.db, this.store.kind, text, [...params]);
    return rows.map((r) => r.wallet);
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

/** The lists a first look opens: Smart Money, the P&L, volume and trades boards (each best first). */
const FIRST_LOOK_LISTS = [
  "select wallet from wallet_stats where is_smart = 1 order by total_pnl desc, wallet",
  "select wallet from wallet_stats order by total_pnl desc, wallet",
  "select wallet from wallet_stats order by total_volume desc, wallet",
  "select wallet from wallet_stats order by total_trades desc, wallet",
] as const;
