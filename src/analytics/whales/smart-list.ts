/**
 * One API process's copy of today's Smart Money list (the addresses whose wallet_stats say is_smart and not a
 * farmer: `smartSql`), which flags whale trades. Reloaded only when the Deriver rewrote wallet_stats
 * (`stats_generation` moved), looked at every SMART_LIST_CHECK_SECONDS; only a process's first read waits for a load.
 */
import type { BackgroundWork } from "../../platform/background-work.js";
import type { Clock } from "../../platform/clock.js";
import type { Store } from "../../store/database.js";
import { STATS_GENERATION, readDeriveState } from "../../store/derive-state.js";
import { queryRows } from "../../store/raw-sql.js";
import { smartSql } from "../windows/site.js";

export interface SmartWallets {
  readonly wallets: ReadonlySet<string>;
  /** The stats generation the list was read at: answers computed from it are keyed by it. */
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
        readDeriveState(this.store.db, STATS_GENERATION).then((generation) =>
          generation !== loaded.generation && !this.loading ? this.reload() : undefined,
        ),
      );
    }
    return loaded;
  }

  private reload(): Promise<SmartWallets> {
    const loading = (async () => {
      const generation = await readDeriveState(this.store.db, STATS_GENERATION);
      const rows = await queryRows<{ wallet: string }>(
        this.store.db,
        this.store.kind,
        `select s.wallet from wallet_stats s where ${smartSql("s")}`,
      );
      return { generation, wallets: new Set(rows.map((r) => r.wallet)) };
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
