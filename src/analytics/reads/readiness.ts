/**
 * Whether the store holds the data of a finished first sync: every expected ingest source finished its first full
 * sync and the ledger wrote the statistics of it (`derive_state.first_sync_derived`). An API process keeps what
 * it computed (answer caches, the leaderboard table, the market index) only once it has seen that: an answer
 * computed from a store still filling would otherwise be served for a whole cache window after the data is there.
 * Readiness only ever turns on; a process learns it from its own health check or by looking every second.
 */
import type { BackgroundWork } from "../../platform/background-work.js";
import { CHAIN_LOGS_SOURCE, listCheckpoints, WALLET_SYNC_SOURCE, type Checkpoint } from "../../store/checkpoints.js";
import type { Store } from "../../store/database.js";
import { FIRST_SYNC_DERIVED, readDeriveState } from "../../store/derive-state.js";
import { countHeldRecords } from "../../store/unlisted-records.js";
import { countWalletSyncRequests } from "../../store/wallet-sync-requests.js";

const CHECK_INTERVAL_MS = 1_000;

export interface StoreReadiness {
  readonly ready: boolean;
  readonly checkpoints: readonly Checkpoint[];
}

/** Reads readiness from the store. With no expected source (no ingest anywhere), the store is taken as it is. */
export async function readReadiness(store: Store, expectedSources: readonly string[]): Promise<StoreReadiness> {
  const [checkpoints, derived] = await Promise.all([
    listCheckpoints(store.db),
    expectedSources.length > 0 ? readDeriveState(store.db, FIRST_SYNC_DERIVED) : 1,
  ]);
  const done = new Set(checkpoints.filter((c) => c.first_sync_done === 1).map((c) => c.source));
  return { ready: derived === 1 && expectedSources.every((s) => done.has(s)), checkpoints };
}

/** The work each ingest source holds back, by source: chain records of markets Gamma does not list yet, wallet syncs asked for and not run. */
export async function readWaitingWork(store: Store): Promise<Readonly<Record<string, number>>> {
  const [held, requested] = await Promise.all([countHeldRecords(store.db), countWalletSyncRequests(store.db)]);
  return { [CHAIN_LOGS_SOURCE]: held, [WALLET_SYNC_SOURCE]: requested };
}

export class Readiness {
  private isReady: boolean;
  private checking: Promise<boolean> | null = null;
  private stopLooking: (() => void) | null = null;
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly store: Store,
    private readonly expectedSources: readonly string[],
    private readonly background: BackgroundWork,
  ) {
    this.isReady = expectedSources.length === 0;
  }

  /** What this process has seen: answers computed while false are not kept. */
  get ready(): boolean {
    return this.isReady;
  }

  /** Runs `listener` once, when readiness turns on (at once if it is on): drop what was kept before. */
  onReady(listener: () => void): void {
    if (this.isReady) listener();
    else this.listeners.push(listener);
  }

  /** Takes a reading made elsewhere (the health check's). */
  observe(ready: boolean): void {
    if (!ready || this.isReady) return;
    this.isReady = true;
    this.stop();
    for (const listener of this.listeners.splice(0)) listener();
  }

  /** Reads the store unless already ready. */
  check(): Promise<boolean> {
    if (this.isReady) return Promise.resolve(true);
    this.checking ??= readReadiness(this.store, this.expectedSources)
      .then(({ ready }) => (this.observe(ready), ready))
      .catch(() => false)
      .finally(() => (this.checking = null));
    return this.checking;
  }

  /** Looks every second until ready (or the app closes). */
  start(): void {
    if (this.isReady || this.stopLooking) return;
    this.stopLooking = this.background.every("readiness check", CHECK_INTERVAL_MS, () => this.check());
  }

  stop(): void {
    this.stopLooking?.();
    this.stopLooking = null;
  }
}
