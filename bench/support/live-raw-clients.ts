/**
 * The live bench's clients: raw TCP sockets that send the SSE request or the WebSocket handshake themselves and
 * then only note, for each chunk that arrives, when it arrived and the `relay_received_at_ms` of each event in it.
 * No HTTP or WebSocket parser runs per message (the events' text is found in the chunked body or the frames as
 * is): what a client adds to an arrival time is reading its socket, little else.
 */
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

export type Transport = "SSE" | "WebSocket";

/** One client's view: when each event arrived and when the relay received its transaction. */
export interface Received {
  readonly arrivals: number[];
  readonly receivedAt: number[];
}

export interface RawClient {
  readonly received: Received;
  close(): void;
}

/** The number's end is part of the pattern: a number cut by a chunk's end is not taken. */
const RECEIVED_AT = /"relay_received_at_ms":(\d+)[,}]/g;
/** Kept from the end of a chunk for the next: longer than the field and its number. */
const CARRY = 48;

function noter(received: Received): (chunk: Buffer) => void {
  let carry = "";
  return (chunk) => {
    // The server's clock: relay_received_at_ms is Date.now() there, and performance.now() drifts from it when the
    // system clock is stepped.
    const atMs = Date.now();
    const text = carry + chunk.toString("latin1");
    let end = 0;
    for (const match of text.matchAll(RECEIVED_AT)) {
      received.arrivals.push(atMs);
      received.receivedAt.push(Number(match[1]));
      end = match.index + match[0].length;
    }
    carry = text.slice(Math.max(end, text.length - CARRY));
  };
}

const PATHS: Record<Transport, string> = { SSE: "/api/public/v1/live/trades", WebSocket: "/api/public/v1/live/ws" };
const EXPECTED: Record<Transport, string> = { SSE: "HTTP/1.1 200", WebSocket: "HTTP/1.1 101" };

function request(transport: Transport, host: string, key: string): string {
  const lines = [`GET ${PATHS[transport]} HTTP/1.1`, `Host: ${host}`, `X-API-Key: ${key}`];
  if (transport === "WebSocket") {
    lines.push(
      "Upgrade: websocket",
      "Connection: Upgrade",
      `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}`,
      "Sec-WebSocket-Version: 13",
      "Sec-WebSocket-Protocol: pelagic.live.v1",
    );
  }
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** Opens a stream; resolves once the answer's head is in (and is the expected one). */
export function openRawClient(transport: Transport, url: string, key: string): Promise<RawClient> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const received: Received = { arrivals: [], receivedAt: [] };
    const socket: Socket = connect(Number(port), hostname, () =>
      socket.write(request(transport, `${hostname}:${port}`, key)),
    );
    socket.once("data", (head: Buffer) => {
      if (!head.toString("latin1").startsWith(EXPECTED[transport]))
        return reject(new Error(head.toString().slice(0, 200)));
      socket.on("data", noter(received));
      resolve({ received, close: () => socket.destroy() });
    });
    socket.on("error", reject);
  });
}

export async function openRawClients(
  transport: Transport,
  url: string,
  key: string,
  count: number,
): Promise<RawClient[]> {
  const clients: RawClient[] = [];
  for (let i = 0; i < count; i += 50)
    clients.push(
      ...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => openRawClient(transport, url, key)))),
    );
  return clients;
}
