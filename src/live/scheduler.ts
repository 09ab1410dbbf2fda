/**
 * Time for the live streams: "now" and timers. Production runs on the platform clock and Node's timers; tests
 * drive a ManualScheduler, whose `advance(ms)` moves its clock and runs what falls due in order, so the hold,
 * keepalive and reconnect timings are tested without waiting for them.
 */
import { systemClock, type Clock, type ManualClock } from "../platform/clock.js";

export type Cancel = () => void;

export interface Scheduler {
  nowMs(): number;
  /**
   * Runs `run` once, `ms` from now, after the input that had already arrived by then has been read: on a thread
   * that was busy when the timer fell due, Node runs due timers before it reads its sockets, and the settlement
   * hold released a transaction's first rows without its last one, which was waiting in the socket (live-sim's
   * transactions labelled null, one run in three).
   */
  after(ms: number, run: () => void): Cancel;
  /** Runs `run` every `ms` from now on. */
  every(ms: number, run: () => void): Cancel;
}

/** Node's timers (unreferenced: a stream's timers never keep a stopping process alive) over a clock. */
export function realScheduler(clock: Clock = systemClock): Scheduler {
  return {
    nowMs: () => clock.nowMs(),
    after(ms, run) {
      let immediate: NodeJS.Immediate | undefined;
      // setImmediate runs after the loop's poll phase, where the waiting input is read.
      const timer = setTimeout(
        () => {
          immediate = setImmediate(run);
          immediate.unref();
        },
        Math.max(0, ms),
      );
      timer.unref();
      return () => {
        clearTimeout(timer);
        if (immediate) clearImmediate(immediate);
      };
    },
    every(ms, run) {
      const timer = setInterval(run, ms);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

interface Task {
  dueMs: number;
  readonly periodMs: number | null;
  readonly run: () => void;
  readonly order: number;
}

export class ManualScheduler implements Scheduler {
  private readonly tasks = new Set<Task>();
  private created = 0;

  constructor(readonly clock: ManualClock) {}

  nowMs(): number {
    return this.clock.nowMs();
  }

  after(ms: number, run: () => void): Cancel {
    return this.add(Math.max(0, ms), null, run);
  }

  every(ms: number, run: () => void): Cancel {
    return this.add(ms, ms, run);
  }

  /** Timers waiting to run. */
  get pending(): number {
    return this.tasks.size;
  }

  /** Moves the clock `ms` forward, running every timer that falls due on the way, at its due time. */
  advance(ms: number): void {
    const end = this.clock.nowMs() + ms;
    for (let task = this.nextDue(end); task; task = this.nextDue(end)) {
      this.clock.set(Math.max(this.clock.nowMs(), task.dueMs));
      if (task.periodMs === null) this.tasks.delete(task);
      else task.dueMs += task.periodMs;
      task.run();
    }
    this.clock.set(end);
  }

  private add(delayMs: number, periodMs: number | null, run: () => void): Cancel {
    const task: Task = { dueMs: this.clock.nowMs() + delayMs, periodMs, run, order: this.created++ };
    this.tasks.add(task);
    return () => void this.tasks.delete(task);
  }

  private nextDue(end: number): Task | undefined {
    let next: Task | undefined;
    for (const task of this.tasks) {
      if (task.dueMs > end) continue;
      if (!next || task.dueMs < next.dueMs || (task.dueMs === next.dueMs && task.order < next.order)) next = task;
    }
    return next;
  }
}
