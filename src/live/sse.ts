/**
 * Server-sent events over the hijacked Fastify reply: `event: trade` frames, `: keepalive` comments, and an
 * `event: error` before the stream ends when the upstream is lost. The response is not kept alive once it ends.
 */
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { FastifyReply } from "fastify";
import type { SlotLease } from "../platform/slots.js";
import { LiveConnection, type LiveHub, type SharedEvents, type StreamName } from "./hub.js";

const KEEPALIVE = Buffer.from(": keepalive\n\n");

export class SseConnection extends LiveConnection {
  constructor(
    stream: StreamName,
    typeMask: number,
    lease: SlotLease,
    private readonly response: ServerResponse,
  ) {
    super(stream, typeMask, lease);
  }

  sendEvents(events: SharedEvents): number {
    const bytes = events.sseFor(this.typeMask);
    if (bytes) this.response.write(bytes);
    return this.response.writableLength;
  }

  queuedBytes(): number {
    return this.response.writableLength;
  }

  sendKeepalive(): number {
    this.response.write(KEEPALIVE);
    return this.response.writableLength;
  }

  fail(detail: string): void {
    this.response.end(`event: error\ndata: ${JSON.stringify({ detail })}\n\n`);
  }

  end(): void {
    this.response.end();
  }

  drop(): void {
    this.response.destroy();
  }
}

/** Takes the reply over (after the gate and the slot) and attaches it to the hub until the client goes. */
export function openSseStream(hub: LiveHub, reply: FastifyReply, stream: StreamName, typeMask: number, lease: SlotLease): void {
  reply.hijack();
  const response = reply.raw;
  if (response.socket === null || response.socket.destroyed) {
    // The client left while its slot was being taken.
    lease.release().catch(() => undefined);
    return;
  }
  response.shouldKeepAlive = false;
  response.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    "x-accel-buffering": "no",
  });
  response.flushHeaders();
  const connection = new SseConnection(stream, typeMask, lease, response);
  response.once("close", () => hub.detach(connection));
  hub.attach(connection);
}
