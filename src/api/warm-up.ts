/**
 * What an API process computes before it listens, so that no first request waits for it: the aggregates cached per
 * clock window without parameters (top movers, home figures, site figures), the in-memory copies a first read
 * would load (the market index, the leaderboard table, the wallet search index). Route plugins register them (`ctx.warmUps.add`);
 * the service runs them once before listening (`app.warmUp()`, src/runtime/service.ts), again when readiness turns
 * on, and each windowed one again at every boundary of its window, so a window's first request finds it computed.
 * The recomputations are the app's background work: none starts once it closes. Tests that build the app
 * themselves run nothing of this unless they ask.
 */
import {
  type AggregateComputer,
  type AggregateName,
  type AggregateValue,
  WINDOW_AGGREGATES,
} from "../analytics/windows/window-aggregates.js";
import { computedPerClockWindow } from "../kept/clock-window.js";
import type { BackgroundWork } from "../platform/background-work.js";
import type { Platform } from "../platform/index.js";
import type { Logger } from "../platform/logger.js";
import { yieldToLoop } from "../platform/yield-to-loop.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Runs the warm-ups once, before the service listens; keeps the windowed ones current from then on. */
    warmUp(): Promise<void>;
  }
}

interface WarmJob {
  readonly name: string;
  readonly run: () => Promise<unknown>;
  /** Recomputed at every boundary of this window (seconds); undefined: once. */
  readonly windowSeconds: number | undefined;
}

/** Past a window's boundary, the recomputation waits this long, so that the clock is surely in the new window. */
const AFTER_BOUNDARY_MS = 20;

export class WarmUps {
  private readonly jobs: WarmJob[] = [];
  private started = false;
  /** The recomputations due at a boundary, one after the other: see inTurn. */
  private turns: Promise<void> = Promise.resolve();

  constructor(
    private readonly platform: Platform,
    /** Whether what is computed now is kept (readiness): nothing is recomputed on schedule before. */
    private readonly kept: () => boolean,
    private readonly background: BackgroundWork,
    private readonly aggregates: AggregateComputer,
  ) {}

  add(name: string, run: () => Promise<unknown>, windowSeconds?: number): void {
    this.jobs.push({ name, run, windowSeconds });
  }

  /** An aggregate cached per clock window (`computedPerClockWindow`) and computed ahead of its requests: the getter routes call. */
  windowed<T>(name: string, windowSeconds: number, load: (now: number) => Promise<T>): () => Promise<T> {
    const get = () => computedPerClockWindow(this.platform, name, windowSeconds, load);
    this.add(name, get, windowSeconds);
    return get;
  }

  /** A window aggregate of src/analytics/windows/window-aggregates.ts, computed where the app computes them, as `windowed`. */
  aggregate<N extends AggregateName>(name: N): () => Promise<AggregateValue<N>> {
    return this.windowed(name, WINDOW_AGGREGATES[name].windowSeconds, (now) => this.aggregates.compute(name, now));
  }

  /**
   * Runs every job once, one after the other (each logged with its time; none once the app closes), then keeps the
   * windowed ones current.
   */
  async runAll(logger: Logger): Promise<void> {
    for (const job of this.jobs) {
      if (this.background.closed) return;
      await this.runJob(job, logger);
    }
    if (this.started) return;
    this.started = true;
    for (const job of this.jobs) if (job.windowSeconds) this.schedule(job, logger);
  }

  private async runJob(job: WarmJob, logger: Logger): Promise<void> {
    const started = performance.now();
    try {
      await job.run();
      logger.debug({ job: job.name, ms: Math.round(performance.now() - started) }, "warmed up");
    } catch (error) {
      logger.warn({ err: error, job: job.name }, "warm-up failed; the first request computes it");
    }
  }

  /**
   * Runs `run` once the recomputations queued before it have finished, after letting waiting requests run: the
   * windows' boundaries coincide (every five-minute one is a minute's too), and their jobs run as one block otherwise.
   */
  private inTurn(run: () => Promise<void>): Promise<void> {
    const turn = this.turns.then(yieldToLoop).then(run);
    this.turns = turn.catch(() => undefined);
    return turn;
  }

  private schedule(job: WarmJob, logger: Logger): void {
    const windowMs = (job.windowSeconds as number) * 1000;
    const nowMs = this.platform.clock.nowMs();
    const delay = (Math.floor(nowMs / windowMs) + 1) * windowMs - nowMs + AFTER_BOUNDARY_MS;
    this.background.after(job.name, delay, async () => {
      if (this.kept()) await this.inTurn(() => this.runJob(job, logger));
      this.schedule(job, logger);
    });
  }
}
