/**
 * The raw relay's hold: each trade waits `holdMs` from when the relay received it, so that the other rows of its
 * transaction can join it; a transaction's rows are released together when its first row's hold ends (rows that
 * come later start a group of their own). One timer, for the group due first: groups fall due in arrival order.
 */
import type { Cancel, Scheduler } from "./scheduler.js";

export interface HeldTrade {
  readonly txHash: string;
  /** When the relay received it, ms since the epoch. */
  readonly receivedAtMs: number;
}

interface Group<T> {
  readonly txHash: string;
  readonly dueMs: number;
  readonly rows: T[];
}

export class SettlementHold<T extends HeldTrade> {
  private readonly open = new Map<string, Group<T>>();
  private queue: Group<T>[] = [];
  private cancelTimer: Cancel | null = null;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly holdMs: number,
    /** Receives each transaction's rows, in arrival order, when its hold ends. */
    private readonly release: (rows: readonly T[]) => void,
  ) {}

  add(trade: T): void {
    const open = this.open.get(trade.txHash);
    if (open) {
      open.rows.push(trade);
      return;
    }
    const group: Group<T> = { txHash: trade.txHash, dueMs: trade.receivedAtMs + this.holdMs, rows: [trade] };
    this.open.set(trade.txHash, group);
    this.queue.push(group);
    this.arm();
  }

  /** Transactions waiting. */
  get held(): number {
    return this.queue.length;
  }

  /** Releases everything held now (the relay is stopping). */
  flush(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.releaseWhile(() => true);
  }

  private arm(): void {
    const head = this.queue[0];
    if (this.cancelTimer || !head) return;
    this.cancelTimer = this.scheduler.after(head.dueMs - this.scheduler.nowMs(), () => {
      this.cancelTimer = null;
      const now = this.scheduler.nowMs();
      this.releaseWhile((group) => group.dueMs <= now);
      this.arm();
    });
  }

  private releaseWhile(due: (group: Group<T>) => boolean): void {
    let released = 0;
    for (const group of this.queue) {
      if (!due(group)) break;
      released++;
      this.open.delete(group.txHash);
      this.release(group.rows);
    }
    if (released > 0) this.queue = this.queue.slice(released);
  }
}
