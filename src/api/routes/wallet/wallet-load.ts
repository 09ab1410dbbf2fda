/**
 * The load signal behind an overview's `degraded` flag: wallet requests in flight in this process, and the
 * event loop's delay (p99 over the last few seconds; off unless configured). Either above its threshold means "under load":
 * overviews then drop their secondary counters and keep the primary stats.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.js";

const WINDOW_MS = 5_000;

export class LoadMonitor {
  private inFlight = 0;
  private readonly histogram: IntervalHistogram;
  private windowStart = Date.now();
  private lastP99Ms = 0;
  private closed = false;

  constructor(private readonly limits: { inFlight: number; loopDelayMs: number }) {
    this.histogram = monitorEventLoopDelay({ resolution: 20 });
    this.histogram.enable();
  }

  enter(): void {
    this.inFlight++;
  }

  leave(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  /** p99 event-loop delay in ms over the current window (the previous window's until this one has samples). */
  loopDelayMs(): number {
    if (this.histogram.count > 0) this.lastP99Ms = this.histogram.percentile(99) / 1e6;
    if (Date.now() - this.windowStart >= WINDOW_MS) {
      this.histogram.reset();
      this.windowStart = Date.now();
    }
    return this.lastP99Ms;
  }

  /** True when the process is under load; the current request counts as in flight. */
  degraded(): boolean {
    return (
      this.inFlight > this.limits.inFlight ||
      (this.limits.loopDelayMs > 0 && this.loopDelayMs() > this.limits.loopDelayMs)
    );
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.histogram.disable();
  }
}

const monitors = new WeakMap<AppContext, LoadMonitor>();

/** The one monitor of an app, counting the requests of every wallet route plugin that calls this. */
export function trackWalletLoad(app: FastifyInstance, ctx: AppContext): LoadMonitor {
  let monitor = monitors.get(ctx);
  if (!monitor) {
    monitor = new LoadMonitor({
      inFlight: ctx.config.wallet.degradedInFlightRequests,
      loopDelayMs: ctx.config.wallet.degradedEventLoopDelayMs,
    });
    monitors.set(ctx, monitor);
  }
  const m = monitor;
  // Callback hooks: an async one costs a promise and a turn of the microtask queue on every request.
  app.addHook("onRequest", (_request, _reply, done) => {
    m.enter();
    done();
  });
  app.addHook("onResponse", (_request, _reply, done) => {
    m.leave();
    done();
  });
  app.addHook("onClose", async () => m.close());
  return m;
}
