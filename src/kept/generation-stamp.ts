/**
 * A counter of `derive_state` as one API process last saw it: `stats_generation` (every rebuild and refresh of
 * wallet_stats bumps it in the transaction of its writes) or `smart_generation` (each change of the Smart Money
 * wallets' ids). Looked at again at most every `checkSeconds` (one row); answers kept under a key that holds the
 * stamp are not served once what they were computed from was rewritten (a wallet's fallback win counters, say, once
 * its sync was derived; a market's Smart Money trades once a wallet joined or left Smart Money).
 */
import type { Clock } from "../platform/clock.js";
import type { Store } from "../store/database.js";
import { readDeriveState } from "../store/derive-state.js";

export class GenerationStamp {
  private known: { readonly generation: number; readonly at: number } | null = null;
  private reading: Promise<number> | null = null;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly counter: string,
    private readonly checkSeconds: number,
  ) {}

  /** The stamp, read again first when the last reading is `checkSeconds` old (callers meanwhile share that read). */
  current(): Promise<number> {
    const now = this.clock.now();
    const known = this.known;
    if (known && now >= known.at && now - known.at < this.checkSeconds) return Promise.resolve(known.generation);
    if (!this.reading) {
      const reading = readDeriveState(this.store.db, this.counter)
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
