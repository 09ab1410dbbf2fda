/**
 * What the watchers of stored events share (territory-alerts.ts, consensus-flips.ts): a look every so often, one at
 * a time, whose deliveries wake the delivery workers; a failed look is logged and the next one tries again.
 */
import type { Config } from "../config/index.js";
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import type { Store } from "../store/database.js";

export interface WatcherDeps {
  readonly store: Store;
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Pick<Logger, "warn">;
  /** Called after a look stored deliveries (the ingest side wakes the API processes' workers). */
  readonly onStored?: (count: number) => void;
}

export abstract class PollingWatcher {
  private timer: NodeJS.Timeout | null = null;
  private looking: Promise<unknown> | null = null;

  constructor(
    protected readonly deps: WatcherDeps,
    private readonly what: string,
    private readonly everyMs: number,
  ) {}

  /** One look; returns the deliveries it stored. */
  abstract look(): Promise<number>;

  start(): void {
    this.timer ??= setInterval(() => {
      this.looking ??= this.look()
        .then((stored) => stored > 0 && this.deps.onStored?.(stored))
        .catch((error: unknown) =>
          this.deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, `${this.what} failed`),
        )
        .finally(() => (this.looking = null));
    }, this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.looking;
  }
}
