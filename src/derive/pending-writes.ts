/**
 * What the Deriver still has to write: positions by (wallet, market), statistics by wallet, daily P&L points
 * by wallet from the earliest change not yet written, and wallets derived again whose rows are replaced whole
 * (hourly points wait in LiveHours, hourly-points.ts).
 * Marks are cleared only once written, so a failed write is retried at the next batch or refresh.
 */
import { SECONDS_PER_DAY } from "../ledger/index.js";
import type { PnlPointRow } from "../store/pnl-series.js";

const dayOf = (t: number) => Math.floor(t / SECONDS_PER_DAY) * SECONDS_PER_DAY;

export class PendingWrites {
  readonly positions = new Map<string, Set<string>>();
  readonly stats = new Set<string>();
  /** Per wallet: the earliest and the latest time of a P&L booking whose daily point is not written yet. */
  readonly daily = new Map<string, { since: number; latest: number }>();
  /** Wallets derived again, whose positions and daily points are replaced whole. */
  readonly rewrittenPositions = new Set<string>();
  readonly rewrittenDaily = new Set<string>();
  /** Wallets derived again, with their hourly points of the kept window (replacing theirs). */
  readonly rewrittenHourly = new Map<string, PnlPointRow[]>();

  /** A wallet's positions in these markets changed at `ts` (a booking on that day). */
  mark(address: string, conditionIds: Iterable<string>, ts: number): void {
    let markets = this.positions.get(address);
    if (!markets) this.positions.set(address, (markets = new Set()));
    for (const c of conditionIds) markets.add(c);
    this.stats.add(address);
    this.markDaily(address, ts);
  }

  markDaily(address: string, ts: number): void {
    const daily = this.daily.get(address);
    if (!daily) this.daily.set(address, { since: ts, latest: ts });
    else {
      daily.since = Math.min(daily.since, ts);
      daily.latest = Math.max(daily.latest, ts);
    }
  }

  /** A wallet derived again: all its positions and daily points are replaced. */
  markRewritten(address: string, latest: number): void {
    this.rewrittenPositions.add(address);
    this.rewrittenDaily.add(address);
    this.stats.add(address);
    this.markDaily(address, latest);
  }

  positionsWritten(): void {
    this.positions.clear();
    this.rewrittenPositions.clear();
  }

  /**
   * Daily points written up to `asOf`: a wallet stays marked from today's start when it booked today (that
   * day's point is dated tomorrow 00:00, not yet due).
   */
  dailyWritten(asOf: number): void {
    const today = dayOf(asOf);
    for (const [address, daily] of this.daily) {
      if (daily.latest >= today) this.daily.set(address, { since: today, latest: daily.latest });
      else this.daily.delete(address);
    }
    this.rewrittenDaily.clear();
  }

  /** The start of the earliest day whose point may have changed. */
  static firstDay(daily: { since: number }): number {
    return dayOf(daily.since);
  }
}
