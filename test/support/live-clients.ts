/** Clients of the live streams for tests and benches: SSE over a raw HTTP request, and WebSocket (ws). */
import { get, type IncomingHttpHeaders } from "node:http";
import type { Socket } from "node:net";
import WebSocket from "ws";

export interface SseFrame {
  readonly event?: string;
  readonly data?: string;
  readonly comment?: string;
  /** When it was parsed, ms since the epoch by the wall clock: the clock the server stamps `relay_received_at_ms` with
   * (performance.now() runs apart from it whenever the system clock is stepped, by seconds on a VM's first minutes). */
  readonly atMs: number;
}

export interface SseClient {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The JSON body of a refusal. */
  readonly body: unknown;
  readonly frames: SseFrame[];
  readonly socket: Socket;
  /** Resolves when the server ends the stream or the connection closes. */
  readonly ended: Promise<void>;
  /** `trade` events' data, parsed. */
  trades<T = Record<string, unknown>>(): T[];
  waitFor(what: string, done: (frames: SseFrame[]) => boolean, ms?: number): Promise<void>;
  close(): void;
}

function parseFrame(block: string, atMs: number): SseFrame {
  const frame: { event?: string; data?: string; comment?: string; atMs: number } = { atMs };
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) frame.comment = line.slice(1).trim();
    else if (line.startsWith("event:")) frame.event = line.slice(6).trim();
    else if (line.startsWith("data:"))
      frame.data = (frame.data === undefined ? "" : `${frame.data}\n`) + line.slice(5).trimStart();
  }
  return frame;
}

/** Polls `done` every few ms; the deadline only turns a hang into a failure naming what never happened. */
export async function until(what: string, done: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !(await done()); ) {
    if (Date.now() > end) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Opens an SSE stream; resolves once the answer's headers (and, for a refusal, its body) are in. */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: false }, (response) => {
      const frames: SseFrame[] = [];
      let buffer = "";
      let resolveEnded: () => void = () => undefined;
      const ended = new Promise<void>((r) => (resolveEnded = r));
      response.socket.once("close", () => resolveEnded());
      response.on("end", () => resolveEnded());
      response.on("error", () => resolveEnded());
      const client = (body: unknown): SseClient => ({
        status: response.statusCode ?? 0,
        headers: response.headers,
        body,
        frames,
        socket: response.socket,
        ended,
        trades: <T>() => frames.filter((f) => f.event === "trade").map((f) => JSON.parse(f.data ?? "null") as T),
        waitFor: (what, done, ms) => until(what, () => done(frames), ms),
        close: () => response.destroy(),
      });
      if (response.statusCode !== 200) {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve(client(text ? JSON.parse(text) : null)));
        return;
      }
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        const atMs = Date.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          frames.push(parseFrame(buffer.slice(0, end), atMs));
          buffer = buffer.slice(end + 2);
        }
      });
      resolve(client(null));
    });
    request.on("error", reject);
  });
}

export interface WsClient {
  readonly socket: WebSocket;
  /** Messages as parsed JSON. */
  readonly messages: Array<{ event: string; data: Record<string, unknown> }>;
  readonly closed: Promise<{ code: number; reason: string }>;
  waitFor(what: string, done: (messages: WsClient["messages"]) => boolean, ms?: number): Promise<void>;
}

/** Opens a WebSocket; resolves when open, or with the HTTP status and body of a refused handshake. */
export function openWs(
  url: string,
  options: { headers?: Record<string, string>; protocols?: string[] } = {},
): Promise<WsClient | { refused: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
    const messages: WsClient["messages"] = [];
    const closed = new Promise<{ code: number; reason: string }>((r) =>
      socket.once("close", (code, reason) => r({ code, reason: reason.toString() })),
    );
    socket.on("message", (data) => messages.push(JSON.parse(String(data)) as WsClient["messages"][number]));
    socket.once("open", () =>
      resolve({ socket, messages, closed, waitFor: (what, done, ms) => until(what, () => done(messages), ms) }),
    );
    socket.once("unexpected-response", (_request, response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () =>
        resolve({ refused: response.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : null }),
      );
    });
    socket.once("error", (error) => reject(error));
  });
}
