/**
 * Server-sent events as an async iterator that reconnects: each frame's `event`, `data` and `id`, over a fetch()
 * stream (which, unlike EventSource, can send the key). The last `id:` seen goes back as Last-Event-ID when it
 * reconnects, and a `retry:` field sets the wait before it does (Pelagic's streams are live only, with neither).
 * - A refusal (401, 403, 404, 422) ends the iteration with PelagicApiError; a 429 (all of the key's stream slots
 *   in use) is waited out per its Retry-After, up to `maxDelayMs`.
 * - A stream that ends, drops, or answers 5xx is opened again after a wait doubling from `baseDelayMs` (up to
 *   `maxDelayMs`); `attempts` failures in a row without an event in between end the iteration with the last error.
 */
import { PelagicApiError } from "./errors.js";
import { type Ending, type StreamOptions, reconnecting } from "./reconnect.js";

export type { ReconnectOptions, StreamOptions } from "./reconnect.js";

export interface SseEvent {
  /** `message` when the frame names none. */
  readonly event: string;
  readonly data: string;
  /** The frame's `id:`, or the last one before it. */
  readonly id: string | undefined;
}

/** Parses an event stream's bytes into frames; `retry` is called with each `retry:` field. */
async function* framesOf(
  body: ReadableStream<Uint8Array>,
  lastId: { value: string | undefined },
  retry: (ms: number) => void,
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let end: number;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        if (line === "") {
          if (data.length > 0) yield { event: event || "message", data: data.join("\n"), id: lastId.value };
          event = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
        else if (field === "id" && !value.includes("\0")) lastId.value = value;
        else if (field === "retry" && /^\d+$/.test(value)) retry(Number(value));
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * The events of the stream `open` answers, opening it again as the options say. `open` is given the last event id
 * and a signal that aborts when the iteration ends.
 */
export function sseEvents(
  open: (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>,
  options: StreamOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
  const lastId: { value: string | undefined } = { value: undefined };
  let serverRetryMs: number | undefined;
  return reconnecting(options, async function* (signal): AsyncGenerator<SseEvent, Ending, undefined> {
    try {
      const response = await open(lastId.value, signal);
      if (response.status === 200 && response.body) {
        yield* framesOf(response.body, lastId, (ms) => (serverRetryMs = ms));
        return { cause: new Error("the stream ended"), waitMs: serverRetryMs };
      }
      const error = await PelagicApiError.from(response);
      if (response.status === 429) return { cause: error, waitMs: (error.retryAfterSeconds ?? 0) * 1000 };
      if (response.status < 500) throw error;
      return { cause: error, waitMs: serverRetryMs };
    } catch (error) {
      if (error instanceof PelagicApiError || signal.aborted) throw error;
      return { cause: error, waitMs: serverRetryMs };
    }
  });
}
