/**
 * The live streams under 1,000 concurrent clients, over SSE and over WebSocket: the relay's added latency beyond
 * the 700 ms hold, and the server's memory per idle connection (heap + external, and resident size, after a full
 * collection, against the same process without connections). Goals: p99 under 5 ms added; under 20 KiB per idle
 * connection. BENCH_LIVE_CLIENTS changes the count.
 *
 * The server runs in a process of its own (bench/support/live-server.ts) and the clients in this one, so the
 * server's CPU and memory are its own. Added latency is given twice: at the server, from when the hold ended to
 * when each subscriber's write returned (the bytes in the kernel's hands: what the relay adds), and at the clients,
 * on arrival (which adds the clients' own reading: on this machine they share the cores with the server). Beside
 * it, the floor: the same bytes written to the same sockets by a plain loop, without the hub. And what the machine
 * was doing: load average, and the cores busy with other processes while the trades flowed (the machine is shared).
 *
 * Then the scaled mode's shape (BENCH_LIVE_SERVERS, default "1,2": each count in turn): that many server processes
 * on one Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379; skipped if it does not answer), the first running
 * the relay, each fanning out to its share of the clients. One process writing to 1,000 sockets costs the kernel's floor per socket (printed below), so its
 * last subscriber waits for all the writes before it; spreading subscribers over processes divides that.
 */
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { openRawClients, type Transport } from "./support/live-raw-clients.js";
import type { BenchRequest, CpuMs, Reply } from "./support/live-server.js";

const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 1_000);
const TRANSACTIONS = 100;
const PER_SECOND = 10;
const HOLD_MS = 700;
const BARE_ROUNDS = 20;
const SERVER_COUNTS = (process.env.BENCH_LIVE_SERVERS ?? "1,2").split(",").map(Number);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

interface Server {
  readonly child: ChildProcess;
  readonly url: string;
  readonly key: string;
  /** How many of the clients connect to this server. */
  readonly clients: number;
}

function ask(child: ChildProcess, request: BenchRequest): Promise<Reply> {
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

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const sorted = (values: number[]) => values.sort((a, b) => a - b);
const ms = (values: number[]) => {
  const s = sorted(values);
  return `p50 ${percentile(s, 50).toFixed(2)} ms, p99 ${percentile(s, 99).toFixed(2)} ms, max ${s.at(-1)!.toFixed(2)} ms`;
};
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const cpuTotal = (cpu: CpuMs) => cpu.user + cpu.system;

/** The machine's busy and total CPU time (ms, all cores) so far, from /proc/stat; null where there is none. */
function machineCpu(): { busyMs: number; totalMs: number } | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = fields[3]! + fields[4]!;
    // USER_HZ is 100 on Linux: ticks of 10 ms.
    return { busyMs: (total - idle) * 10, totalMs: total * 10 };
  } catch {
    return null;
  }
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");

async function waitForConnections(child: ChildProcess, count: number): Promise<void> {
  while ((await ask(child, { type: "count" })).connections !== count)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Asks every server the same and waits for all the replies. */
const askAll = (servers: readonly Server[], request: BenchRequest) =>
  Promise.all(servers.map((s) => ask(s.child, request)));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const memoryOf = (replies: Reply[]) => ({
  heap: sum(replies.map((r) => r.memory!.heapUsed + r.memory!.external)),
  rss: sum(replies.map((r) => r.memory!.rss)),
});

async function measure(transport: Transport, servers: readonly Server[]): Promise<void> {
  const relayServer = servers[0]!;
  // Warm-up: the code paths compiled and the allocator's pools in place before the baseline.
  for (const s of servers) for (const c of await openRawClients(transport, s.url, s.key, 50)) c.close();
  for (const s of servers) await waitForConnections(s.child, 0);
  const before = memoryOf(await askAll(servers, { type: "memory" }));
  const clients = [];
  for (const s of servers) clients.push(...(await openRawClients(transport, s.url, s.key, s.clients)));
  for (const s of servers) await waitForConnections(s.child, s.clients);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const idle = memoryOf(await askAll(servers, { type: "memory" }));
  const heap = idle.heap - before.heap;
  const rss = idle.rss - before.rss;

  await askAll(servers, { type: "fanouts" });
  const loadBefore = load();
  const machineBefore = machineCpu();
  const serverBefore = sum((await askAll(servers, { type: "count" })).map((r) => cpuTotal(r.cpu!)));
  const clientsBefore = process.cpuUsage();
  const wallBefore = performance.now();
  await ask(relayServer.child, { type: "publish", transactions: TRANSACTIONS, perSecond: PER_SECOND });
  await new Promise((resolve) => setTimeout(resolve, HOLD_MS + 1_500));
  const wallMs = performance.now() - wallBefore;
  const clientsCpu = process.cpuUsage(clientsBefore);
  const replies = await askAll(servers, { type: "fanouts" });
  const machineAfter = machineCpu();
  const serverCpuMs = sum(replies.map((r) => cpuTotal(r.cpu!))) - serverBefore;
  const fanouts = replies.flatMap((r) => r.fanouts!);

  const atServer: number[] = [];
  const inFanout: number[] = [];
  for (const f of fanouts) {
    for (const at of f.writtenMs) {
      atServer.push(at - f.dueMs);
      inFanout.push(at - f.startMs);
    }
  }
  const added: number[] = [];
  let missing = 0;
  for (const c of clients) {
    missing += 2 * TRANSACTIONS - c.received.arrivals.length;
    c.received.arrivals.forEach((at, i) => added.push(at - c.received.receivedAt[i]! - HOLD_MS));
  }
  const perMessage = (pick: (f: (typeof fanouts)[number]) => number) => sorted(fanouts.map(pick));
  const cpuPerMessage = perMessage((f) => cpuTotal(f.cpu));
  const bare = (await ask(relayServer.child, { type: "bare", transport, rounds: BARE_ROUNDS })).bare!;
  const bareCpu = sorted(bare.map((b) => cpuTotal(b.cpu)));
  const busy = machineBefore && machineAfter ? (machineAfter.busyMs - machineBefore.busyMs) / wallMs : null;
  const ours = (serverCpuMs + (clientsCpu.user + clientsCpu.system) / 1000) / wallMs;
  const median = (s: number[]) => percentile(s, 50).toFixed(2);
  console.log(
    [
      `${transport}, ${CLIENTS} clients${servers.length > 1 ? ` over ${servers.length} server processes on Redis` : ""}:`,
      `  added latency beyond the hold, at the server (hold's end to each subscriber's write returned): ${ms(atServer)} (${atServer.length.toLocaleString("en-US")} writes)`,
      `    of which the hold's timer firing late (the process waiting for a core): ${ms(fanouts.map((f) => f.startMs - f.dueMs))}`,
      `    of which the subscriber's place in the fan-out: ${ms(inFanout)}`,
      `  one message to all of a process's ${servers[0]!.clients} sockets: wall ${ms(fanouts.map((f) => f.endMs - f.startMs))}; CPU median ${median(cpuPerMessage)} ms, ${((percentile(cpuPerMessage, 50) * 1000) / servers[0]!.clients).toFixed(1)} µs a subscriber`,
      `    floor, the same bytes by a plain socket.write loop: CPU median ${median(bareCpu)} ms, ${((percentile(bareCpu, 50) * 1000) / servers[0]!.clients).toFixed(1)} µs a socket`,
      `  added latency beyond the hold, at the clients (their own reading included): ${ms(added)} (${added.length.toLocaleString("en-US")} deliveries${missing ? `, ${missing} missing` : ""})`,
      `  memory per idle connection: heap+external ${kib(heap / CLIENTS)}, resident ${kib(rss / CLIENTS)}`,
      `  machine while the trades flowed: load average ${loadBefore} before, ${load()} after (1/5/15 min); ` +
        `cores busy ${busy === null ? "?" : busy.toFixed(2)} of ${cpus().length}, of which the server ${(serverCpuMs / wallMs).toFixed(2)} and the clients ${(ours - serverCpuMs / wallMs).toFixed(2)}` +
        `${busy === null ? "" : `, other processes ${Math.max(0, busy - ours).toFixed(2)}`}`,
    ].join("\n"),
  );
  for (const c of clients) c.close();
  for (const s of servers) await waitForConnections(s.child, 0);
}

async function startServer(index: number, count: number): Promise<Server> {
  const child = fork(fileURLToPath(new URL("./support/live-server.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx", "--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: {
      ...process.env,
      LIVE_BENCH_REDIS_URL: count > 1 ? REDIS_URL : "",
      LIVE_BENCH_REDIS_PREFIX: `pelagic-live-bench-${process.pid}-${count}:`,
      LIVE_BENCH_RELAY: index === 0 ? "yes" : "no",
    },
  });
  const ready = await new Promise<Reply>((resolve) => child.once("message", resolve));
  const clients = Math.floor(CLIENTS / count) + (index < CLIENTS % count ? 1 : 0);
  return { child, url: ready.url!, key: ready.key!, clients };
}

async function redisAnswers(): Promise<boolean> {
  const { Redis } = await import("ioredis");
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    return (await redis.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  console.log(
    `${TRANSACTIONS} MINT transactions (2 fills each) at ${PER_SECOND}/s to every client; hold ${HOLD_MS} ms`,
  );
  for (const count of SERVER_COUNTS) {
    if (count > 1 && !(await redisAnswers())) {
      console.log(`${count} server processes: skipped, no Redis answers at ${REDIS_URL}`);
      continue;
    }
    const servers: Server[] = [];
    for (let i = 0; i < count; i++) servers.push(await startServer(i, count));
    try {
      for (const transport of (process.env.BENCH_LIVE_TRANSPORTS?.split(",") ?? ["SSE", "WebSocket"]) as Transport[])
        await measure(transport, servers);
    } finally {
      for (const s of servers) s.child.disconnect();
    }
  }
}

await main();
