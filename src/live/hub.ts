/**
 * The streams of one API process: its subscribers (SSE or WebSocket, each a LiveConnection), fed from one
 * upstream subscription. Subscribers are grouped by stream, transport and filter: each message is filtered and
 * framed once per group, into one Buffer written as is to the TCP socket of every member (SSE's HTTP chunk and
 * WebSocket's frame included, so neither the HTTP response nor the ws library touches it per subscriber). One timer
 * sends keepalives to subscribers that heard nothing for LIVE_KEEPALIVE_SECONDS and another refreshes their slot
 * leases. A subscriber whose unsent bytes pass LIVE_CLIENT_BUFFER_BYTES when the next message comes is
 * disconnected: a slow reader costs the server at most that much, and one message. A closed connection leaves at
 * once, with its slot: nothing of it stays behind (no timer or listener of its own).
 */
import type { Socket } from "node:net";
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
 * How a transport puts events on the wire. `frame` makes the bytes of a message's events once for every subscriber
 * of a group; `keepalive` is written as is. Both are written straight to the subscriber's TCP socket.
 */
export interface Framing {
  /** Subscribers with the same framing and filter share a group, and so the bytes of each message. */
  readonly name: string;
  /** The bytes of these events (the `data` JSON of each, in order; at least one). */
  frame(events: readonly string[]): Buffer;
  readonly keepalive: Buffer;
}

/** The socket a transport writes its bytes to: Node's TCP socket under the HTTP response or the WebSocket. */
export type WireSocket = Pick<Socket, "write" | "writable" | "writableLength">;

/** A subscriber's transport (sse.ts, websocket.ts). */
export abstract class LiveConnection {
  lastWriteMs = 0;
  closed = false;

  constructor(
    readonly stream: StreamName,
    /** ENTRY_TYPE_BITS of the events wanted. */
    readonly typeMask: number,
    readonly lease: SlotLease,
    readonly framing: Framing,
    protected readonly wire: WireSocket,
  ) {}

  /** Writes bytes made by its framing; returns the bytes still queued for the client. */
  write(bytes: Buffer): number {
    if (this.wire.writable) this.wire.write(bytes);
    return this.wire.writableLength;
  }

  queuedBytes(): number {
    return this.wire.writableLength;
  }

  /** Sends the `error` event and ends the stream. */
  abstract fail(detail: string): void;
  /** Ends the stream politely (the server is stopping). */
  abstract end(): void;
  /** Cuts the connection (a slow reader). */
  abstract drop(): void;
}

/** The subscribers of one stream with one framing and one filter: each message is framed once for all of them. */
interface Group {
  readonly framing: Framing;
  readonly typeMask: number;
  readonly members: Set<LiveConnection>;
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
  /** Per stream, its groups by framing and filter (`${framing.name}/${typeMask}`). */
  private readonly groups: Record<StreamName, Map<string, Group>> = { trades: new Map(), "trades-indexed": new Map() };
  private subscriberCount: Record<StreamName, number> = { trades: 0, "trades-indexed": 0 };
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
    this.link = new UpstreamLink(
      upstream,
      scheduler,
      options.reconnect,
      (channel, json) => this.publish(channel, json),
      (event) => this.linkEvent(event),
    );
  }

  /** Subscribers now, per stream. */
  count(stream?: StreamName): number {
    return stream ? this.subscriberCount[stream] : this.subscriberCount.trades + this.subscriberCount["trades-indexed"];
  }

  /** Listens to the upstream's connection events (tests, logs). */
  onLinkEvent(listener: (event: LinkEvent) => void): () => void {
    this.linkListeners.add(listener);
    return () => this.linkListeners.delete(listener);
  }

  attach(connection: LiveConnection): void {
    connection.lastWriteMs = this.scheduler.nowMs();
    const groups = this.groups[connection.stream];
    const key = groupKey(connection);
    let group = groups.get(key);
    if (!group)
      groups.set(key, (group = { framing: connection.framing, typeMask: connection.typeMask, members: new Set() }));
    group.members.add(connection);
    this.subscriberCount[connection.stream]++;
    metrics.streamConnections.inc({ stream: connection.stream });
    if (this.cancelTimers.length === 0) {
      this.cancelTimers = [
        this.scheduler.every(Math.min(KEEPALIVE_TICK_MS, this.options.keepaliveMs), () => this.keepalives()),
        this.scheduler.every(Math.floor((this.options.leaseMs ?? DEFAULT_LEASE_MS) / 3), () => this.refreshLeases()),
      ];
    }
    this.link.ensure();
  }

  /** Called by the transport when its connection has closed, however it closed. */
  detach(connection: LiveConnection): void {
    connection.closed = true;
    const groups = this.groups[connection.stream];
    const key = groupKey(connection);
    const group = groups.get(key);
    if (!group?.members.delete(connection)) return;
    if (group.members.size === 0) groups.delete(key);
    this.subscriberCount[connection.stream]--;
    metrics.streamConnections.dec({ stream: connection.stream });
    connection.lease.release().catch(() => undefined);
    if (this.count() === 0) this.stopTimers();
  }

  /** Ends every stream (the server is stopping) and the upstream subscription. */
  async close(): Promise<void> {
    this.stopTimers();
    for (const connection of this.all()) {
      connection.closed = true;
      connection.end();
    }
    await this.link.close();
  }

  /**
   * One upstream message: the `data` of one or more trade events of the channel's stream, a line each. Each group
   * of subscribers gets the events its filter wants, framed once for the group; each subscriber is one write of
   * those shared bytes to its socket (the hot path: no per-subscriber allocation, closure or timer).
   */
  publish(channel: string, message: string): void {
    const stream: StreamName | null =
      channel === LIVE_CHANNELS.trades ? "trades" : channel === LIVE_CHANNELS.indexed ? "trades-indexed" : null;
    if (!stream || this.subscriberCount[stream] === 0) return;
    const lines = message.split("\n");
    const bits = stream === "trades" ? null : lines.map(entryTypeBit);
    const present = bits ? bits.reduce((all, bit) => all | bit, 0) : ALL_ENTRY_TYPES;
    this.stats.events += lines.length;
    const now = this.scheduler.nowMs();
    for (const group of this.groups[stream].values()) {
      const mask = group.typeMask;
      if ((mask & present) === 0) continue;
      const bytes = group.framing.frame(bits === null ? lines : lines.filter((_, i) => (bits[i]! & mask) !== 0));
      for (const connection of group.members) {
        if (connection.closed || this.overCap(connection, connection.queuedBytes())) continue;
        connection.lastWriteMs = now;
        this.stats.writes++;
        this.noteQueued(connection.write(bytes));
      }
    }
  }

  private *all(): Generator<LiveConnection> {
    const everyone: LiveConnection[] = [];
    for (const groups of Object.values(this.groups))
      for (const group of groups.values()) everyone.push(...group.members);
    yield* everyone;
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
      if (
        connection.closed ||
        now - connection.lastWriteMs < this.options.keepaliveMs ||
        this.overCap(connection, connection.queuedBytes())
      )
        continue;
      connection.lastWriteMs = now;
      this.stats.keepalives++;
      this.noteQueued(connection.write(connection.framing.keepalive));
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
    if (event.type === "up" && event.attempt > 0)
      this.logger.info({ attempt: event.attempt }, "live upstream reconnected");
    else if (event.type === "retry")
      this.logger.warn({ attempt: event.attempt, delayMs: event.delayMs }, "live upstream down; reconnecting");
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

const groupKey = (connection: LiveConnection) => `${connection.framing.name}/${connection.typeMask}`;

/** The ENTRY_TYPE_BITS bit of an indexed event, 0 when it names none. */
function entryTypeBit(json: string): number {
  try {
    const entryType = (JSON.parse(json) as { entry_type?: unknown }).entry_type;
    return typeof entryType === "string" ? (ENTRY_TYPE_BITS[entryType as EntryType] ?? 0) : 0;
  } catch {
    return 0;
  }
}
