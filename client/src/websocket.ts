/**
 * The live streams over a WebSocket (`/api/public/v1/live/ws`) as an async iterator that reconnects. The key goes as
 * the subprotocol `pelagic.key.<API_KEY>` beside `pelagic.live.v1`, as a browser must send it. Any WebSocket
 * with the browser's interface works: the global one (browsers, Node 22+) or, on Node 20, the `ws` package's.
 * - A handshake refused (401, 403, 422, 429) shows no status through that interface: the URL is then asked once as
 *   a plain GET, which the service answers with the same refusal (or 426 when only the upgrade was missing, and the
 *   socket is opened again).
 * - A socket that closes for any other reason than the iteration's end (1011 when the service lost its upstream,
 *   1001 when it stops, a dropped connection) is opened again as `sseEvents` reopens a stream (same options).
 */
import { PelagicApiError } from "./errors.js";
import { type Ending, type StreamOptions, reconnecting } from "./reconnect.js";

/** What the iterator uses of a WebSocket: the browser's interface. */
export interface WebSocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(code?: number, reason?: string): void;
}

export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike;

const PROTOCOL = "pelagic.live.v1";
const KEY_PROTOCOL_PREFIX = "pelagic.key.";
const NORMAL_CLOSURE = 1000;

export interface SocketMessage {
  readonly event: string;
  readonly data: unknown;
}

type Outcome =
  | { kind: "message"; message: SocketMessage }
  | { kind: "closed"; opened: boolean; code: number; reason: string };

const textOf = (data: unknown): string =>
  typeof data === "string" ? data : new TextDecoder().decode(data as ArrayBuffer | Uint8Array);

/** One connection's messages, then how it closed. */
async function* connection(
  WebSocket: WebSocketConstructor,
  url: string,
  apiKey: string | undefined,
  signal: AbortSignal,
): AsyncGenerator<Outcome> {
  const queue: Outcome[] = [];
  let wake: (() => void) | undefined;
  const push = (outcome: Outcome) => {
    queue.push(outcome);
    wake?.();
  };
  let opened = false;
  const socket = new WebSocket(url, apiKey ? [PROTOCOL, `${KEY_PROTOCOL_PREFIX}${apiKey}`] : [PROTOCOL]);
  socket.onopen = () => (opened = true);
  socket.onmessage = (event) => push({ kind: "message", message: JSON.parse(textOf(event.data)) as SocketMessage });
  socket.onclose = (event) => push({ kind: "closed", opened, code: event.code, reason: event.reason });
  socket.onerror = () => undefined;
  const abort = () => socket.close(NORMAL_CLOSURE, "done");
  signal.addEventListener("abort", abort, { once: true });
  try {
    for (;;) {
      const outcome = queue.shift();
      if (!outcome) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      yield outcome;
      if (outcome.kind === "closed") return;
    }
  } finally {
    signal.removeEventListener("abort", abort);
    socket.onmessage = socket.onclose = null;
    socket.close(NORMAL_CLOSURE, "done");
  }
}

/** Why a handshake failed, asked as a plain GET: undefined when only the upgrade was missing (426) or nothing answered. */
async function refusalOf(probe: () => Promise<Response>): Promise<PelagicApiError | undefined> {
  const answer = await probe().catch(() => undefined);
  if (!answer || answer.status === 426) {
    await answer?.body?.cancel();
    return undefined;
  }
  return PelagicApiError.from(answer);
}

/**
 * Every message of the socket at `url`, `{event, data}`, reconnecting as `options.reconnect` says. `probe` asks the
 * URL as a plain GET with the key, to learn why a handshake failed.
 */
export function socketMessages(
  WebSocket: WebSocketConstructor,
  url: string,
  apiKey: string | undefined,
  probe: () => Promise<Response>,
  options: StreamOptions = {},
): AsyncGenerator<SocketMessage, void, undefined> {
  return reconnecting(options, async function* (signal): AsyncGenerator<SocketMessage, Ending, undefined> {
    for await (const outcome of connection(WebSocket, url, apiKey, signal)) {
      if (outcome.kind === "message") {
        yield outcome.message;
        continue;
      }
      const refusal = outcome.opened || signal.aborted ? undefined : await refusalOf(probe);
      if (refusal && refusal.status !== 429 && refusal.status < 500) throw refusal;
      const closed = `the live socket closed (${outcome.code}${outcome.reason ? ` ${outcome.reason}` : ""})`;
      return {
        cause: refusal ?? new Error(closed),
        waitMs: refusal?.status === 429 ? (refusal.retryAfterSeconds ?? 0) * 1000 : undefined,
      };
    }
    return { cause: new Error("the live socket closed") };
  });
}
