/**
 * A wallet's first view asks for its sync: the wallet is answered from what is stored meanwhile, and the ingest
 * process (which alone runs the sync queue, whatever process served the view) takes the request from the shared
 * store (`wallet_sync_requests`, docs/decisions.md "Venue figures (issue 23)"). Each process gathers the wallets in
 * memory and writes them every few seconds; a wallet it asked for within INGEST_WALLET_SYNC_FRESH_SECONDS is not
 * asked for again (the sync would find it fresh).
 */
import type { BackgroundWork } from "../../platform/background-work.js";
import type { Clock } from "../../platform/clock.js";
import type { Store } from "../../store/database.js";
import { requestWalletSyncs } from "../../store/wallet-sync-requests.js";

const FLUSH_MS = 2_000;
/** Wallets a process remembers having asked for (then it forgets them all: asking twice adds nothing). */
const REMEMBERED = 100_000;

export class SyncRequester {
  private pending = new Set<string>();
  private readonly askedAt = new Map<string, number>();
  private readonly stopFlushing: () => void;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly freshSeconds: number,
    background: BackgroundWork,
  ) {
    this.stopFlushing = background.every("wallet sync requests", FLUSH_MS, () => this.flush());
  }

  /** Asks for the sync of a wallet the store knows (never an address a client merely typed). */
  request(wallet: string): void {
    const now = this.clock.now();
    const asked = this.askedAt.get(wallet);
    if (asked !== undefined && now - asked < this.freshSeconds) return;
    if (this.askedAt.size >= REMEMBERED) this.askedAt.clear();
    this.askedAt.set(wallet, now);
    this.pending.add(wallet);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const wallets = [...this.pending];
    this.pending = new Set();
    try {
      await requestWalletSyncs(this.store.db, wallets, this.clock.now());
    } catch (error) {
      for (const wallet of wallets) this.askedAt.delete(wallet);
      throw error;
    }
  }

  async close(): Promise<void> {
    this.stopFlushing();
    if (requesters.get(this.store) === this) requesters.delete(this.store);
    await this.flush();
  }
}

const requesters = new WeakMap<Store, SyncRequester>();

/** The one requester of a store in this process; its timed writes run as the background work of the app that made it. */
export function syncRequesterOf(
  store: Store,
  clock: Clock,
  freshSeconds: number,
  background: BackgroundWork,
): SyncRequester {
  let requester = requesters.get(store);
  if (!requester) requesters.set(store, (requester = new SyncRequester(store, clock, freshSeconds, background)));
  return requester;
}

/** Writes what this process's requester of `store` still holds and stops it (nothing when it never asked). */
export async function closeSyncRequests(store: Store): Promise<void> {
  await requesters.get(store)?.close();
}
