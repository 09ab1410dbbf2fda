/**
 * MCP clients of Pelagic's server, as agents connect them: the official SDK's Client over Streamable HTTP (/mcp on a
 * listening app) and over stdio (`pelagic mcp` as a child process, pointed at a service or at a local store).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BIN } from "./cli.js";

export type McpTransportKind = "http" | "stdio (service)" | "stdio (local store)";

export interface McpConnection {
  readonly client: Client;
  /** What the server wrote to stderr (stdio). */
  stderr(): string;
  close(): Promise<void>;
}

export async function connectMcp(
  kind: McpTransportKind,
  target: { url: string; dataDir: string; key?: string },
): Promise<McpConnection> {
  const client = new Client({ name: "pelagic-test", version: "1.0.0" });
  let stderr = "";
  if (kind === "http") {
    const headers = target.key ? { "X-API-Key": target.key } : undefined;
    await client.connect(new StreamableHTTPClientTransport(new URL(`${target.url}/mcp`), { requestInit: { headers } }));
  } else {
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      LOG_LEVEL: "warn",
      ...(target.key ? { PELAGIC_API_KEY: target.key } : {}),
      ...(kind === "stdio (service)" ? { PELAGIC_URL: target.url } : { DATA_DIR: target.dataDir, PELAGIC_URL: "" }),
    };
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env, stderr: "pipe" });
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}
