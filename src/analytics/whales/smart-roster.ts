/**
 * One API process's list of the smart whales (Smart Money, never a farmer: `smartSql`) with what the whale reads
 * show of each: display name, win rate and lifetime P&L. Read again when the Deriver rewrote wallet_stats
 * (`derive_state.stats_generation` moved), which the copies built on it (whale-fill-window.ts, smart-holdings.ts)
 * look at each time they bring themselves up to date.
 */
import type { BackgroundWork } from "../../platform/background-work.js";
import type { Clock } from "../../platform/clock.js";
import type { Store } from "../../store/database.js";
import { STATS_GENERATION, readDeriveState } from "../../store/derive-state.js";
import { queryRows } from "../../store/raw-sql.js";
import { smartSql } from "../../store/smart-wallets.js";

export interface RosterWhale {
  /** Profile name, else pseudonym, else null. */
  name: string | null;
  winRate: number;
  totalPnl: number;
}

export interface Roster {
  /** The stats generation the list was read at (or after). */
  readonly generation: number;
  readonly whales: ReadonlyMap<string, RosterWhale>;
}

/** What the per-process copies kept on the roster (recent whale fills, whale positions) read from. */
export interface RosterCopyDeps {
  readonly store: Store;
  readonly roster: SmartRoster;
  readonly clock: Clock;
  readonly background: BackgroundWork;
}

export async function loadRoster(store: Store): Promise<Roster> {
  const generation = await readDeriveState(store.db, STATS_GENERATION);
  const rows = await queryRows<{
    wallet: string;
    win_rate: number;
    total_pnl: number;
    name: string | null;
    pseudonym: string | null;
  }>(
    store.db,
    store.kind,
    `select s.wallet, s.win_rate, s.total_pnl, w.name, w.pseudonym from wallet_stats s left join wallets w on w.address = s.wallet where ${smartSql("s")}`,
  );
  const whales = new Map<string, RosterWhale>();
  for (const r of rows)
    whales.set(r.wallet, {
      name: r.name || r.pseudonym || null,
      winRate: Number(r.win_rate),
      totalPnl: Number(r.total_pnl),
    });
  return { generation, whales };
}

export class SmartRoster {
  private roster: Roster | null = null;
  private reading: Promise<Roster> | null = null;
  /** Bumped by `forget`, so that a read under way then does not keep what it read. */
  private epoch = 0;

  constructor(private readonly store: Store) {}

  /** The list, read again first if the statistics were rewritten since (one row read when they were not). */
  latest(): Promise<Roster> {
    if (!this.reading) {
      const reading: Promise<Roster> = this.read().finally(() => {
        if (this.reading === reading) this.reading = null;
      });
      this.reading = reading;
    }
    return this.reading;
  }

  private async read(): Promise<Roster> {
    const known = this.roster;
    const epoch = this.epoch;
    if (known && (await readDeriveState(this.store.db, STATS_GENERATION)) === known.generation) return known;
    const roster = await loadRoster(this.store);
    if (epoch === this.epoch) this.roster = roster;
    return roster;
  }

  forget(): void {
    this.epoch++;
    this.reading = null;
    this.roster = null;
  }
}
