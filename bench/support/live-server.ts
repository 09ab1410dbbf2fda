/**
 * The server side of bench/live.bench.ts, in a process of its own so that its memory and CPU are measured alone: the
 * API (SQLite store, in-process platform) with the live streams, and the relay fed by trades this process makes up
 * (MINT pairs, as the venue's feed shows them). Driven over IPC: `publish` (transactions at a rate), `memory`
 * (after a full collection), `count` (open streams), `fanouts` (the hub's timing of each message since the last
 * ask), `bare` (the floor: the same bytes written by a plain loop to every connection's socket, no hub).
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKey } from "../../src/accounts/keys.js";
import { buildApp } from "../../src/api/app.js";
import { loadConfig } from "../../src/config/index.js";
import { LIVE_TRADES_CHANNEL, type LiveTradeMessage } from "../../src/ingest/live-message.js";
import { LiveConnection } from "../../src/live/hub.js";
import { LiveRelay, realScheduler, type LiveHub } from "../../src/live/index.js";
import { SSE_CHUNKED } from "../../src/live/sse.js";
import { WS_FRAMING } from "../../src/live/websocket.js";
import { createPlatform } from "../../src/platform/index.js";
import { createLogger } from "../../src/platform/logger.js";
import { openStore } from "../../src/store/database.js";
import { migrateStore } from "../../src/store/migrate.js";

export type BenchRequest =
  | { type: "publish"; transactions: number; perSecond: number }
  | { type: "memory" }
  | { type: "count" }
  | { type: "fanouts" }
  | { type: "bare"; transport: "SSE" | "WebSocket"; rounds: number };

export interface CpuMs {
  user: number;
  system: number;
}

/** One upstream message's fan-out, in ms since the epoch. */
export interface Fanout {
  /** When its hold ended (the relay's receipt of the transaction plus the hold). */
  dueMs: number;
  /** When the hub began writing it, and when it had written it to every subscriber. */
  startMs: number;
  endMs: number;
  /** When each subscriber's write returned (the bytes in the kernel's hands), in the hub's order. */
  writtenMs: number[];
  /** The process's CPU time meanwhile: what the fan-out costs without waiting for a core. */
  cpu: CpuMs;
}

export interface Reply {
  type: string;
  url?: string;
  key?: string;
  memory?: NodeJS.MemoryUsage;
  connections?: number;
  fanouts?: Fanout[];
  /** The server's CPU time since it started. */
  cpu?: CpuMs;
  /** `bare`: each round's wall and CPU time. */
  bare?: Array<{ wallMs: number; cpu: CpuMs }>;
}

const cpuMs = (usage: NodeJS.CpuUsage): CpuMs => ({ user: usage.user / 1000, system: usage.system / 1000 });

const dir = mkdtempSync(join(tmpdir(), "pelagic-live-bench-"));
const store = await openStore({ kind: "sqlite", sqlitePath: join(dir, "bench.sqlite") });
await migrateStore(store);
// Several servers (BENCH_LIVE_SERVERS) share a Redis: the first runs the relay, every one fans out to its own clients.
const redisUrl = process.env.LIVE_BENCH_REDIS_URL || undefined;
const runsRelay = process.env.LIVE_BENCH_RELAY !== "no";
const platform = await createPlatform({
  redisUrl,
  redisPrefix: process.env.LIVE_BENCH_REDIS_PREFIX ?? "",
  cacheMaxEntries: 1_000,
  cacheStaleSeconds: 60,
});
const config = loadConfig({
  LOG_LEVEL: "silent",
  SSE_CONNECTIONS_PER_KEY: "100000",
  RATE_PREMIUM_PER_MINUTE: "100000",
});
let hub: LiveHub | undefined;
const app = await buildApp(
  {
    config,
    store,
    platform,
    expectedSources: [],
    startedAt: platform.clock.now(),
    live: { onHub: (created) => (hub = created) },
  },
  createLogger("silent"),
);
const url = await app.listen({ port: 0, host: "127.0.0.1" });
const { key } = await createKey(store.db, { account: "bench", plan: "premium", now: platform.clock.now() });
const relay = new LiveRelay({
  pubsub: platform.pubsub,
  store,
  logger: createLogger("silent"),
  scheduler: realScheduler(),
  holdMs: config.live.settlementHoldMs,
});
if (runsRelay) await relay.start();

// Times each message's fan-out, around the hub's own method, and each subscriber's write (the timing is this
// bench's, not the hub's: a clock read and a push per write).
const preciseNowMs = () => performance.timeOrigin + performance.now();
let fanouts: Fanout[] = [];
let writes: number[] | null = null;
const write = LiveConnection.prototype.write;
LiveConnection.prototype.write = function timedWrite(this: LiveConnection, bytes: Buffer): number {
  const queued = write.call(this, bytes);
  writes?.push(preciseNowMs());
  return queued;
};
let lastMessage = "";
const fanOut = hub!.publish.bind(hub);
hub!.publish = (channel, message) => {
  writes = [];
  const startMs = preciseNowMs();
  const cpu = process.cpuUsage();
  fanOut(channel, message);
  const used = cpuMs(process.cpuUsage(cpu));
  fanouts.push({
    // On this bench's clock: the stamp is the wall clock's, which runs apart from performance.now() when stepped.
    dueMs:
      Number(/"relay_received_at_ms":(\d+)/.exec(message)?.[1]) +
      config.live.settlementHoldMs -
      (Date.now() - preciseNowMs()),
    startMs,
    endMs: preciseNowMs(),
    writtenMs: writes,
    cpu: used,
  });
  writes = null;
  lastMessage = message;
};

// Every connection's socket, for the floor's plain loop.
const sockets = new Set<Socket>();
app.server.on("connection", (socket: Socket) => {
  sockets.add(socket);
  socket.once("close", () => sockets.delete(socket));
});

/** The last message's bytes, its events renamed so that clients do not count them, written to every socket in a plain loop. */
async function bare(transport: "SSE" | "WebSocket", rounds: number): Promise<Reply["bare"]> {
  const events = lastMessage.replaceAll('"relay_received_at_ms"', '"bare_received_at_ms"').split("\n");
  const bytes = (transport === "SSE" ? SSE_CHUNKED : WS_FRAMING).frame(events);
  const figures: NonNullable<Reply["bare"]> = [];
  for (let round = 0; round < rounds; round++) {
    const targets = [...sockets];
    const started = preciseNowMs();
    const cpu = process.cpuUsage();
    for (const socket of targets) socket.write(bytes);
    figures.push({ cpu: cpuMs(process.cpuUsage(cpu)), wallMs: preciseNowMs() - started });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return figures;
}

let made = 0;
function mintPair(receivedAtMs: number): LiveTradeMessage[] {
  const n = made++;
  const tx = `0x${n.toString(16).padStart(64, "0")}`;
  return [1, 0].map((outcomeIndex) => ({
    type: "trade",
    via: "rtds",
    key: `data:${tx}:${outcomeIndex}`,
    txHash: tx,
    wallet: `0x${(2 * n + outcomeIndex + 1).toString(16).padStart(40, "0")}`,
    conditionId: `0x${"c".repeat(64)}`,
    tokenId: `${71321045679252212594626385532706912750332728571942532289631379312455583992563n + BigInt(outcomeIndex)}`,
    outcomeIndex,
    outcome: outcomeIndex === 0 ? "YES" : "NO",
    outcomeLabel: outcomeIndex === 0 ? "Yes" : "No",
    side: "BUY",
    size: 250_000_000,
    price: outcomeIndex === 0 ? 970_000 : 30_000,
    usd: outcomeIndex === 0 ? 242_500_000 : 7_500_000,
    fee: null,
    ts: Math.floor(receivedAtMs / 1000),
    receivedAtMs,
    title: "Will the bench finish before lunch?",
    slug: "will-the-bench-finish",
    eventSlug: "bench-finish",
    name: null,
    pseudonym: "Gleaming-Whale",
    profileImage: "https://example.invalid/whale.png",
    bio: null,
  }));
}

async function publish(transactions: number, perSecond: number): Promise<void> {
  const started = performance.now();
  for (let i = 0; i < transactions; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const receivedAtMs = Date.now();
    for (const row of mintPair(receivedAtMs)) await platform.pubsub.publish(LIVE_TRADES_CHANNEL, JSON.stringify(row));
  }
}

process.on("message", (request: BenchRequest) => {
  void (async () => {
    const reply: Reply = { type: request.type };
    if (request.type === "publish") await publish(request.transactions, request.perSecond);
    if (request.type === "memory") {
      for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
      reply.memory = process.memoryUsage();
    }
    if (request.type === "bare") reply.bare = await bare(request.transport, request.rounds);
    if (request.type === "fanouts") {
      reply.fanouts = fanouts;
      fanouts = [];
    }
    reply.connections = hub?.count() ?? 0;
    reply.cpu = cpuMs(process.cpuUsage());
    process.send?.(reply);
  })();
});
process.on("disconnect", () => {
  void (async () => {
    if (runsRelay) await relay.stop();
    await app.close();
    await platform.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  })();
});
process.send?.({ type: "ready", url, key });
