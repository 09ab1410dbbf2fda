/**
 * One API process's copy of today's Smart Money list (the addresses of `smart_wallet_ids`: those whose wallet_stats
 * say is_smart and not a farmer), which flags whale trades. Reloaded only when the set changed (`smart_generation`
 * moved: a refresh that rewrites wallet_stats without moving a wallet in or out of Smart Money leaves it), looked at
 * every SMART_LIST_CHECK_SECONDS; only a process's first read waits for a load.
 */
import type { BackgroundWork } from "../../platform/background-work.js";
import type { Clock } from "../../platform/clock.js";
import type { Store } from "../../store/database.js";
import { SMART_GENERATION, readDeriveState } from "../../store/derive-state.js";
import { smartWalletAddresses } from "../../store/smart-wallets.js";

export interface SmartWallets {
  readonly wallets: ReadonlySet<string>;
  /** The Smart Money generation the list was read at: answers computed from it are keyed by it. */
  readonly generation: number;
}

export class SmartList {
  private loaded: SmartWallets | null = null;
  private loading: Promise<SmartWallets> | null = null;
  private checkedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly checkSeconds: number,
    private readonly background: BackgroundWork,
  ) {}

  /** Today's Smart Money wallets; the first call waits for them. */
  async current(): Promise<SmartWallets> {
    const loaded = this.loaded;
    if (!loaded) return this.loading ?? this.reload();
    const now = this.clock.now();
    if (!this.loading && (now - this.checkedAt >= this.checkSeconds || now < this.checkedAt)) {
      this.checkedAt = now;
      this.background.run("smart list", () =>
        readDeriveState(this.store.db, SMART_GENERATION).then((generation) =>
          generation !== loaded.generation && !this.loading ? this.reload() : undefined,
        ),
      );
    }
    return loaded;
  }

  private reload(): Promise<SmartWallets> {
    const loading = (async () => {
      const generation = await readDeriveState(this.store.db, SMART_GENERATION);
      return { generation, wallets: new Set(await smartWalletAddresses(this.store)) };
    })();
    this.loading = loading;
    return loading
      .then((loaded) => {
        if (this.loading === loading) this.loaded = loaded;
        return loaded;
      })
      .finally(() => {
        if (this.loading === loading) this.loading = null;
      });
  }
}
