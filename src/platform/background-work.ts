/**
 * The work an API process starts without a request waiting for it: reloads of its in-memory copies, warm-ups and
 * their timers, the readiness check. All of it starts here, so that closing the app can end it before the store
 * closes: once closing, nothing new starts and no timer fires, and `close` waits (bounded) for what is in flight.
 * A background read that outlived the app would meet a closed store, or a PostgreSQL schema being dropped.
 */
import type { Logger } from "./logger.js";

const ignore = () => undefined;

export class BackgroundWork {
  /** Each promise in flight, with the name of the work it is. */
  private readonly inFlight = new Map<Promise<unknown>, string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closing = false;

  /** Whether `close` was called: nothing starts any more. */
  get closed(): boolean {
    return this.closing;
  }

  /** How many pieces of work are still running. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /**
   * Runs `work` in the background, its failure ignored (a failed reload leaves the kept copy answering), unless
   * the app is closing. Returns whether it started.
   */
  run(name: string, work: () => Promise<unknown>): boolean {
    if (this.closing) return false;
    this.track(name, work()).catch(ignore);
    return true;
  }

  /** Records a promise that requests may await too (a load they share), so that `close` waits for it; returns it. */
  track<T>(name: string, promise: Promise<T>): Promise<T> {
    this.inFlight.set(promise, name);
    const settled = () => void this.inFlight.delete(promise);
    void promise.then(settled, settled);
    return promise;
  }

  /** Runs `work` in the background after `ms`, unless the app closes first. */
  after(name: string, ms: number, work: () => Promise<unknown>): void {
    if (this.closing) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.run(name, work);
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  /** Runs `work` in the background every `ms` (a tick is skipped while the last one runs) until the returned stop or the close. */
  every(name: string, ms: number, work: () => Promise<unknown>): () => void {
    if (this.closing) return ignore;
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = this.run(name, () => work().finally(() => (running = false)));
    }, ms);
    timer.unref();
    this.timers.add(timer);
    return () => {
      clearInterval(timer);
      this.timers.delete(timer);
    };
  }

  /**
   * Starts nothing more, clears the timers, then waits for the work in flight (also what is tracked meanwhile), at
   * most `waitMs`; what still runs then is logged by name and left.
   */
  async close(waitMs: number, logger: Logger): Promise<void> {
    this.closing = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const deadline = performance.now() + waitMs;
    while (this.inFlight.size > 0) {
      const left = deadline - performance.now();
      if (left <= 0) {
        logger.warn({ work: [...this.inFlight.values()], waitMs }, "closing: background work still running, left");
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise((resolve) => (timer = setTimeout(resolve, left)));
      await Promise.race([Promise.allSettled([...this.inFlight.keys()]), timedOut]);
      clearTimeout(timer);
    }
  }
}
