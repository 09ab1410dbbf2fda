/**
 * Helpers of the AI analysis tests: a world app whose model is a loopback chat-completions server, a Premium key,
 * wallets with statistics, GET and POST calls, and a second API "process" (app) over the same store.
 */
import { createKey } from "../../../src/accounts/keys.js";
import { deterministicReport } from "../../../src/ai/deterministic.js";
import type { AnalysisInputs } from "../../../src/ai/inputs.js";
import { renderReport } from "../../../src/ai/sections.js";
import { buildApp } from "../../../src/api/app.js";
import type { Config } from "../../../src/config/index.js";
import { createLogger } from "../../../src/platform/logger.js";
import { type StoreBackend, memoryPlatform } from "../backends.js";
import { completion, startChatServer, type ChatReply, type ChatServer } from "../chat-server.js";
import { openWorldApp, type WorldApp } from "../world-app.js";

export const DAY_MS = 86_400_000;

/** A model answer that passes every check: the report the inputs make, with a line of the model's own. */
export const goodAnswer = (facts: Record<string, any>): ChatReply => ({
  body: completion(
    renderReport(deterministicReport(facts as AnalysisInputs)).replace(
      "## Style",
      "Written by the test model.\n\n## Style",
    ),
  ),
});

export interface AiWorld {
  w: WorldApp;
  chat: ChatServer;
  key: string;
  wallets: string[];
  get(
    wallet: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  generate(
    wallet: string,
    query?: string,
    inject?: { remoteAddress?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function openAiWorld(
  options: { storeBackend?: StoreBackend; env?: Record<string, string> } = {},
): Promise<AiWorld> {
  const chat = await startChatServer((request) => goodAnswer(request.facts));
  const w = await openWorldApp({
    storeBackend: options.storeBackend,
    env: {
      AI_MODEL_BASE_URL: chat.baseUrl,
      AI_MODEL: "test-model",
      AI_MODEL_TIMEOUT_MS: "5000",
      RATE_AI_ANALYSES_PER_MINUTE: "1000",
      ...options.env,
    },
  });
  const key = (await createKey(w.store.db, { account: "ai-reader", plan: "premium", now: w.now })).key;
  const rows = await w.store.db
    .selectFrom("wallet_stats")
    .select("wallet")
    .where("total_trades", ">", 0)
    .orderBy("total_trades", "desc")
    .orderBy("wallet")
    .limit(8)
    .execute();
  return {
    w,
    chat,
    key,
    wallets: rows.map((r) => r.wallet),
    async get(wallet, headers = { "x-api-key": key }) {
      const r = await w.app.inject({ url: `/api/v2/wallet/${wallet}/ai-analysis`, headers });
      return { status: r.statusCode, body: r.json(), headers: r.headers };
    },
    async generate(wallet, query = "", inject = {}) {
      const r = await w.app.inject({
        method: "POST",
        url: `/api/v2/wallet/${wallet}/ai-analysis/generate${query}`,
        remoteAddress: inject.remoteAddress ?? "127.0.0.1",
        headers: inject.headers ?? {},
      });
      return { status: r.statusCode, body: r.json() };
    },
    async close() {
      await w.close();
      await chat.close();
    },
  };
}

/** Another API process over the same store and clock: its own app, platform and queue worker (the same settings unless given). */
export async function openSecondApp(w: WorldApp, config: Config = w.config) {
  const { platform, dispose } = await memoryPlatform.open(w.clock);
  const app = await buildApp(
    { config, store: w.store, platform, expectedSources: [], startedAt: w.clock.now() },
    createLogger("silent"),
  );
  await app.ready();
  return { app, close: async () => (await app.close(), await dispose()) };
}
