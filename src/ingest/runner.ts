/**
 * Drives a pipeline step by step: until it has caught up (backfill), or forever with a pause whenever it has
 * (follow). A failed step is logged and counted on the source, then retried after an exponential backoff with
 * jitter; nothing a step did is kept unless it committed. Stopping (the signal) ends the loop between steps;
 * an aborted request inside a step ends it too, before that step commits anything.
 */
import { PelagicError } from "../errors/index.js";
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import { recordSourceError } from "../store/checkpoints.js";
import type { Store } from "../store/database.js";
import type { Sleep } from "../venue/index.js";

export interface StepResult {
  /** Nothing more to do right now: the source is at the venue's head. */
  readonly caughtUp: boolean;
}

export interface Pipeline {
  readonly source: string;
  step(signal: AbortSignal): Promise<StepResult>;
}

export interface RunnerContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly sleep: Sleep;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly random?: () => number;
}

export class Stopped extends PelagicError {
  constructor() {
    super("INGEST_STOPPED", "ingest stopped");
  }
}

async function stepOrBackOff(
  pipeline: Pipeline,
  ctx: RunnerContext,
  failures: { count: number },
  signal: AbortSignal,
): Promise<StepResult | null> {
  if (signal.aborted) throw new Stopped();
  try {
    const result = await pipeline.step(signal);
    failures.count = 0;
    return result;
  } catch (error) {
    if (signal.aborted) throw new Stopped();
    failures.count += 1;
    const message = error instanceof Error ? error.message : String(error);
    ctx.logger.warn(
      { source: pipeline.source, err: message, failures: failures.count },
      "ingest step failed; retrying",
    );
    await recordSourceError(ctx.store.db, pipeline.source, message, ctx.clock.now()).catch(() => undefined);
    const cap = Math.min(ctx.retryMaxMs, ctx.retryBaseMs * 2 ** (failures.count - 1));
    await ctx.sleep(Math.floor(cap / 2 + (ctx.random ?? Math.random)() * (cap / 2)), signal).catch(() => undefined);
    if (signal.aborted) throw new Stopped();
    return null;
  }
}

/** Steps until the pipeline reports it has caught up. Throws Stopped when the signal ends it first. */
export async function runUntilCaughtUp(pipeline: Pipeline, ctx: RunnerContext, signal: AbortSignal): Promise<void> {
  const failures = { count: 0 };
  for (;;) {
    const result = await stepOrBackOff(pipeline, ctx, failures, signal);
    if (result?.caughtUp) return;
  }
}

/** Steps forever, pausing `idleMs` whenever the pipeline has caught up; returns when the signal stops it. */
export async function follow(
  pipeline: Pipeline,
  ctx: RunnerContext,
  idleMs: number,
  signal: AbortSignal,
): Promise<void> {
  const failures = { count: 0 };
  try {
    for (;;) {
      const result = await stepOrBackOff(pipeline, ctx, failures, signal);
      if (result?.caughtUp) await ctx.sleep(idleMs, signal).catch(() => undefined);
    }
  } catch (error) {
    if (!(error instanceof Stopped)) throw error;
  }
}
