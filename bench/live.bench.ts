/**
 * The live streams under 1,000 concurrent clients, over SSE and over WebSocket: the relay's added latency beyond
 * the 700 ms hold (each client's arrival time of each event, less the relay's receipt of its transaction and the
 * hold; p50, p99), and the server's memory per idle connection (heap + external, and resident size, after a full
 * collection, against the same process without connections). The server runs in its own process
 * (bench/support/live-server.ts); clients here, on the same machine (their reading competes with the server for the
 * two cores). Goals: p99 under 5 ms added; under 20 KiB per idle connection. BENCH_LIVE_CLIENTS changes the count.
 */
import { fork, type ChildProcess } from "node:child_process";
import { connect, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import type { BenchRequest, Fanout } from "./support/live-server.js";

const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 1_000);
const TRANSACTIONS = 100;
const PER_SECOND = 10;
const HOLD_MS = 700;

interface Reply {
  type: string;
  url?: string;
  key?: string;
  memory?: NodeJS.MemoryUsage;
  connections?: number;
  fanouts?: Fanout[];
}

const preciseNowMs = () => performance.timeOrigin + performance.now();

function ask(child: ChildProcess, request: BenchRequest | { type: string }): Promise<Reply> {
  return new Promise((resolve) => {
    const onMessage = (reply: Reply) => {
      if (reply.type !== request.type) return;
      child.off("message", onMessage);
      resolve(reply);
    };
    child.on("message", onMessage);
    child.send(request);
  });
}

/** One client's view: when each event arrived and when the relay received its transaction. */
interface Received {
  arrivals: number[];
  receivedAt: number[];
}

const RECEIVED_AT = /"relay_received_at_ms":(\d+)/g;

function note(into: Received, atMs: number, text: string): void {
  for (const match of text.matchAll(RECEIVED_AT)) {
    into.arrivals.push(atMs);
    into.receivedAt.push(Number(match[1]));
  }
}

interface Client {
  received: Received;
  close(): void;
}

/** A raw SSE client: a socket, the request, and every chunk noted as it arrives (frames are written whole). */
function sseClient(url: string, key: string): Promise<Client> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const received: Received = { arrivals: [], receivedAt: [] };
    const socket: Socket = connect(Number(port), hostname, () => socket.write(`GET /api/public/v1/live/trades HTTP/1.1\r\nHost: ${hostname}\r\nX-API-Key: ${key}\r\n\r\n`));
    socket.setEncoding("utf8");
    socket.once("data", (head: string) => {
      if (!head.startsWith("HTTP/1.1 200")) return reject(new Error(head.slice(0, 200)));
      socket.on("data", (chunk: string) => note(received, preciseNowMs(), chunk));
      resolve({ received, close: () => socket.destroy() });
    });
    socket.on("error", reject);
  });
}

function wsClient(url: string, key: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const received: Received = { arrivals: [], receivedAt: [] };
    const socket = new WebSocket(`${url.replace("http", "ws")}/api/public/v1/live/ws`, ["pelagic.live.v1", `pelagic.key.${key}`]);
    socket.on("message", (data) => note(received, preciseNowMs(), String(data)));
    socket.once("open", () => resolve({ received, close: () => socket.terminate() }));
    socket.once("error", reject);
  });
}

async function openClients(open: () => Promise<Client>, count: number): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < count; i += 50) clients.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, open))));
  return clients;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

async function waitForConnections(child: ChildProcess, count: number): Promise<Reply> {
  for (;;) {
    const reply = await ask(child, { type: "count" });
    if (reply.connections === count) return reply;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function measure(transport: "SSE" | "WebSocket", child: ChildProcess, url: string, key: string): Promise<void> {
  const open = () => (transport === "SSE" ? sseClient(url, key) : wsClient(url, key));
  // Warm-up: the code paths compiled and the allocator's pools in place before the baseline.
  for (const c of await openClients(open, 50)) c.close();
  await waitForConnections(child, 0);
  const before = (await ask(child, { type: "memory" })).memory!;
  const clients = await openClients(open, CLIENTS);
  await waitForConnections(child, CLIENTS);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const idle = (await ask(child, { type: "memory" })).memory!;
  const heap = idle.heapUsed + idle.external - before.heapUsed - before.external;
  const rss = idle.rss - before.rss;

  await ask(child, { type: "fanouts" });
  await ask(child, { type: "publish", transactions: TRANSACTIONS, perSecond: PER_SECOND });
  await new Promise((resolve) => setTimeout(resolve, HOLD_MS + 1_500));
  // At the server: the k-th subscriber's write is taken as k/N of the way through the hub's loop over them.
  const atServer: number[] = [];
  const timerLate: number[] = [];
  const fanOut: number[] = [];
  const fanOutCpu: number[] = [];
  for (const f of (await ask(child, { type: "fanouts" })).fanouts!) {
    timerLate.push(f.startMs - f.dueMs);
    fanOut.push(f.endMs - f.startMs);
    fanOutCpu.push(f.cpuMs);
    for (let k = 1; k <= CLIENTS; k++) atServer.push(f.startMs + ((f.endMs - f.startMs) * k) / CLIENTS - f.dueMs);
  }
  atServer.sort((a, b) => a - b);
  timerLate.sort((a, b) => a - b);
  fanOut.sort((a, b) => a - b);
  fanOutCpu.sort((a, b) => a - b);
  const added: number[] = [];
  let missing = 0;
  for (const c of clients) {
    missing += 2 * TRANSACTIONS - c.received.arrivals.length;
    c.received.arrivals.forEach((at, i) => added.push(at - c.received.receivedAt[i]! - HOLD_MS));
  }
  added.sort((a, b) => a - b);
  const ms = (sorted: number[]) => `p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;
  console.log(
    [
      `${transport}, ${CLIENTS} clients:`,
      `  added latency beyond the hold, at the clients: ${ms(added)}, max ${added.at(-1)!.toFixed(2)} ms (${added.length.toLocaleString("en-US")} deliveries${missing ? `, ${missing} missing` : ""})`,
      `  added latency beyond the hold, at the server (handed to the socket): ${ms(atServer)}; of which the hold's timer firing late ${ms(timerLate)}, one message to all ${CLIENTS} sockets ${ms(fanOut)} (CPU time: ${ms(fanOutCpu)})`,
      `  memory per idle connection: heap+external ${kib(heap / CLIENTS)}, resident ${kib(rss / CLIENTS)}`,
    ].join("\n"),
  );
  for (const c of clients) c.close();
  await waitForConnections(child, 0);
}

async function main(): Promise<void> {
  const child = fork(fileURLToPath(new URL("./support/live-server.ts", import.meta.url)), [], { execArgv: ["--import", "tsx", "--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const ready = await new Promise<Reply>((resolve) => child.once("message", resolve));
  console.log(`${TRANSACTIONS} MINT transactions (2 fills each) at ${PER_SECOND}/s to every client; hold ${HOLD_MS} ms`);
  try {
    await measure("SSE", child, ready.url!, ready.key!);
    await measure("WebSocket", child, ready.url!, ready.key!);
  } finally {
    child.disconnect();
  }
}

await main();
