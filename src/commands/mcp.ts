/**
 * `pelagic mcp`: the MCP server (src/mcp/) over stdio, for an agent that starts it as a child process. Pointed at a
 * service (PELAGIC_URL), it calls it through the typed client with PELAGIC_API_KEY, its tools built from that
 * service's own OpenAPI document; otherwise it reads the local store in-process, through the app's own routes, the
 * key checked against that store as the service checks it. stdout carries MCP only: logs go to stderr.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { injectCaller } from "../api/routes/mcp/inject-caller.js";
import { buildApp } from "../api/app.js";
import type { Config } from "../config/index.js";
import type { ApiCaller } from "../mcp/api-call.js";
import { clientCaller, remoteClient } from "../mcp/client-caller.js";
import { type McpCatalog, buildCatalog, createMcpServer } from "../mcp/mcp-server.js";
import type { OpenApiDocument } from "../mcp/route-shapes.js";
import { VERSION } from "../package.js";
import { createPlatform } from "../platform/index.js";
import { type Logger, createLogger } from "../platform/logger.js";
import { withMigratedStore } from "../runtime/store.js";
import { settingFlag, type CommandSpec } from "./spec.js";

/** Serves MCP on stdin/stdout until the agent closes stdin (or SIGINT, SIGTERM). */
async function serveStdio(catalog: McpCatalog, caller: ApiCaller): Promise<void> {
  const server = createMcpServer({ catalog, caller, version: VERSION });
  const ended = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.connect(new StdioServerTransport());
  await ended;
  await server.close();
}

async function overService(config: Config, baseUrl: string, logger: Logger): Promise<void> {
  const client = remoteClient(baseUrl, config.mcp.apiKey);
  const document = await client.get("/api/openapi.json");
  logger.info({ url: baseUrl }, "pelagic mcp: answering from the service");
  await serveStdio(buildCatalog(document as unknown as OpenApiDocument, config.mcp), clientCaller(client));
}

async function overLocalStore(config: Config, logger: Logger): Promise<void> {
  await withMigratedStore(config, async (store) => {
    const platform = await createPlatform(config.platform);
    const app = await buildApp(
      { config, store, platform, expectedSources: [], startedAt: platform.clock.now() },
      logger,
    );
    try {
      await app.ready();
      logger.info({ store: config.store.kind }, "pelagic mcp: answering from the local store");
      const catalog = buildCatalog(app.swagger() as unknown as OpenApiDocument, config.mcp);
      await serveStdio(catalog, injectCaller(app, { key: config.mcp.apiKey, remoteAddress: "127.0.0.1" }));
    } finally {
      await app.close();
      await platform.close();
    }
  });
}

export const mcpCommand: CommandSpec = {
  name: "mcp",
  summary: "the MCP server over stdio, for an AI agent: Pelagic's tools, resources and prompts",
  description:
    "Answers the Model Context Protocol on stdin and stdout, as an agent starts it. With PELAGIC_URL it calls that " +
    "service through the typed client, sending PELAGIC_API_KEY (Premium tools need a Premium key); without it, it " +
    "reads the local store (DATA_DIR or DATABASE_URL) through the service's own routes, the key checked against that " +
    "store. Logs go to stderr.",
  flags: {
    "pelagic-url": settingFlag("PELAGIC_URL", "<url>"),
    "pelagic-api-key": settingFlag("PELAGIC_API_KEY", "<key>"),
  },
  examples: [
    "PELAGIC_URL=https://pelagic.example PELAGIC_API_KEY=pelagic_... pelagic mcp",
    "DATA_DIR=./data pelagic mcp",
  ],
  async run(config) {
    const logger = createLogger(config.server.logLevel, process.stderr);
    if (config.mcp.url) await overService(config, config.mcp.url, logger);
    else await overLocalStore(config, logger);
  },
};
