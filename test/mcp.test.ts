/**
 * The MCP server as agents reach it, with the official SDK's client, over both transports: Streamable HTTP (/mcp on
 * the service) and stdio (`pelagic mcp` pointed at the service, and at the local store). Over a small simulated
 * world: initialize, list tools, resources, templates and prompts, call every tool and check its structured answer
 * is the HTTP API's answer to the same call; keys and plans as the routes enforce them (no key 401, a free key the
 * contract's 403 on Premium tools), one budget for both, bounded answers that say how to get the rest.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/accounts/keys.js";
import { callUrl } from "../src/mcp/api-call.js";
import { sqliteBackendIn } from "./support/backends.js";
import { type McpConnection, type McpTransportKind, connectMcp } from "./support/mcp-clients.js";
import { type WorldApp, openWorldApp } from "./support/world-app.js";

const ROUTE = /^GET (\S+)$/;

/** The answer as compared: the search routes' own timing aside. */
const comparable = (body: unknown): unknown => {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const { _elapsed_ms: _, ...rest } = body as Record<string, unknown>;
  return rest;
};

describe("the MCP server", () => {
  // The store where DATA_DIR names it: `pelagic mcp` on the local store reads the world this test wrote.
  const dataDir = mkdtempSync(join(tmpdir(), "pelagic-mcp-"));
  const backend = sqliteBackendIn(dataDir);
  let w: WorldApp;
  let url: string;
  let premium: string;
  let free: string;
  const args: Record<string, Record<string, unknown>> = {};

  /** GET the route a tool reads, with the arguments the tool was given (and its default limit), as HTTP answers it. */
  async function viaHttp(tool: Tool, given: Record<string, unknown>, key?: string) {
    const path = ROUTE.exec(String(tool._meta?.["pelagic/route"]))![1]!;
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const limit = (tool.inputSchema.properties?.limit as { default?: number } | undefined)?.default;
    const query = Object.fromEntries(
      Object.entries({ ...(limit === undefined ? {} : { limit }), ...given }).filter(([k]) => !names.includes(k)),
    ) as Record<string, string | number | boolean>;
    const pathParams = Object.fromEntries(names.map((n) => [n, String(given[n])]));
    const response = await w.app.inject({
      url: callUrl({ path, pathParams, query }),
      headers: key ? { "x-api-key": key } : {},
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  }

  beforeAll(async () => {
    w = await openWorldApp({
      storeBackend: backend,
      env: { SMART_MIN_RESOLVED_MARKETS: "3", RATE_FREE_PER_MINUTE: "100000", RATE_PREMIUM_PER_MINUTE: "100000" },
    });
    url = await w.app.listen({ port: 0, host: "127.0.0.1" });
    premium = (await createKey(w.store.db, { account: "agent", plan: "premium", now: w.now })).key;
    free = (await createKey(w.store.db, { account: "free-agent", plan: "free", now: w.now })).key;
    const board = await w.app.inject({ url: "/api/v2/whales/leaderboard?filter=all&min_markets=1&limit=1" });
    const whale = board.json().whales[0] as { wallet: string; name: string | null };
    const search = await w.app.inject({ url: "/api/v2/markets/search?limit=1&min_whales=1" });
    const market = search.json().markets[0] as { id: string; question: string };
    const address = { address: whale.wallet };
    Object.assign(args, {
      wallet_search: { q: whale.wallet.slice(0, 8) },
      wallet_profile: address,
      wallet_open_positions: address,
      wallet_closed_positions: { ...address, sort: "pnl" },
      wallet_changes_since: { ...address, since: w.now - 7 * 86_400 },
      wallet_recent_trades: { ...address, since: 1 },
      similar_traders: address,
      whale_matches: address,
      active_whale_markets: address,
      whale_backtest: address,
      ai_analysis: address,
      whale_leaderboard: { filter: "all", min_markets: 1 },
      trader_leaderboard: { period: "all", filter: "all" },
      search_markets: { q: market.question.split(" ").slice(0, 2).join(" ") },
      market_consensus: { market_id: market.id },
      hot_markets: { minutes: 1440 },
      whale_alerts: { minutes: 1440, smart_only: false },
      big_positions: { min_usd: 1 },
      whale_flips: {},
      conviction_clusters: { min_whales: 2 },
      territory_status: {},
      territory_events: { hours: 720 },
    });
    // The analysis is written in the background after a first read: asked until saved, so both answers are the same.
    const analysis = { url: `/api/v2/wallet/${whale.wallet}/ai-analysis`, headers: { "x-api-key": premium } };
    for (let i = 0; i < 200 && (await w.app.inject(analysis)).statusCode !== 200; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
  }, 60_000);

  afterAll(async () => {
    await w?.close();
  });

  describe.each<McpTransportKind>(["http", "stdio (service)", "stdio (local store)"])("over %s", (kind) => {
    let mcp: McpConnection;
    let tools: Tool[];

    beforeAll(async () => {
      mcp = await connectMcp(kind, { url, dataDir, key: premium });
      tools = (await mcp.client.listTools()).tools;
    }, 60_000);
    afterAll(async () => mcp?.close());

    it("initializes and lists its tools, resources, templates and prompts", async () => {
      expect(mcp.client.getServerVersion()?.name).toBe("pelagic");
      expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(args).sort());
      for (const tool of tools) {
        expect(tool.inputSchema.type, tool.name).toBe("object");
        expect(tool.outputSchema?.type, tool.name).toBe("object");
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      }
      const { resources } = await mcp.client.listResources();
      expect(resources.map((r) => r.uri)).toContain("pelagic://metrics/classifications");
      const { resourceTemplates } = await mcp.client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
        "pelagic://wallet/{address}",
        "pelagic://market/{market_id}",
      ]);
      const { prompts } = await mcp.client.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(["copy_wallet", "smart_money_on_market"]);
    });

    it("answers every tool with what the HTTP API answers", async () => {
      for (const tool of tools) {
        const given = args[tool.name]!;
        const result = await mcp.client.callTool({ name: tool.name, arguments: given });
        expect(result.isError, `${tool.name}: ${JSON.stringify(result.content)}`).toBeFalsy();
        const text = (result.content as Array<{ text: string }>)[0]!.text;
        expect(text.length, tool.name).toBeGreaterThan(10);
        // The local store's process runs on the real clock, past the world's end: its windows differ.
        if (kind === "stdio (local store)") continue;
        const http = await viaHttp(tool, given, premium);
        expect(http.status, tool.name).toBe(200);
        const expected = Array.isArray(http.body) ? { items: http.body } : http.body;
        expect(comparable(result.structuredContent), tool.name).toEqual(comparable(expected));
      }
    });

    it("gives the contract's refusals as tool errors: 401 without a key, 403 on a free key, 422", async () => {
      const alerts = tools.find((t) => t.name === "whale_alerts")!;
      // Without a key over HTTP only: every stdio connection is a process (and, on the local store, an app) of its own.
      for (const key of kind === "http" ? [undefined, free] : [free]) {
        const other = await connectMcp(kind, { url, dataDir, key });
        try {
          const result = await other.client.callTool({ name: "whale_alerts", arguments: {} });
          const http = await viaHttp(alerts, {}, key);
          expect(http.status).toBe(key ? 403 : 401);
          expect(result.isError).toBe(true);
          expect(result._meta?.["pelagic/http"]).toEqual({
            status: http.status,
            detail: http.body.detail,
            retry_after_seconds: null,
          });
          expect((result.content as Array<{ text: string }>)[0]!.text).toBe(`HTTP ${http.status}: ${http.body.detail}`);
          // Free tools answer whatever the key.
          expect((await other.client.callTool({ name: "territory_status", arguments: {} })).isError).toBeFalsy();
        } finally {
          await other.close();
        }
      }
      const invalid = await mcp.client.callTool({ name: "whale_leaderboard", arguments: { sort: "luck" } });
      expect(invalid.isError).toBe(true);
      expect(invalid._meta?.["pelagic/http"]).toMatchObject({ status: 422 });
      const missing = await mcp.client.callTool({ name: "wallet_profile", arguments: {} });
      expect((missing.content as Array<{ text: string }>)[0]!.text).toBe(
        "Invalid arguments: missing argument: address",
      );
      await expect(mcp.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/no tool named/);
    }, 60_000);

    it("bounds a list to a page and says how to get the rest", async () => {
      const page = await mcp.client.callTool({ name: "search_markets", arguments: {} });
      const body = page.structuredContent as { markets: unknown[]; total: number };
      expect(body.markets).toHaveLength(10);
      expect(body.total).toBeGreaterThan(10);
      expect((page.content as Array<{ text: string }>)[0]!.text).toContain(
        `Showing rows 1-10 of ${body.total}. More: call again with offset=10.`,
      );
      const tooMany = await mcp.client.callTool({ name: "search_markets", arguments: { limit: 200 } });
      expect((tooMany.content as Array<{ text: string }>)[0]!.text).toMatch(
        /^Invalid arguments: limit: at most 50 rows/,
      );
    });

    it("reads resources, gives prompts and completes their arguments from the API", async () => {
      const { address } = args.wallet_profile as { address: string };
      const wallet = await mcp.client.readResource({ uri: `pelagic://wallet/${address}` });
      const overview = await w.app.inject({ url: `/api/v2/wallet/${address}/overview` });
      if (kind !== "stdio (local store)")
        expect(JSON.parse((wallet.contents[0] as { text: string }).text)).toEqual(overview.json());
      const metrics = await mcp.client.readResource({ uri: "pelagic://metrics" });
      expect((metrics.contents[0] as { text: string }).text).toBe(readFileSync("docs/METRICS.md", "utf8"));
      await expect(mcp.client.readResource({ uri: `pelagic://wallet/0x${"9".repeat(40)}` })).rejects.toThrow(/-32002/);
      const prompt = await mcp.client.getPrompt({ name: "copy_wallet", arguments: { address } });
      expect((prompt.messages[0]!.content as { text: string }).text).toContain(address);
      const completion = await mcp.client.complete({
        ref: { type: "ref/prompt", name: "copy_wallet" },
        argument: { name: "address", value: address.slice(0, 10) },
      });
      expect(completion.completion.values).toContain(address);
    });
  });

  describe("over HTTP, as a route of the service", () => {
    it("draws from the caller's budget: one request for the message, and the route's cost for the tool call", async () => {
      const remaining = async () =>
        Number(
          (await w.app.inject({ url: "/api/v2/key/verify", headers: { "x-api-key": premium } })).headers[
            "x-ratelimit-remaining"
          ],
        );
      // A stateless server takes a call without a session: one POST, as an agent's tool call is.
      const call = (name: string) =>
        fetch(`${url}/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "x-api-key": premium,
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name, arguments: args[name] },
          }),
        }).then((response) => response.json() as Promise<{ result: { isError?: boolean } }>);
      const before = await remaining();
      expect((await call("territory_status")).result.isError).toBeUndefined();
      expect(before - (await remaining())).toBe(1 + 1 + 1);
    });

    it("refuses a browser page of another host, and answers GET with 405", async () => {
      const post = await fetch(`${url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          origin: "http://evil.example",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      expect(post.status).toBe(403);
      expect(((await post.json()) as { detail: string }).detail).toMatch(/MCP_ALLOWED_ORIGINS/);
      const get = await fetch(`${url}/mcp`, { headers: { accept: "text/event-stream" } });
      expect(get.status).toBe(405);
    });
  });
});
