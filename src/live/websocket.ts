/**
 * The WebSocket transport of the same streams, on one path (`?stream=trades|trades-indexed&types=`). The
 * handshake is an ordinary request to that route, so the gate (key, plan, budget) and the stream slot apply as
 * they do to SSE, and a refusal is an HTTP answer (401/403/422/429) before any upgrade. Browsers cannot set
 * headers on a WebSocket: they offer the key as a subprotocol, `pelagic.key.<API_KEY>`, beside `pelagic.live.v1`,
 * which the server selects (the key is never echoed back). Messages are JSON text: `{"event":"trade","data":{…}}`
 * (framed once per message and group by the hub, WS_FRAMING),
 * and `{"event":"error","data":{"detail":…}}` before a close with code 1011 when the upstream is lost; protocol
 * pings keep a quiet connection alive.
 */
import { ServerResponse, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { WebSocketServer, type WebSocket } from "ws";
import type { SlotLease } from "../platform/slots.js";
import { LiveConnection, type Framing, type LiveHub, type StreamName } from "./hub.js";

export const WS_PROTOCOL = "pelagic.live.v1";
export const WS_KEY_PROTOCOL_PREFIX = "pelagic.key.";

/** Close codes: 1001 going away (the server stops), 1011 the upstream is lost. */
const GOING_AWAY = 1001;
const UPSTREAM_LOST = 1011;

/** One unmasked, final text frame (RFC 6455 §5.2; a server's frames are never masked). */
export function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const length = payload.length;
  const head = Buffer.alloc(length < 126 ? 2 : length < 65_536 ? 4 : 10);
  head[0] = 0x81;
  if (length < 126) head[1] = length;
  else if (length < 65_536) {
    head[1] = 126;
    head.writeUInt16BE(length, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([head, payload]);
}

/** A message per event, all of a message's frames in one buffer; protocol pings as keepalives. */
export const WS_FRAMING: Framing = {
  name: "ws",
  frame: (events) => Buffer.concat(events.map((json) => textFrame(`{"event":"trade","data":${json}}`))),
  keepalive: Buffer.from([0x89, 0x00]),
};

/**
 * The hub writes its frames to the TCP socket under the WebSocket, beside the ws library: whole frames, and only
 * while the socket is open (ws writes its own frames, with compression off, whole and at once too).
 */
export class WsConnection extends LiveConnection {
  constructor(
    stream: StreamName,
    typeMask: number,
    lease: SlotLease,
    private readonly socket: WebSocket,
    tcp: Socket,
  ) {
    super(stream, typeMask, lease, WS_FRAMING, tcp);
  }

  override write(bytes: Buffer): number {
    // After a close frame (the client's or ours) no data frame may follow.
    if (this.socket.readyState !== this.socket.OPEN) return this.queuedBytes();
    return super.write(bytes);
  }

  fail(detail: string): void {
    this.socket.send(JSON.stringify({ event: "error", data: { detail } }));
    this.socket.close(UPSTREAM_LOST, "upstream unavailable");
  }

  end(): void {
    this.socket.close(GOING_AWAY, "server stopping");
  }

  drop(): void {
    this.socket.terminate();
  }
}

const UPGRADE = Symbol("pelagic.websocketUpgrade");

interface UpgradeRequest extends IncomingMessage {
  [UPGRADE]?: { socket: Duplex; head: Buffer; headers?: Record<string, unknown> };
}

/** Whether the request is a WebSocket handshake that reached the route through `acceptWebSockets`. */
export function isWebSocketHandshake(request: FastifyRequest): boolean {
  return (request.raw as UpgradeRequest)[UPGRADE] !== undefined;
}

/** A key offered as a subprotocol (`pelagic.key.<API_KEY>`), presented to the gate as X-API-Key. */
function presentProtocolKey(request: IncomingMessage): void {
  const offered = request.headers["sec-websocket-protocol"];
  if (
    typeof offered !== "string" ||
    request.headers["x-api-key"] !== undefined ||
    request.headers.authorization !== undefined
  )
    return;
  const key = offered
    .split(",")
    .map((p) => p.trim())
    .find((p) => p.startsWith(WS_KEY_PROTOCOL_PREFIX));
  if (key) request.headers["x-api-key"] = key.slice(WS_KEY_PROTOCOL_PREFIX.length);
}

/** A socket's errors once it is ours: the client is gone (a reset, a broken pipe), and the socket closes itself. */
const ignoreGone = () => undefined;

/**
 * Routes every upgrade request through the app (hooks, gate, the route's handler), as an ordinary request: on
 * `path`, the WebSocket route completes the handshake (`upgradeToStream`); elsewhere the route answers as it would
 * without the Upgrade header (404 `{"detail"}` on an unknown path), and the connection ends with the answer.
 */
export function acceptWebSockets(app: FastifyInstance, path: string): WebSocketServer {
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    clientTracking: false,
    maxPayload: 4_096,
    handleProtocols: (offered) => (offered.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  // The 101 answer carries the rate headers the gate set, as any other answer does.
  wss.on("headers", (lines: string[], request: UpgradeRequest) => {
    for (const [name, value] of Object.entries(request[UPGRADE]?.headers ?? {}))
      if (value !== undefined) lines.push(`${name}: ${String(value)}`);
  });
  app.server.on("upgrade", (request: UpgradeRequest, socket: Duplex, head: Buffer) => {
    // Node's HTTP server stops listening to a socket's errors when it hands the socket over: without a listener
    // from this moment on, a client's reset would be thrown from the event loop and stop the process.
    socket.on("error", ignoreGone);
    if ((request.url ?? "/").split("?", 1)[0] === path) {
      presentProtocolKey(request);
      request[UPGRADE] = { socket, head };
    }
    const response = new ServerResponse(request);
    response.on("error", ignoreGone);
    response.shouldKeepAlive = false;
    response.assignSocket(socket as Socket);
    // A refusal (401, 429, ...) or any other path's answer is an ordinary answer; the connection ends with it.
    response.once("finish", () => socket.end());
    app.routing(request, response);
  });
  return wss;
}

/** Completes the handshake of a request `isWebSocketHandshake` accepted and attaches the socket to the hub. */
export function upgradeToStream(
  wss: WebSocketServer,
  hub: LiveHub,
  request: FastifyRequest,
  reply: FastifyReply,
  stream: StreamName,
  typeMask: number,
  lease: SlotLease,
): void {
  const upgrade = (request.raw as UpgradeRequest)[UPGRADE]!;
  const { socket, head } = upgrade;
  reply.hijack();
  if (socket.destroyed) {
    lease.release().catch(() => undefined);
    return;
  }
  upgrade.headers = reply.getHeaders();
  let upgraded = false;
  // A handshake ws refuses (bad key or version) closes the socket without a connection: its slot goes back.
  socket.once("close", () => upgraded || lease.release().catch(() => undefined));
  wss.handleUpgrade(request.raw, socket, head, (ws) => {
    upgraded = true;
    const connection = new WsConnection(stream, typeMask, lease, ws, socket as Socket);
    ws.on("error", () => undefined);
    ws.once("close", () => hub.detach(connection));
    hub.attach(connection);
  });
}
