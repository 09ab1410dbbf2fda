/**
 * The AI analyses of one API process: what the routes ask (the saved report, queueing a wallet, generating one now)
 * and the worker that runs queued generations. Every API process works the shared queue: at most
 * AI_ANALYSIS_CONCURRENCY generations at once in each, and a wallet in one process at a time (the store's lease,
 * `analysis-store.ts`). The worker looks for due jobs every AI_ANALYSIS_POLL_SECONDS and at once when this process
 * queues one or finishes one; it starts only once the store is ready (a report must not quote a store still filling).
 */
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Readiness } from "../analytics/reads/readiness.js";
import { redactUrl, type Config } from "../config/index.js";
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import { AnalysisStore, type Job, type SavedAnalysis } from "./analysis-store.js";
import { gatherInputs } from "./inputs.js";
import { GenerationError, type ReportWriter } from "./report-writer.js";
import { renderReport } from "./sections.js";
import { Slots } from "./slots.js";
import { yieldToLoop } from "../platform/yield-to-loop.js";
import { reportWriterFor } from "./writers.js";

/** How long a lease outlives the model's timeout: time to read the inputs and save the report. */
const LEASE_MARGIN_SECONDS = 30;
/** How often a generate call looks whether another process finished the wallet it waits for. */
const WAIT_POLL_MS = 250;

export interface AnalysisContext {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly readiness: Pick<Readiness, "ready">;
}

type Outcome =
  | { kind: "saved"; analysis: SavedAnalysis }
  | { kind: "failed"; error: GenerationError }
  | { kind: "gone" }
  | { kind: "lost" };

export class AnalysisQueue {
  readonly jobs: AnalysisStore;
  readonly writer: ReportWriter;
  /** This process, as the leases name it. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private readonly settings: Config["ai"];
  private readonly slots: Slots;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  private ticking: Promise<void> | null = null;
  /** The mean time of this process's recent generations (seconds, moving average); null before the first. */
  private measuredSeconds: number | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly ctx: AnalysisContext,
    private readonly log: Pick<Logger, "info" | "warn" | "error">,
    writer?: ReportWriter,
  ) {
    this.settings = ctx.config.ai;
    this.jobs = new AnalysisStore(ctx.store);
    this.writer = writer ?? reportWriterFor(this.settings);
    this.slots = new Slots(this.settings.concurrency);
  }

  get freshSeconds(): number {
    return this.settings.freshHours * 3_600;
  }

  /**
   * Seconds until `job`'s report is likely saved: the jobs ahead of it, spread over this process's slots, then its
   * own, each taking the measured generation time (AI_ANALYSIS_EXPECTED_SECONDS before one is measured); at most
   * AI_ANALYSIS_RETRY_AFTER_SECONDS, but never before a failed job's retry time.
   */
  async expectedWaitSeconds(job: Job, now: number): Promise<number> {
    const ahead = this.running.has(job.wallet) ? 0 : await this.jobs.queuedAhead(job);
    const perJob = this.measuredSeconds ?? this.settings.expectedSeconds;
    const rounds = Math.floor(ahead / this.settings.concurrency) + 1;
    const estimate = Math.min(this.settings.retryAfterSeconds, Math.max(1, Math.ceil(rounds * perJob)));
    return Math.max(estimate, job.next_attempt_at - now);
  }

  private measured(ms: number): void {
    const seconds = ms / 1_000;
    this.measuredSeconds = this.measuredSeconds === null ? seconds : 0.8 * this.measuredSeconds + 0.2 * seconds;
  }

  private get leaseSeconds(): number {
    return Math.ceil(this.settings.timeoutMs / 1_000) + LEASE_MARGIN_SECONDS;
  }

  start(): void {
    if (this.timer || this.stopped) return;
    const { baseUrl, model, concurrency } = this.settings;
    this.log.info(
      {
        generator: this.writer.generator,
        model: baseUrl ? model : null,
        base_url: baseUrl ? redactUrl(baseUrl) : null,
        concurrency,
      },
      "ai analysis worker started",
    );
    this.timer = setInterval(() => this.kick(), this.settings.pollSeconds * 1_000);
    this.timer.unref();
    this.kick();
  }

  /** Stops taking jobs, aborts the generations under way (their jobs stay queued, free for the next taker) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // A look under way may still take a job: wait for it, so that its generation is aborted too.
    await this.ticking;
    for (const { controller } of this.running.values()) controller.abort();
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  /** Looks for due jobs now (coalesced with a look under way). */
  kick(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = (async () => {
      do {
        this.again = false;
        await this.takeDueJobs();
      } while (this.again && !this.stopped);
    })()
      .catch((error: unknown) => this.log.error({ err: error }, "ai analysis queue: looking for jobs failed"))
      .finally(() => (this.ticking = null));
  }

  /** Until nothing is due or running here: for tests and the demo, which want the queue worked through. */
  async settle(): Promise<void> {
    for (;;) {
      this.kick();
      await this.ticking;
      if (this.running.size === 0) return;
      await Promise.allSettled([...this.running.values()].map((r) => r.done));
    }
  }

  private async takeDueJobs(): Promise<void> {
    while (!this.stopped && this.ctx.readiness.ready && this.slots.free > 0) {
      const now = this.ctx.clock.now();
      const due = await this.jobs.dueWallets(now, this.slots.free, new Set(this.running.keys()));
      let taken = 0;
      for (const wallet of due) {
        if (this.stopped || !this.slots.tryTake()) break;
        const job = await this.jobs.claim(wallet, this.owner, now, this.leaseSeconds, true);
        if (!job) {
          this.slots.give();
          continue;
        }
        taken++;
        void this.run(job).finally(() => {
          this.slots.give();
          this.kick();
        });
      }
      if (taken === 0) return;
    }
  }

  /** Generates the report of a job this process holds, and saves it or records the failure. */
  private run(job: Job): Promise<Outcome> {
    const controller = new AbortController();
    if (this.stopped) controller.abort();
    const done = this.generate(job, controller.signal).finally(() => this.running.delete(job.wallet));
    this.running.set(job.wallet, { controller, done });
    return done;
  }

  private async generate(job: Job, signal: AbortSignal): Promise<Outcome> {
    const { wallet } = job;
    const started = Date.now();
    try {
      const now = this.ctx.clock.now();
      const saved = job.force ? null : await this.jobs.readReport(wallet);
      if (saved && now - saved.generated_at < this.freshSeconds) {
        await this.jobs.drop(wallet, this.owner);
        return { kind: "saved", analysis: saved };
      }
      // Generation runs in an API process: each step lets the requests waiting meanwhile run before the next.
      await yieldToLoop();
      const inputs = await gatherInputs(this.ctx.store, wallet, this.ctx.config, now);
      if (!inputs) {
        await this.jobs.drop(wallet, this.owner);
        return { kind: "gone" };
      }
      await yieldToLoop();
      const written = await this.writer.write(inputs, signal);
      await yieldToLoop();
      const analysis: SavedAnalysis = {
        wallet,
        generated_at: now,
        ...written,
        report: renderReport(written.sections),
        inputs,
      };
      if (!(await this.jobs.save(analysis, this.owner))) return { kind: "lost" };
      this.measured(Date.now() - started);
      this.log.info(
        { wallet, generator: written.generator, model: written.model, ms: Date.now() - started },
        "ai analysis saved",
      );
      return { kind: "saved", analysis };
    } catch (caught) {
      const error =
        caught instanceof GenerationError
          ? caught
          : new GenerationError("other", caught instanceof Error ? caught.message : String(caught));
      if (error.kind === "aborted") {
        await this.jobs.release(wallet, this.owner);
      } else {
        const next = await this.jobs.fail(job, this.owner, error.kind, this.ctx.clock.now(), this.settings);
        this.log.warn(
          { wallet, failure: error.kind, attempt: job.attempts + 1, next, detail: error.message },
          "ai analysis generation failed",
        );
      }
      return { kind: "failed", error };
    }
  }

  /**
   * The generate call: a saved analysis younger than AI_ANALYSIS_FRESH_HOURS as it is unless `force`, else a new one
   * generated now (taking one of this process's slots, and the wallet's lease; when another process holds it, the
   * analysis it saves once done). Throws GenerationError when the generation fails: the wallet stays queued.
   */
  async generateNow(wallet: string, force: boolean): Promise<SavedAnalysis | null> {
    const requested = this.ctx.clock.now();
    if (!force) {
      const saved = await this.jobs.readReport(wallet);
      if (saved && requested - saved.generated_at < this.freshSeconds) return saved;
    }
    await this.jobs.enqueue(wallet, requested, force);
    await this.slots.take();
    try {
      const deadline = Date.now() + this.leaseSeconds * 1_000;
      for (;;) {
        const job = await this.jobs.claim(wallet, this.owner, this.ctx.clock.now(), this.leaseSeconds, false);
        const outcome = job ? await this.run(job) : null;
        if (outcome?.kind === "saved") return outcome.analysis;
        if (outcome?.kind === "failed") throw outcome.error;
        if (outcome?.kind === "gone") return null;
        const saved = await this.jobs.readReport(wallet);
        if (saved && saved.generated_at >= requested) return saved;
        if (Date.now() > deadline)
          throw new GenerationError("timeout", "another process is still generating this wallet's analysis");
        if (!(await this.jobs.readJob(wallet))) await this.jobs.enqueue(wallet, requested, force);
        await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      }
    } finally {
      this.slots.give();
    }
  }
}
