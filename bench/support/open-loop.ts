/**
 * Latency at a fixed arrival rate, measured open-loop: request i is due at start + i / rate, whatever happened to
 * the earlier ones, and its latency runs from when it was due to the last byte of its answer. A slow answer or a
 * stalled load generator therefore counts against every request it delays, once each: no coordinated omission,
 * and no correction to add afterwards.
 *
 * Why not autocannon's fixed-rate mode: each connection sends its quota for the second back to back and then
 * waits (bursts at full speed, not a rate), and its coordinated-omission correction takes `Math.ceil(1 / rate)` as
 * the expected interval, 1 ms whatever the rate, so each answer slower than 1 ms adds a synthetic sample per
 * millisecond (autocannon 8, lib/run.js). Both inflate p99.
 *
 * The client is minimal on purpose (it shares the 2 cores with the service): keep-alive sockets, one request at a
 * time on each, a new socket when every open one is busy, answers read by their content-length.
 */
import { connect, type Socket } from "node:net";

export interface OpenLoopOptions {
  /** Requests per second. */
  readonly rate: number;
  readonly seconds: number;
  readonly method?: "GET" | "POST";
  readonly paths: readonly string[];
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface OpenLoopFigures {
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
  readonly non2xx: number;
}

const MAX_SOCKETS = 512;

/** The service fell so far behind the rate that MAX_SOCKETS requests were waiting: no percentile would mean much. */
export class FellBehind extends Error {
  constructor() {
    super(`open-loop client: more than ${MAX_SOCKETS} requests outstanding; the service is far behind the rate`);
  }
}
const HEADER_END = Buffer.from("\r\n\r\n");

/**
 * One keep-alive socket; `send` resolves with the status code once the whole answer has arrived. Only the head is
 * kept until it ends; the body's bytes are counted, not gathered (a 26 KB answer arrives in several chunks).
 */
class Connection {
  private readonly socket: Socket;
  private head: Buffer = Buffer.alloc(0);
  /** Body bytes still to come once the head has been read; undefined while it has not. */
  private remaining: number | undefined;
  private status = 0;
  private waiting: ((status: number) => void) | undefined;
  busy = false;
  /** The server closed it (an idle keep-alive socket past the server's timeout): never used again. */
  closed = false;

  constructor(
    host: string,
    port: number,
    private readonly onError: (error: Error) => void,
  ) {
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on("data", (chunk: Buffer) => this.receive(chunk));
    this.socket.on("error", onError);
    this.socket.on("close", () => {
      this.closed = true;
      if (this.waiting) onError(new Error("open-loop client: the server closed a connection before answering"));
    });
  }

  send(request: Buffer): Promise<number> {
    this.busy = true;
    this.socket.write(request);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  private receive(chunk: Buffer): void {
    if (this.remaining === undefined) {
      this.head = this.head.length ? Buffer.concat([this.head, chunk]) : chunk;
      const headerEnd = this.head.indexOf(HEADER_END);
      if (headerEnd < 0) return;
      const head = this.head.subarray(0, headerEnd).toString("latin1");
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (!length) return this.onError(new Error(`open-loop client: an answer without content-length:\n${head}`));
      this.status = Number(head.slice(9, 12));
      this.remaining = Number(length[1]) - (this.head.length - headerEnd - HEADER_END.length);
      this.head = Buffer.alloc(0);
    } else {
      this.remaining -= chunk.length;
    }
    if (this.remaining > 0) return;
    if (this.remaining < 0)
      return this.onError(new Error("open-loop client: bytes after the answer (one request at a time per socket)"));
    this.remaining = undefined;
    this.busy = false;
    const done = this.waiting;
    this.waiting = undefined;
    done?.(this.status);
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * Sends `rate` requests per second for `seconds` and reports latency percentiles in milliseconds. Over several bases
 * (the scaled mode's API processes) request i goes to base i modulo their number: round robin.
 */
export async function openLoop(base: string | readonly string[], options: OpenLoopOptions): Promise<OpenLoopFigures> {
  const servers = (typeof base === "string" ? [base] : base).map((b) => {
    const url = new URL(b);
    return {
      url,
      requests: options.paths.map((path) => requestBytes(url.host, path, options)),
      connections: [] as Connection[],
    };
  });
  let fail: (error: Error) => void = () => undefined;
  const connection = (server: (typeof servers)[number]) => {
    let free = server.connections.find((c) => !c.busy && !c.closed);
    if (!free) {
      server.connections = server.connections.filter((c) => !c.closed);
      if (server.connections.length >= MAX_SOCKETS) throw new FellBehind();
      free = new Connection(server.url.hostname, Number(server.url.port), (error) => fail(error));
      server.connections.push(free);
    }
    return free;
  };

  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const latencies = new Float64Array(total);
  let non2xx = 0;
  let sent = 0;
  let answered = 0;
  const start = performance.now();
  const closeAll = () => {
    for (const server of servers) for (const c of server.connections) c.close();
  };
  await new Promise<void>((resolve, reject) => {
    fail = reject;
    const tick = () => {
      const now = performance.now();
      try {
        for (; sent < total && start + sent * interval <= now; sent++) {
          const due = start + sent * interval;
          const index = sent;
          const server = servers[index % servers.length]!;
          void connection(server)
            .send(server.requests[Math.floor(index / servers.length) % server.requests.length] as Buffer)
            .then((status) => {
              latencies[index] = performance.now() - due;
              if (status < 200 || status > 299) non2xx++;
              if (++answered === total) resolve();
            });
        }
      } catch (error) {
        return reject(error as Error);
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
    };
    tick();
  }).finally(closeAll);
  const sorted = latencies.sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
  return { p50: at(0.5), p99: at(0.99), p999: at(0.999), max: sorted[sorted.length - 1] as number, non2xx };
}

function requestBytes(host: string, path: string, options: OpenLoopOptions): Buffer {
  const headers: Record<string, string> = { host, connection: "keep-alive", ...options.headers };
  if (options.body !== undefined) {
    headers["content-type"] ??= "application/json";
    headers["content-length"] = String(Buffer.byteLength(options.body));
  }
  const head = `${options.method ?? "GET"} ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
  return Buffer.from(head + (options.body ?? ""));
}
