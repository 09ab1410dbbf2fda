/**
 * Added latency of the gate (authentication + rate limit) per request, for the memory and Redis backends.
 * Compares in-process requests (Fastify inject, no network) to the same route without the gate.
 * Redis: BENCH_REDIS_URL, default redis://127.0.0.1:6379 (skipped when unreachable).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { createKey } from "../src/accounts/keys.js";
import { access } from "../src/api/access.js";
import { buildApp } from "../src/api/app.js";
import { loadConfig } from "../src/config/index.js";
import { createPlatform } from "../src/platform/index.js";
import { createLogger } from "../src/platform/logger.js";
import { openStore } from "../src/store/database.js";
import { migrateStore } from "../src/store/migrate.js";

const N = 20_000;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

async function timePerRequest(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string> = {},
): Promise<number> {
  for (let i = 0; i < 1000; i++) await app.inject({ url, headers, remoteAddress: `10.0.${i % 250}.${i % 200}` });
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    // Spread free callers over many IPs so the free budget never runs out mid-measure.
    const res = await app.inject({ url, headers, remoteAddress: `10.1.${(i >> 8) & 255}.${i & 255}` });
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  }
  return Number(process.hrtime.bigint() - start) / N / 1000;
}

async function reachable(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

async function main() {
  const bare = Fastify();
  bare.get("/bench", async () => ({ ok: true }));
  await bare.ready();
  const baseline = await timePerRequest(bare, "/bench");
  console.log(`baseline (no gate):            ${baseline.toFixed(1)} µs/request`);

  const backends = (await reachable(REDIS_URL)) ? [undefined, REDIS_URL] : [undefined];
  if (backends.length === 1) console.log(`(Redis at ${REDIS_URL} unreachable: memory backend only)`);
  for (const redisUrl of backends) {
    const dir = mkdtempSync(join(tmpdir(), "pelagic-bench-"));
    const store = await openStore({ kind: "sqlite", sqlitePath: join(dir, "bench.sqlite") });
    await migrateStore(store);
    const platform = await createPlatform({
      redisUrl,
      redisPrefix: `pelagic_bench_${Date.now()}:`,
      cacheMaxEntries: 1000,
      cacheStaleSeconds: 60,
    });
    const config = loadConfig({ LOG_LEVEL: "silent", RATE_PREMIUM_PER_MINUTE: String(10 * N) });
    const app = await buildApp({ config, store, platform, expectedSources: [], startedAt: 0 }, createLogger("silent"));
    app.get("/bench/public", { config: { access: access.public } }, async () => ({ ok: true }));
    app.get("/bench/premium", { config: { access: access.premiumXApiKey } }, async () => ({ ok: true }));
    await app.ready();
    const { key } = await createKey(store.db, { account: "bench", plan: "premium", now: 0 });
    const pub = await timePerRequest(app, "/bench/public");
    const prem = await timePerRequest(app, "/bench/premium", { "x-api-key": key });
    const kind = redisUrl ? "redis " : "memory";
    console.log(
      `${kind} public (IP budget):      ${pub.toFixed(1)} µs/request, gate adds ${(pub - baseline).toFixed(1)} µs`,
    );
    console.log(
      `${kind} premium (key + budget):  ${prem.toFixed(1)} µs/request, gate adds ${(prem - baseline).toFixed(1)} µs`,
    );
    await app.close();
    await platform.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
