/**
 * Keeps an API process subscribed to the relay: connects when the first stream opens; when the connection drops,
 * tries again up to `attempts` times, `baseMs` × 2^(n−1) after the loss for attempt n; then gives up ("lost": the
 * hub sends each stream an `error` event and closes it). The next stream to open starts over.
 */
import type { Cancel, Scheduler } from "./scheduler.js";
import type { LiveUpstream, UpstreamMessage } from "./upstream.js";

export type LinkEvent =
  | { readonly type: "up"; readonly attempt: number }
  | { readonly type: "dropped" }
  | { readonly type: "retry"; readonly attempt: number; readonly delayMs: number }
  | { readonly type: "lost"; readonly attempts: number };

export type LinkState = "idle" | "connecting" | "up" | "retrying" | "lost" | "closed";

export interface LinkOptions {
  readonly attempts: number;
  readonly baseMs: number;
}

export class UpstreamLink {
  private current: LinkState = "idle";
  private cancelRetry: Cancel | null = null;

  constructor(
    private readonly upstream: LiveUpstream,
    private readonly scheduler: Scheduler,
    private readonly options: LinkOptions,
    private readonly onMessage: UpstreamMessage,
    private readonly onEvent: (event: LinkEvent) => void,
  ) {}

  get state(): LinkState {
    return this.current;
  }

  /** Connects unless connected or trying to. */
  ensure(): void {
    if (this.current === "idle" || this.current === "lost") this.connect(0);
  }

  async close(): Promise<void> {
    this.current = "closed";
    this.cancelRetry?.();
    this.cancelRetry = null;
    await this.upstream.close();
  }

  private connect(attempt: number): void {
    this.current = attempt === 0 ? "connecting" : "retrying";
    this.upstream
      .open(this.onMessage, () => this.dropped())
      .then(
        () => {
          if (this.current === "closed") return void this.upstream.close();
          this.current = "up";
          this.onEvent({ type: "up", attempt });
        },
        () => {
          if (this.current !== "closed") this.retry(attempt + 1);
        },
      );
  }

  private dropped(): void {
    if (this.current === "closed") return;
    this.onEvent({ type: "dropped" });
    this.retry(1);
  }

  private retry(attempt: number): void {
    if (attempt > this.options.attempts) {
      this.current = "lost";
      this.onEvent({ type: "lost", attempts: this.options.attempts });
      return;
    }
    const delayMs = this.options.baseMs * 2 ** (attempt - 1);
    this.current = "retrying";
    this.onEvent({ type: "retry", attempt, delayMs });
    this.cancelRetry = this.scheduler.after(delayMs, () => {
      this.cancelRetry = null;
      this.connect(attempt);
    });
  }
}
