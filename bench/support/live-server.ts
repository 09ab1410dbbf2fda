/**
 * The server side of bench/live.bench.ts, in a process of its own so that its memory is measured alone: the API
 * (SQLite store, in-process platform) with the live streams, and the relay fed by trades this process makes up
 * (MINT pairs, as the venue's feed shows them). Driven over IPC: `publish` (transactions at a rate), `memory`
 * (after a full collection), `count` (open streams), `fanouts` (the hub's timing of each message since the last ask).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKey } from "../../src/accounts/keys.js";
import { buildApp } from "../../src/api/app.js";
import { loadConfig } from "../../src/config/index.js";
import { LIVE_TRADES_CHANNEL, type LiveTradeMessage } from "../../src/ingest/live-message.js";
import { LiveRelay, realScheduler, type LiveHub } from "../../src/live/index.js";
import { createPlatform } from "../../src/platform/index.js";
import { createLogger } from "../../src/platform/logger.js";
import { openStore } from "../../src/store/database.js";
import { migrateStore } from "../../src/store/migrate.js";

export type BenchRequest = { type: "publish"; transactions: number; perSecond: number } | { type: "memory" } | { type: "count" } | { type: "fanouts" };

/** One upstream message's fan-out: when its hold ended, when the hub began writing it, when it had written to every subscriber. */
export interface Fanout {
  dueMs: number;
  startMs: number;
  endMs: number;
  /** The process's CPU time meanwhile (user and system): what the fan-out costs without waiting for a core. */
  cpuMs: number;
}

const dir = mkdtempSync(join(tmpdir(), "pelagic-live-bench-"));
const store = await openStore({ kind: "sqlite", sqlitePath: join(dir, "bench.sqlite") });
await migrateStore(store);
const platform = await createPlatform({ redisPrefix: "", cacheMaxEntries: 1_000, cacheStaleSeconds: 60 });
const config = loadConfig({ LOG_LEVEL: "silent", SSE_CONNECTIONS_PER_KEY: "100000", RATE_PREMIUM_PER_MINUTE: "100000" });
let hub: LiveHub | undefined;
const app = await buildApp({ config, store, platform, expectedSources: [], startedAt: platform.clock.now(), live: { onHub: (created) => (hub = created) } }, createLogger("silent"));
const url = await app.listen({ port: 0, host: "127.0.0.1" });
const { key } = await createKey(store.db, { account: "bench", plan: "premium", now: platform.clock.now() });
const relay = new LiveRelay({ pubsub: platform.pubsub, store, logger: createLogger("silent"), scheduler: realScheduler(), holdMs: config.live.settlementHoldMs });
await relay.start();

// Times each message's fan-out, around the hub's own method (the timing is this bench's, not the hub's).
const preciseNowMs = () => performance.timeOrigin + performance.now();
let fanouts: Fanout[] = [];
const fanOut = hub!.publish.bind(hub);
hub!.publish = (channel, message) => {
  const startMs = preciseNowMs();
  const cpu = process.cpuUsage();
  fanOut(channel, message);
  // HTTP responses hand their writes to the sockets on the next tick: the fan-out ends after those.
  process.nextTick(() => {
    const used = process.cpuUsage(cpu);
    fanouts.push({ dueMs: Number(/"relay_received_at_ms":(\d+)/.exec(message)?.[1]) + config.live.settlementHoldMs, startMs, endMs: preciseNowMs(), cpuMs: (used.user + used.system) / 1000 });
  });
};

let made = 0;
function mintPair(receivedAtMs: number): LiveTradeMessage[] {
  const n = made++;
  const tx = `0x${n.toString(16).padStart(64, "0")}`;
  return [1, 0].map((outcomeIndex) => ({
    type: "trade", via: "rtds", key: `data:${tx}:${outcomeIndex}`, txHash: tx, wallet: `0x${(2 * n + outcomeIndex + 1).toString(16).padStart(40, "0")}`,
    conditionId: `0x${"c".repeat(64)}`, tokenId: `${71321045679252212594626385532706912750332728571942532289631379312455583992563n + BigInt(outcomeIndex)}`,
    outcomeIndex, outcome: outcomeIndex === 0 ? "YES" : "NO", outcomeLabel: outcomeIndex === 0 ? "Yes" : "No", side: "BUY", size: 250_000_000,
    price: outcomeIndex === 0 ? 970_000 : 30_000, usd: outcomeIndex === 0 ? 242_500_000 : 7_500_000, fee: null, ts: Math.floor(receivedAtMs / 1000), receivedAtMs,
    title: "Will the bench finish before lunch?", slug: "will-the-bench-finish", eventSlug: "bench-finish", name: null, pseudonym: "Gleaming-Whale", profileImage: "https://example.invalid/whale.png", bio: null,
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
    if (request.type === "publish") await publish(request.transactions, request.perSecond);
    if (request.type === "memory") for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ type: request.type, memory: process.memoryUsage(), connections: hub?.count() ?? 0, fanouts });
    if (request.type === "fanouts") fanouts = [];
  })();
});
process.on("disconnect", () => {
  void (async () => {
    await relay.stop();
    await app.close();
    await platform.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  })();
});
process.send?.({ type: "ready", url, key });
