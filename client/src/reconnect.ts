/**
 * A stream that reconnects (the SSE streams and the WebSocket): each connection's items, then, when it ends, another
 * connection after a wait, until the iteration stops or too many fail in a row.
 */
import { sleep } from "./fetch-policy.js";

export interface ReconnectOptions {
  /** Failed connections in a row before the iteration ends (default 5). */
  readonly attempts?: number;
  /** The first wait before reconnecting, doubled each failure in a row (default 1,000 ms). */
  readonly baseDelayMs?: number;
  /** The longest wait, a 429's Retry-After included (default 60,000 ms). */
  readonly maxDelayMs?: number;
}

export interface StreamOptions {
  /** Ends the iteration quietly (and closes the connection) when it aborts. */
  readonly signal?: AbortSignal;
  readonly reconnect?: ReconnectOptions;
  /** Called before each reconnection, with the failure that led to it. */
  readonly onReconnect?: (info: { attempt: number; delayMs: number; cause: unknown }) => void;
}

/** How a connection ended: why, and how long to wait before the next (else the doubling wait). */
export interface Ending {
  readonly cause: unknown;
  readonly waitMs?: number;
}

/**
 * Yields what each connection `connect` makes yields; a connection returns its Ending, or throws to end the
 * iteration for good (a refusal that reconnecting cannot fix). A connection that yielded anything resets the count
 * of failures; `attempts` failures in a row, or a wait longer than `maxDelayMs`, end it with the last cause.
 */
export async function* reconnecting<T>(
  options: StreamOptions,
  connect: (signal: AbortSignal) => AsyncGenerator<T, Ending, undefined>,
): AsyncGenerator<T, void, undefined> {
  const attempts = options.reconnect?.attempts ?? 5;
  const baseDelayMs = options.reconnect?.baseDelayMs ?? 1_000;
  const maxDelayMs = options.reconnect?.maxDelayMs ?? 60_000;
  const stop = new AbortController();
  const abort = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", abort, { once: true });
  let failures = 0;
  try {
    for (;;) {
      const connection = connect(stop.signal);
      let ending: Ending;
      try {
        for (;;) {
          const step = await connection.next();
          if (step.done) {
            ending = step.value;
            break;
          }
          failures = 0;
          yield step.value;
        }
      } catch (error) {
        if (stop.signal.aborted) return;
        throw error;
      } finally {
        await connection.return(undefined as never);
      }
      if (stop.signal.aborted) return;
      failures++;
      const delayMs = ending.waitMs ?? Math.min(maxDelayMs, baseDelayMs * 2 ** (failures - 1));
      if (failures > attempts || delayMs > maxDelayMs) throw ending.cause;
      options.onReconnect?.({ attempt: failures, delayMs, cause: ending.cause });
      await sleep(delayMs, stop.signal).catch(() => undefined);
      if (stop.signal.aborted) return;
    }
  } finally {
    options.signal?.removeEventListener("abort", abort);
    stop.abort();
  }
}
