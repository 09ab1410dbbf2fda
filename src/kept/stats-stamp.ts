/**
 * The statistics' stamp as one API process last saw it: `derive_state.stats_generation`, which every rebuild and
 * refresh of wallet_stats bumps in the transaction of its writes. Looked at again at most every `checkSeconds`
 * (one row); answers kept under a key that holds the stamp are not served once the statistics they were computed
 * from were rewritten (a wallet's fallback win counters, say, once its sync was derived).
 */
import type { Clock } from "../platform/clock.js";
import type { Store } from "../store/database.js";
import { STATS_GENERATION, readDeriveState } from "../store/derive-state.js";

export class StatsStamp {
  private known: { readonly generation: number; readonly at: number } | null = null;
  private reading: Promise<number> | null = null;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly checkSeconds: number,
  ) {}

  /** The stamp, read again first when the last reading is `checkSeconds` old (callers meanwhile share that read). */
  current(): Promise<number> {
    const now = this.clock.now();
    const known = this.known;
    if (known && now >= known.at && now - known.at < this.checkSeconds) return Promise.resolve(known.generation);
    if (!this.reading) {
      const reading = readDeriveState(this.store.db, STATS_GENERATION)
        .then((generation) => {
          this.known = { generation, at: now };
          return generation;
        })
        .finally(() => {
          if (this.reading === reading) this.reading = null;
        });
      this.reading = reading;
    }
    return this.reading;
  }
}
