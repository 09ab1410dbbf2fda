/**
 * The streams of one API process: its subscribers (SSE or WebSocket, each a LiveConnection), fed from one
 * upstream subscription. Each event is serialized once per transport and the same bytes are written to every
 * subscriber that wants it; one timer sends keepalives to subscribers that heard nothing for LIVE_KEEPALIVE_SECONDS
 * and another refreshes their slot leases. A subscriber whose unsent bytes pass LIVE_CLIENT_BUFFER_BYTES when
 * the next message comes is disconnected: a slow reader costs the server at most that much, and one message. A closed connection leaves at once, with its
 * slot: nothing of it stays behind (no timer or listener of its own).
 */
import type { Logger } from "../platform/logger.js";
import { metrics } from "../platform/metrics.js";
import type { SlotLease } from "../platform/slots.js";
import type { EntryType } from "../store/schema.js";
import { LIVE_CHANNELS } from "./relay.js";
import type { Cancel, Scheduler } from "./scheduler.js";
import { UpstreamLink, type LinkEvent, type LinkOptions } from "./upstream-link.js";
import type { LiveUpstream } from "./upstream.js";

export type LiveLogger = Pick<Logger, "info" | "warn" | "error">;

export type StreamName = "trades" | "trades-indexed";

export const ENTRY_TYPE_BITS: Readonly<Record<EntryType, number>> = { MINT: 1, MERGE: 2, COMPLEMENTARY: 4 };
/** Every entry type: the raw relay's subscribers, and indexed ones without a `types` filter. */
export const ALL_ENTRY_TYPES = 7;

/**
 * The bytes of one upstream message (one or more events, a line each), made once per transport and per filter on
 * first use and shared by every subscriber that gets them: SSE takes the frames in one write, WebSocket a message
 * per event.
 */
export class SharedEvents {
  private readonly sse = new Map<number, Buffer | null>();
  private readonly ws = new Map<number, Buffer[]>();

  constructor(
    private readonly lines: readonly string[],
    /** Each line's ENTRY_TYPE_BITS (ALL_ENTRY_TYPES for the raw relay's). */
    private readonly bits: readonly number[],
  ) {}

  /** The SSE frames of the events `mask` wants, null when it wants none. */
  sseFor(mask: number): Buffer | null {
    let bytes = this.sse.get(mask);
    if (bytes === undefined) {
      const frames = this.wanted(mask).map((json) => `event: trade\ndata: ${json}\n\n`);
      this.sse.set(mask, (bytes = frames.length ? Buffer.from(frames.join("")) : null));
    }
    return bytes;
  }

  /** The WebSocket messages of the events `mask` wants. */
  wsFor(mask: number): Buffer[] {
    let messages = this.ws.get(mask);
    if (messages === undefined) this.ws.set(mask, (messages = this.wanted(mask).map((json) => Buffer.from(`{"event":"trade","data":${json}}`))));
    return messages;
  }

  private wanted(mask: number): string[] {
    return this.lines.filter((_, i) => (this.bits[i]! & mask) !== 0);
  }
}

/** A subscriber's transport (sse.ts, websocket.ts). */
export abstract class LiveConnection {
  lastWriteMs = 0;
  closed = false;

  constructor(
    readonly stream: StreamName,
    /** ENTRY_TYPE_BITS of the events wanted. */
    readonly typeMask: number,
    readonly lease: SlotLease,
  ) {}

  /** Writes the events its filter wants, if any; returns the bytes still queued for the client. */
  abstract sendEvents(events: SharedEvents): number;
  abstract sendKeepalive(): number;
  abstract queuedBytes(): number;
  /** Sends the `error` event and ends the stream. */
  abstract fail(detail: string): void;
  /** Ends the stream politely (the server is stopping). */
  abstract end(): void;
  /** Cuts the connection (a slow reader). */
  abstract drop(): void;
}

export interface HubOptions {
  readonly keepaliveMs: number;
  readonly maxQueuedBytes: number;
  readonly reconnect: LinkOptions;
  /** The slots' lease (LIVE_SLOT_LEASE_SECONDS, gate.ts): refreshed every third of it, so an open stream's never lapses. */
  readonly leaseMs?: number;
}

const DEFAULT_LEASE_MS = 60_000;
/** The keepalive check runs this often at most: a keepalive goes out within a second of falling due. */
const KEEPALIVE_TICK_MS = 1_000;

export interface HubStats {
  events: number;
  writes: number;
  keepalives: number;
  slowReadersDropped: number;
  /** The most bytes ever queued for one subscriber, right after a write. */
  maxQueuedBytes: number;
}

export class LiveHub {
  private readonly subscribers: Record<StreamName, Set<LiveConnection>> = { trades: new Set(), "trades-indexed": new Set() };
  private readonly link: UpstreamLink;
  private cancelTimers: Cancel[] = [];
  private readonly linkListeners = new Set<(event: LinkEvent) => void>();
  readonly stats: HubStats = { events: 0, writes: 0, keepalives: 0, slowReadersDropped: 0, maxQueuedBytes: 0 };

  constructor(
    upstream: LiveUpstream,
    private readonly scheduler: Scheduler,
    private readonly options: HubOptions,
    private readonly logger: LiveLogger,
  ) {
    this.link = new UpstreamLink(upstream, scheduler, options.reconnect, (channel, json) => this.publish(channel, json), (event) => this.linkEvent(event));
  }

  /** Subscribers now, per stream. */
  count(stream?: StreamName): number {
    return stream ? this.subscribers[stream].size : this.subscribers.trades.size + this.subscribers["trades-indexed"].size;
  }

  /** Listens to the upstream's connection events (tests, logs). */
  onLinkEvent(listener: (event: LinkEvent) => void): () => void {
    this.linkListeners.add(listener);
    return () => this.linkListeners.delete(listener);
  }

  attach(connection: LiveConnection): void {
    connection.lastWriteMs = this.scheduler.nowMs();
    this.subscribers[connection.stream].add(connection);
    metrics.streamConnections.inc({ stream: connection.stream });
    if (this.cancelTimers.length === 0) {
      this.cancelTimers = [this.scheduler.every(Math.min(KEEPALIVE_TICK_MS, this.options.keepaliveMs), () => this.keepalives()), this.scheduler.every(Math.floor((this.options.leaseMs ?? DEFAULT_LEASE_MS) / 3), () => this.refreshLeases())];
    }
    this.link.ensure();
  }

  /** Called by the transport when its connection has closed, however it closed. */
  detach(connection: LiveConnection): void {
    connection.closed = true;
    if (!this.subscribers[connection.stream].delete(connection)) return;
    metrics.streamConnections.dec({ stream: connection.stream });
    connection.lease.release().catch(() => undefined);
    if (this.count() === 0) this.stopTimers();
  }

  /** Ends every stream (the server is stopping) and the upstream subscription. */
  async close(): Promise<void> {
    this.stopTimers();
    for (const connection of this.all()) connection.end();
    await this.link.close();
  }

  /** One upstream message: the `data` of one or more trade events of the channel's stream, a line each. */
  publish(channel: string, message: string): void {
    const stream: StreamName | null = channel === LIVE_CHANNELS.trades ? "trades" : channel === LIVE_CHANNELS.indexed ? "trades-indexed" : null;
    if (!stream) return;
    const subscribers = this.subscribers[stream];
    if (subscribers.size === 0) return;
    const lines = message.split("\n");
    const bits = stream === "trades" ? lines.map(() => ALL_ENTRY_TYPES) : lines.map(entryTypeBit);
    const present = bits.reduce((all, bit) => all | bit, 0);
    this.stats.events += lines.length;
    const events = new SharedEvents(lines, bits);
    const now = this.scheduler.nowMs();
    for (const connection of subscribers) {
      if (connection.closed || (connection.typeMask & present) === 0) continue;
      if (this.overCap(connection, connection.queuedBytes())) continue;
      connection.lastWriteMs = now;
      this.stats.writes++;
      this.noteQueued(connection.sendEvents(events));
    }
  }

  private *all(): Generator<LiveConnection> {
    yield* [...this.subscribers.trades, ...this.subscribers["trades-indexed"]];
  }

  /** Cuts a subscriber that has not taken what it was sent: it never gets more than the cap, plus one message, queued. */
  private overCap(connection: LiveConnection, queuedBytes: number): boolean {
    if (queuedBytes <= this.options.maxQueuedBytes) return false;
    this.stats.slowReadersDropped++;
    connection.closed = true;
    connection.drop();
    return true;
  }

  private noteQueued(queuedBytes: number): void {
    if (queuedBytes > this.stats.maxQueuedBytes) this.stats.maxQueuedBytes = queuedBytes;
  }

  private keepalives(): void {
    const now = this.scheduler.nowMs();
    for (const connection of this.all()) {
      if (connection.closed || now - connection.lastWriteMs < this.options.keepaliveMs || this.overCap(connection, connection.queuedBytes())) continue;
      connection.lastWriteMs = now;
      this.stats.keepalives++;
      this.noteQueued(connection.sendKeepalive());
    }
  }

  private refreshLeases(): void {
    for (const connection of this.all()) if (!connection.closed) connection.lease.refresh().catch(() => undefined);
  }

  private stopTimers(): void {
    for (const cancel of this.cancelTimers) cancel();
    this.cancelTimers = [];
  }

  private linkEvent(event: LinkEvent): void {
    for (const listener of this.linkListeners) listener(event);
    if (event.type === "up" && event.attempt > 0) this.logger.info({ attempt: event.attempt }, "live upstream reconnected");
    else if (event.type === "retry") this.logger.warn({ attempt: event.attempt, delayMs: event.delayMs }, "live upstream down; reconnecting");
    else if (event.type === "lost") {
      this.logger.error({ attempts: event.attempts }, "live upstream lost; closing the streams");
      const detail = `The live trade upstream is unavailable (${event.attempts} reconnect attempts failed); reconnect later`;
      for (const connection of this.all()) {
        connection.closed = true;
        connection.fail(detail);
      }
    }
  }
}

/** The ENTRY_TYPE_BITS bit of an indexed event, 0 when it names none. */
function entryTypeBit(json: string): number {
  try {
    const entryType = (JSON.parse(json) as { entry_type?: unknown }).entry_type;
    return typeof entryType === "string" ? (ENTRY_TYPE_BITS[entryType as EntryType] ?? 0) : 0;
  } catch {
    return 0;
  }
}
