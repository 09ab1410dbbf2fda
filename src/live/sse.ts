/**
 * Server-sent events over the hijacked Fastify reply: `event: trade` frames, `: keepalive` comments, and an
 * `event: error` before the stream ends when the upstream is lost. The response is not kept alive once it ends.
 * After the head, the hub writes each message's frames straight to the socket, already wrapped in their HTTP/1.1
 * chunk (the same bytes for every subscriber); the response itself only writes the head and the end.
 */
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply } from "fastify";
import type { SlotLease } from "../platform/slots.js";
import { LiveConnection, type Framing, type LiveHub, type StreamName } from "./hub.js";

const sseFrames = (events: readonly string[]) => events.map((json) => `event: trade\ndata: ${json}\n\n`).join("");

/** One HTTP/1.1 chunk: its size in hex, the bytes, CRLF. */
function chunk(text: string): Buffer {
  const body = Buffer.from(text);
  return Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n")]);
}

/** The usual response: chunked (so that a client tells the stream's end from a cut connection). */
export const SSE_CHUNKED: Framing = {
  name: "sse",
  frame: (events) => chunk(sseFrames(events)),
  keepalive: chunk(": keepalive\n\n"),
};
/** An HTTP/1.0 client's: the body runs to the connection's close. */
export const SSE_PLAIN: Framing = {
  name: "sse-plain",
  frame: (events) => Buffer.from(sseFrames(events)),
  keepalive: Buffer.from(": keepalive\n\n"),
};

export class SseConnection extends LiveConnection {
  constructor(
    stream: StreamName,
    typeMask: number,
    lease: SlotLease,
    private readonly response: ServerResponse,
    socket: Socket,
  ) {
    super(stream, typeMask, lease, response.chunkedEncoding ? SSE_CHUNKED : SSE_PLAIN, socket);
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
export function openSseStream(
  hub: LiveHub,
  reply: FastifyReply,
  stream: StreamName,
  typeMask: number,
  lease: SlotLease,
): void {
  reply.hijack();
  const response = reply.raw;
  const socket = response.socket;
  if (socket === null || socket.destroyed) {
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
  const connection = new SseConnection(stream, typeMask, lease, response, socket);
  response.once("close", () => hub.detach(connection));
  hub.attach(connection);
}
