/**
 * The typed client `@pelagic/client` (client/) against one running demo service (`pelagic demo`, a small world trading
 * live), and against scripted HTTP servers where a behaviour needs answers the service does not give on demand:
 * - its committed types are what openapi-typescript makes of the running service's /api/openapi.json;
 * - reads are typed and equal the HTTP answers; refusals are one error with status, detail and Retry-After;
 *   429 and 503 are retried per Retry-After up to a cap, no other 4xx; an ETag is revalidated (304 reused);
 * - paging helpers walk offset-paged (a whale's history) and keyset-paged (a market's whale trades) lists to the end;
 * - the live streams arrive as async iterators, SSE and WebSocket, reconnecting with the last event id;
 * - `npm pack` of the client installs in an empty project whose plain-Node program reads a wallet, pages a whale's
 *   history to its end and receives live trades, and whose TypeScript compiles against the declarations.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { API_TYPES_PATH, apiTypesOf } from "../client/gen-types.js";
import { PelagicApiError, type WebSocketConstructor, createPelagicClient } from "../client/src/index.js";
import { type DemoService, startDemoService } from "./support/demo-service.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** A fetch that records the status of every answer it got (what the client sent, retries and revalidations included). */
function recordingFetch(): { fetch: typeof fetch; statuses: number[] } {
  const statuses: number[] = [];
  return {
    statuses,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    },
  };
}

/** An HTTP server answering each request with the next of `answers` (the last one again once they run out). */
async function scripted(
  answers: Array<(request: IncomingMessage, response: ServerResponse) => void>,
): Promise<{ url: string; requests: IncomingMessage[]; close(): Promise<void> }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    answers[Math.min(requests.length, answers.length) - 1]!(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve()) && server.closeAllConnections()),
  };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (_request: IncomingMessage, response: ServerResponse) =>
    response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));

describe("the typed client", () => {
  let demo: DemoService;
  let whale: string;

  beforeAll(async () => {
    demo = await startDemoService();
    // The wallet with the most resolved markets: its history takes several pages.
    const board = await fetch(`${demo.url}/api/v2/whales/leaderboard?filter=all&min_markets=1&limit=100`);
    const { whales } = (await board.json()) as { whales: Array<{ wallet: string; resolved_markets: number }> };
    whale = whales.reduce((a, b) => (b.resolved_markets > a.resolved_markets ? b : a)).wallet;
  }, 180_000);
  afterAll(async () => demo?.close());

  it("is typed by what openapi-typescript makes of the running service's document", async () => {
    const document = await fetch(`${demo.url}/api/openapi.json`).then((r) => r.json());
    expect(
      (await apiTypesOf(document)) === readFileSync(API_TYPES_PATH, "utf8"),
      "client/src/openapi.ts is stale: npm run gen:types",
    ).toBe(true);
  }, 60_000);

  it("reads typed answers, equal to the HTTP API's", async () => {
    const pelagic = createPelagicClient({ baseUrl: demo.url });
    const wallet = await pelagic.get("/api/v2/wallet/{address}/overview", { params: { path: { address: whale } } });
    expect(wallet.profile.proxy_wallet).toBe(whale);
    expect(wallet).toEqual(await fetch(`${demo.url}/api/v2/wallet/${whale}/overview`).then((r) => r.json()));
  });

  it("throws one error with the status, the contract's detail and Retry-After, and retries no other 4xx", async () => {
    const recorded = recordingFetch();
    const anonymous = createPelagicClient({ baseUrl: demo.url, fetch: recorded.fetch });
    const invalid = await anonymous
      .get("/api/v2/whales/leaderboard", { params: { query: { limit: 0 } } })
      .catch((e) => e);
    expect(invalid).toBeInstanceOf(PelagicApiError);
    expect(invalid.status).toBe(422);
    expect(invalid.issues[0].loc).toEqual(["query", "limit"]);
    expect(recorded.statuses).toEqual([422]);
    const missing = await anonymous.get("/api/v2/whale-alerts").catch((e) => e);
    expect([missing.status, missing.detail]).toEqual([401, "Missing API key: send it as X-API-Key: <API_KEY>"]);
    const free = createPelagicClient({ baseUrl: demo.url, apiKey: await demo.key("free-user", "free") });
    const forbidden = await free.get("/api/v2/whale-alerts").catch((e) => e);
    expect(forbidden.status).toBe(403);
    expect(forbidden.detail).toMatch(/needs a Premium plan/);

    // A key of one request a minute: the second is a 429 asking for 60 s, more than this client waits.
    const slow = recordingFetch();
    const limited = createPelagicClient({
      baseUrl: demo.url,
      apiKey: await demo.key("one-a-minute", "premium", 1),
      fetch: slow.fetch,
      retry: { maxRetryDelayMs: 1_000 },
    });
    await limited.get("/api/v2/site-stats");
    const started = Date.now();
    const limitedError = await limited.get("/api/v2/site-stats").catch((e) => e);
    expect([limitedError.status, limitedError.retryAfterSeconds]).toEqual([429, 60]);
    expect(slow.statuses).toEqual([200, 429]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("retries 429 and 503 after their Retry-After, 503 only for reads", async () => {
    const server = await scripted([
      json(429, { detail: "slow down" }, { "retry-after": "1" }),
      json(503, { detail: "timed out" }, { "retry-after": "0" }),
      json(200, { smart_whales: 1 }),
    ]);
    try {
      const pelagic = createPelagicClient({ baseUrl: server.url });
      const started = Date.now();
      expect(await pelagic.get("/api/v2/site-stats")).toEqual({ smart_whales: 1 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
    const busy = await scripted([json(503, { detail: "timed out" }, { "retry-after": "0" })]);
    try {
      const pelagic = createPelagicClient({ baseUrl: busy.url });
      const refused = await pelagic.post("/api/public/v1/wallets/overview", { body: { wallets: [] } }).catch((e) => e);
      expect([refused.status, refused.detail, busy.requests.length]).toEqual([503, "timed out", 1]);
    } finally {
      await busy.close();
    }
  });

  it("revalidates an answer by its ETag and reuses it on 304", async () => {
    const recorded = recordingFetch();
    const pelagic = createPelagicClient({ baseUrl: demo.url, fetch: recorded.fetch });
    const query = { filter: "all", min_markets: 1, limit: 5 } as const;
    const first = await pelagic.get("/api/v2/whales/leaderboard", { params: { query } });
    const again = await pelagic.get("/api/v2/whales/leaderboard", { params: { query } });
    expect(recorded.statuses).toEqual([200, 304]);
    expect(again).toEqual(first);
  });

  it("pages a whale's history and a market's whale trades to their ends", async () => {
    const pelagic = createPelagicClient({ baseUrl: demo.url, apiKey: demo.premiumKey });
    const whole = await pelagic.get("/api/v2/whale/{address}/backtest", {
      params: { path: { address: whale }, query: { limit: 1000 } },
    });
    expect(whole.count).toBeGreaterThan(4);
    const paged = [];
    for await (const position of pelagic.whaleHistory(whale, { limit: 2 })) paged.push(position);
    expect(paged).toEqual(whole.positions);

    // The busiest markets by volume, of which the first with a long history before the last minutes (the top one by
    // volume may be one the live trading made busy only just now).
    const markets = await pelagic.get("/api/v2/markets/search", { params: { query: { limit: 10 } } });
    // Trades of the last minutes may still be coming in: the pages end before them.
    const before = Math.floor(Date.now() / 1000) - 300;
    const query = { before, wallets: "all", min_usd: 1 } as const;
    let busiest: { conditionId: string; page: Awaited<ReturnType<typeof whaleTradesOf>> } | undefined;
    const whaleTradesOf = (conditionId: string) =>
      pelagic.get("/api/v2/market/{condition_id}/whale-trades", {
        params: { path: { condition_id: conditionId }, query: { ...query, limit: 500 } },
      });
    for (const { condition_id: conditionId } of markets.markets) {
      busiest = { conditionId, page: await whaleTradesOf(conditionId) };
      if (busiest.page.trades.length > 30) break;
    }
    const { conditionId, page } = busiest!;
    expect(page.trades.length).toBeGreaterThan(30);
    const trades = [];
    for await (const trade of pelagic.marketWhaleTrades(conditionId, { ...query, limit: 10 })) trades.push(trade);
    // The walk goes to the end; one call shows at most 500 (the busiest market may have more at some hours).
    expect(trades.slice(0, 500)).toEqual(page.trades);
    expect(page.trades.length === 500 || trades.length === page.trades.length).toBe(true);
  });

  it("receives the live trades over SSE and over a WebSocket, and the WebSocket's refusal as an error", async () => {
    const pelagic = createPelagicClient({
      baseUrl: demo.url,
      apiKey: demo.premiumKey,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    });
    for (const stream of [pelagic.liveTrades(), pelagic.liveSocket({ stream: "trades" })]) {
      const seen = [];
      for await (const trade of stream) if (seen.push(trade) === 2) break;
      expect(seen.map((t) => typeof t.price)).toEqual(["number", "number"]);
    }
    const free = createPelagicClient({
      baseUrl: demo.url,
      apiKey: await demo.key("free-streamer", "free"),
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    });
    const refused = await free
      .liveSocket()
      .next()
      .catch((e) => e);
    expect(refused).toBeInstanceOf(PelagicApiError);
    expect(refused.status).toBe(403);
  }, 30_000);

  it("reconnects a stream that ends, sending the last event id and waiting its retry", async () => {
    const server = await scripted([
      (_request, response) =>
        response
          .writeHead(200, { "content-type": "text/event-stream" })
          .end('retry: 50\nid: 7\nevent: trade\ndata: {"n":1}\n\n'),
      (_request, response) =>
        response
          .writeHead(200, { "content-type": "text/event-stream" })
          .write('id: 8\nevent: trade\ndata: {"n":2}\n\n'),
    ]);
    try {
      const seen: unknown[] = [];
      for await (const trade of createPelagicClient({ baseUrl: server.url }).liveTrades())
        if (seen.push(trade) === 2) break;
      expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
      expect(server.requests.map((r) => r.headers["last-event-id"])).toEqual([undefined, "7"]);
    } finally {
      await server.close();
    }
  });

  it("packs into a tarball that an empty project installs and uses from plain Node and TypeScript", () => {
    const project = mkdtempSync(join(tmpdir(), "pelagic-client-user-"));
    try {
      execFileSync("npm", ["pack", "--silent", "--pack-destination", project, join(root, "client")], { cwd: root });
      const tarball = readdirSync(project).find((file) => file.endsWith(".tgz"))!;
      writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user", private: true, type: "module" }));
      execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", `./${tarball}`], { cwd: project });
      cpSync(join(root, "test/fixtures/client-consumer"), project, { recursive: true });

      const run = spawnSync(process.execPath, ["read.mjs", demo.url, demo.premiumKey, whale], {
        cwd: project,
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(run.status, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout) as { wallet: string; history: string[]; trades: string[]; refused: unknown };
      expect(out.wallet).toBe(whale);
      expect(out.history.length).toBeGreaterThan(4);
      expect(out.trades).toHaveLength(2);
      expect(out.refused).toMatchObject({ status: 422 });

      writeFileSync(
        join(project, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            module: "NodeNext",
            target: "ES2022",
            lib: ["ES2023", "DOM"],
            types: [],
            strict: true,
            noEmit: true,
          },
          files: ["typed.ts"],
        }),
      );
      const tsc = spawnSync(process.execPath, [join(root, "node_modules/typescript-native/bin/tsc"), "-p", project], {
        encoding: "utf8",
      });
      expect(tsc.status, tsc.stdout).toBe(0);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 120_000);
});
