/**
 * Client of the venue's real-time data service (the venue's RTDS websocket). It subscribes to the activity
 * topic, sends the text `ping` every 5 s, ignores keep-alive frames, validates each envelope and payload,
 * and reconnects with backoff. The feed is known to drop events and disconnect: `status` and the "status"
 * listener tell the caller when it is down, so it can poll /trades meanwhile. It is "up" once a connection
 * delivers frames (keep-alives count) and "down" from the first loss until then.
 */
import WebSocket from "ws";
import type { Config } from "../config/index.js";
import {
  RTDS_ACTIVITY_TOPIC,
  RtdsEnvelopeShape,
  RtdsOrdersMatchedPayloadShape,
  RtdsTradePayloadShape,
  type RtdsEnvelope,
  type RtdsOrdersMatchedPayload,
  type RtdsSubscribeMessage,
  type RtdsSubscription,
  type RtdsTradePayload,
} from "./shapes/rtds.js";
import type { ShapeIssue } from "./shapes/shape.js";

export type RtdsStatus = "idle" | "connecting" | "up" | "down" | "closed";

export type RtdsMessage =
  | { readonly type: "trades"; readonly envelope: RtdsEnvelope; readonly payload: RtdsTradePayload }
  | { readonly type: "orders_matched"; readonly envelope: RtdsEnvelope; readonly payload: RtdsOrdersMatchedPayload };

export interface RtdsInvalidFrame {
  readonly raw: string;
  readonly issues: readonly ShapeIssue[];
}

export interface RtdsOptions {
  readonly url: string;
  /** Default: the activity topic's `trades` and `orders_matched`. */
  readonly subscriptions?: readonly RtdsSubscription[];
  readonly pingIntervalMs?: number;
  /** No frame at all (keep-alives included) for this long means a dead connection: reconnect. */
  readonly staleAfterMs?: number;
  readonly connectTimeoutMs?: number;
  /** Reconnect delay before attempt n is uniform in [0, min(max, base × 2^(n−1))). */
  readonly reconnectBaseMs?: number;
  readonly reconnectMaxMs?: number;
  /** Messages the async iterator buffers for a slow reader before dropping the oldest. */
  readonly bufferLimit?: number;
  readonly random?: () => number;
  readonly nowMs?: () => number;
}

export const DEFAULT_RTDS_SUBSCRIPTIONS: readonly RtdsSubscription[] = [
  { topic: RTDS_ACTIVITY_TOPIC, type: "trades" },
  { topic: RTDS_ACTIVITY_TOPIC, type: "orders_matched" },
];

/** Frames that only keep the connection alive: empty, or the answer to our ping. */
const KEEP_ALIVE = /^\s*(pong|ping)?\s*$/i;

interface Listeners {
  message: Set<(message: RtdsMessage) => void>;
  status: Set<(status: RtdsStatus) => void>;
  invalid: Set<(frame: RtdsInvalidFrame) => void>;
}

export interface RtdsStats {
  connects: number;
  messages: number;
  keepAlives: number;
  invalid: number;
  ignored: number;
  dropped: number;
}

export class RtdsClient {
  private socket: WebSocket | null = null;
  private currentStatus: RtdsStatus = "idle";
  private downSince: number | null = null;
  private failures = 0;
  private pingTimer: NodeJS.Timeout | null = null;
  private staleTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private readonly listeners: Listeners = { message: new Set(), status: new Set(), invalid: new Set() };
  readonly stats: RtdsStats = { connects: 0, messages: 0, keepAlives: 0, invalid: 0, ignored: 0, dropped: 0 };

  constructor(private readonly options: RtdsOptions) {}

  static fromConfig(config: Pick<Config, "venue">, overrides: Partial<RtdsOptions> = {}): RtdsClient {
    return new RtdsClient({ url: config.venue.rtdsUrl, ...overrides });
  }

  get status(): RtdsStatus {
    return this.currentStatus;
  }

  /** Since when (ms) the feed has been down, or null while it is up. */
  get downSinceMs(): number | null {
    return this.downSince;
  }

  /** The subscribe message this client sends on every connection. */
  subscribeMessage(): RtdsSubscribeMessage {
    return { action: "subscribe", subscriptions: [...(this.options.subscriptions ?? DEFAULT_RTDS_SUBSCRIPTIONS)] };
  }

  onMessage(listener: (message: RtdsMessage) => void): () => void {
    return this.listen("message", listener);
  }

  onStatus(listener: (status: RtdsStatus) => void): () => void {
    return this.listen("status", listener);
  }

  onInvalid(listener: (frame: RtdsInvalidFrame) => void): () => void {
    return this.listen("invalid", listener);
  }

  private listen<K extends keyof Listeners>(kind: K, listener: Parameters<Listeners[K]["add"]>[0]): () => void {
    const set = this.listeners[kind] as Set<typeof listener>;
    set.add(listener);
    return () => set.delete(listener);
  }

  start(): void {
    if (this.currentStatus !== "idle") return;
    this.connect();
  }

  /** Stops for good: no reconnects, iterators end. */
  async close(): Promise<void> {
    this.clearTimers();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const socket = this.socket;
    this.socket = null;
    this.setStatus("closed");
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        socket.once("close", () => resolve());
        socket.terminate();
      });
    }
  }

  /** Messages as an async iterator (ends on close); a slow reader loses the oldest beyond `bufferLimit`. */
  messages(): AsyncIterableIterator<RtdsMessage> {
    const queue: RtdsMessage[] = [];
    const limit = this.options.bufferLimit ?? 10_000;
    let wake: (() => void) | null = null;
    const stopMessages = this.onMessage((m) => {
      queue.push(m);
      if (queue.length > limit) {
        queue.shift();
        this.stats.dropped += 1;
      }
      wake?.();
    });
    const stopStatus = this.onStatus((s) => {
      if (s === "closed") wake?.();
    });
    const finish = (): IteratorResult<RtdsMessage> => {
      stopMessages();
      stopStatus();
      return { done: true, value: undefined };
    };
    const iterator: AsyncIterableIterator<RtdsMessage> = {
      next: async () => {
        while (queue.length === 0) {
          if (this.currentStatus === "closed") return finish();
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
        return { done: false, value: queue.shift() as RtdsMessage };
      },
      return: async () => finish(),
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  private now(): number {
    return this.options.nowMs?.() ?? Date.now();
  }

  private setStatus(status: RtdsStatus): void {
    if (status === this.currentStatus) return;
    if (status === "down" && this.downSince === null) this.downSince = this.now();
    if (status === "up") this.downSince = null;
    this.currentStatus = status;
    for (const listener of this.listeners.status) listener(status);
  }

  private connect(): void {
    // A failed reconnect stays "down" for the caller; only the first connection reports "connecting".
    if (this.currentStatus === "idle") this.setStatus("connecting");
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.options.url, { handshakeTimeout: this.options.connectTimeoutMs ?? 10_000 });
    } catch {
      this.setStatus("down");
      return this.scheduleReconnect();
    }
    this.socket = socket;
    socket.on("open", () => {
      if (this.socket !== socket) return;
      this.stats.connects += 1;
      socket.send(JSON.stringify(this.subscribeMessage()));
      this.pingTimer = setInterval(
        () => socket.readyState === WebSocket.OPEN && socket.send("ping"),
        this.options.pingIntervalMs ?? 5_000,
      );
      this.touch(socket);
    });
    socket.on("message", (data: WebSocket.RawData) => {
      if (this.socket !== socket) return;
      this.touch(socket);
      // "Up" means frames are flowing, not merely an open socket: a venue that accepts and drops stays "down"
      // and its reconnect backoff keeps growing.
      this.failures = 0;
      this.setStatus("up");
      this.handleFrame(
        Buffer.isBuffer(data)
          ? data.toString("utf8")
          : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString("utf8"),
      );
    });
    // 'error' is always followed by 'close'; reconnecting happens there.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.clearTimers();
      this.setStatus("down");
      this.scheduleReconnect();
    });
  }

  private touch(socket: WebSocket): void {
    if (this.staleTimer) clearTimeout(this.staleTimer);
    this.staleTimer = setTimeout(() => socket.terminate(), this.options.staleAfterMs ?? 30_000);
  }

  private scheduleReconnect(): void {
    this.failures += 1;
    const base = this.options.reconnectBaseMs ?? 500;
    const cap = this.options.reconnectMaxMs ?? 30_000;
    const delay = Math.floor((this.options.random ?? Math.random)() * Math.min(cap, base * 2 ** (this.failures - 1)));
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.currentStatus !== "closed") this.connect();
    }, delay);
  }

  private clearTimers(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.staleTimer) clearTimeout(this.staleTimer);
    this.pingTimer = null;
    this.staleTimer = null;
  }

  private invalid(raw: string, issues: readonly ShapeIssue[]): void {
    this.stats.invalid += 1;
    for (const listener of this.listeners.invalid) listener({ raw: raw.slice(0, 2_000), issues });
  }

  private handleFrame(raw: string): void {
    if (KEEP_ALIVE.test(raw)) {
      this.stats.keepAlives += 1;
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return this.invalid(raw, [{ path: "", message: "not JSON" }]);
    }
    if (!RtdsEnvelopeShape.is(parsed)) return this.invalid(raw, RtdsEnvelopeShape.issues(parsed));
    const envelope = parsed;
    if (envelope.topic !== RTDS_ACTIVITY_TOPIC || (envelope.type !== "trades" && envelope.type !== "orders_matched")) {
      this.stats.ignored += 1;
      return;
    }
    const shape = envelope.type === "trades" ? RtdsTradePayloadShape : RtdsOrdersMatchedPayloadShape;
    if (!shape.is(envelope.payload))
      return this.invalid(
        raw,
        shape.issues(envelope.payload).map((i) => ({ ...i, path: `/payload${i.path}` })),
      );
    this.stats.messages += 1;
    const message = { type: envelope.type, envelope, payload: envelope.payload } as RtdsMessage;
    for (const listener of this.listeners.message) listener(message);
  }
}
