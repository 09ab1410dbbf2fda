/**
 * AI analysis across real `pelagic serve --role api` processes sharing one store (SQLite file, and PostgreSQL with
 * TEST_DATABASE_URL; Redis as the platform with TEST_REDIS_URL), their model a loopback chat-completions server in
 * this test: two processes asked for one wallet at the same moment generate it once; processes stopped with
 * generations pending leave them queued, and a process started afterwards finishes them without being asked.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createKey } from "../src/accounts/keys.js";
import { aiDb } from "../src/ai/tables.js";
import { loadConfig } from "../src/config/index.js";
import { expectedIngestSources } from "../src/ingest/sources.js";
import { ManualClock } from "../src/platform/clock.js";
import { smallWorld } from "../src/sim/world/testing/worlds.js";
import { saveCheckpoint } from "../src/store/checkpoints.js";
import { FIRST_SYNC_DERIVED, writeDeriveState } from "../src/store/derive-state.js";
import { migrateStore } from "../src/store/migrate.js";
import { goodAnswer } from "./support/api/ai-analysis.js";
import { TEST_REDIS_URL, deleteRedisPrefix, uniqueName } from "./support/backends.js";
import { startChatServer, type ChatServer } from "./support/chat-server.js";
import { spawnPelagic, type Running } from "./support/cli.js";
import { storeWorld } from "./support/world-app.js";
import { openProcessStore, processStoreKinds, type ProcessStore } from "./support/process-stores.js";

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A store holding a derived world, ready as an ingest process would have left it, with a Premium key and its busiest wallets. */
async function preparedStore(kind: ProcessStore["kind"]) {
  const target = await openProcessStore(kind);
  cleanups.push(() => target.dispose());
  const config = loadConfig({ LOG_LEVEL: "silent" });
  const world = smallWorld(11);
  const store = await target.open();
  try {
    await migrateStore(store);
    await storeWorld(store, world, config, new ManualClock(world.end * 1000));
    for (const source of expectedIngestSources(config)) await saveCheckpoint(store.db, source, "done", world.end, true);
    await writeDeriveState(store.db, FIRST_SYNC_DERIVED, 1);
    const key = (await createKey(store.db, { account: "ai-processes", plan: "premium", now: world.end })).key;
    const rows = await store.db
      .selectFrom("wallet_stats")
      .select("wallet")
      .orderBy("total_trades", "desc")
      .orderBy("wallet")
      .limit(4)
      .execute();
    return { target, key, wallets: rows.map((r) => r.wallet) };
  } finally {
    await store.close();
  }
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.each(processStoreKinds)("AI analysis across API processes on %s", (kind) => {
  it("generates a wallet once for two processes, and resumes pending generations after a restart", async () => {
    const chat: ChatServer = await startChatServer((request) => ({ ...goodAnswer(request.facts), delayMs: 1_500 }));
    cleanups.push(() => chat.close());
    const { target, key, wallets } = await preparedStore(kind);
    const prefix = uniqueName("pelagic_ai") + ":";
    if (TEST_REDIS_URL) cleanups.push(() => deleteRedisPrefix(TEST_REDIS_URL as string, prefix));
    const env = {
      ...target.env,
      REDIS_URL: TEST_REDIS_URL ?? "",
      REDIS_PREFIX: prefix,
      LOG_LEVEL: "info",
      AI_MODEL_BASE_URL: chat.baseUrl,
      AI_MODEL: "test-model",
      AI_MODEL_TIMEOUT_MS: "30000",
      AI_ANALYSIS_POLL_SECONDS: "1",
    };
    const serve = async () => {
      const running = spawnPelagic(["serve", "--role", "api", "--port", "0"], env);
      cleanups.push(async () => (running.child.kill("SIGKILL"), running.exited));
      const line = await running.waitFor((l) => l.msg === "pelagic serving");
      return { running, url: line.url as string };
    };
    const stop = async (p: { running: Running }) => {
      p.running.child.kill("SIGTERM");
      expect(await p.running.exited).toBe(0);
    };
    const get = (url: string, wallet: string) =>
      fetch(`${url}/api/v2/wallet/${wallet}/ai-analysis`, { headers: { "X-API-Key": key } }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as any,
      }));

    const [a, b] = await Promise.all([serve(), serve()]);
    const wallet = wallets[0]!;
    const first = await Promise.all([get(a.url, wallet), get(b.url, wallet)]);
    expect(first.map((r) => [r.status, r.body.status])).toEqual([
      [404, "pending"],
      [404, "pending"],
    ]);
    const ready = await until(
      "both processes to serve the report",
      () => Promise.all([get(a.url, wallet), get(b.url, wallet)]),
      (rs) => rs.every((r) => r.status === 200),
    );
    expect(ready[0]!.body.generated_at).toBe(ready[1]!.body.generated_at);
    expect(chat.requests.filter((r) => r.facts.wallet?.address === wallet)).toHaveLength(1);

    // Generations in flight and waiting when both processes stop: the model is slow now.
    chat.respond = (request) => ({ ...goodAnswer(request.facts), delayMs: 60_000 });
    const pending = wallets.slice(1);
    for (const w of pending) expect((await get(a.url, w)).status).toBe(404);
    await until(
      "a generation in flight",
      async () => chat.inFlight,
      (n) => n > 0,
    );
    await Promise.all([stop(a), stop(b)]);
    const store = await target.open();
    cleanups.push(() => store.close());
    const jobs = () =>
      aiDb(store.db)
        .selectFrom("ai_analysis_jobs")
        .select(["wallet", "lease_owner", "attempts"])
        .orderBy("wallet")
        .execute();
    expect(await jobs()).toEqual([...pending].sort().map((w) => ({ wallet: w, lease_owner: null, attempts: 0 })));

    chat.respond = (request) => goodAnswer(request.facts);
    const c = await serve();
    const saved = await until(
      "the restarted process to finish the queue",
      () => aiDb(store.db).selectFrom("ai_analyses").select("wallet").execute(),
      (rows) => rows.length === wallets.length,
    );
    expect(saved.map((r) => r.wallet).sort()).toEqual([...wallets].sort());
    expect(await jobs()).toEqual([]);
    for (const w of pending) expect((await get(c.url, w)).body.status).toBe("ready");
    await stop(c);
  }, 180_000);
});
