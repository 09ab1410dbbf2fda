/**
 * The MCP conformance suite published for servers (@modelcontextprotocol/conformance, server mode, every scenario)
 * against /mcp of a service: it passes but for the scenarios test/fixtures/mcp/conformance-baseline.yml lists, each
 * with why (the suite exits non-zero on any other failure, and on a listed one that passes).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, openTestApp } from "./support/app.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const SUITE = join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

describe("the MCP conformance suite against /mcp", () => {
  let t: TestApp;
  let url: string;
  const results = mkdtempSync(join(tmpdir(), "pelagic-mcp-conformance-"));

  beforeAll(async () => {
    // Every scenario opens a session of its own: more requests than a free client's minute allows.
    t = await openTestApp({ env: { RATE_FREE_PER_MINUTE: "100000" } });
    url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(results, { recursive: true, force: true });
  });

  it("passes every scenario but those the baseline lists", async () => {
    // A child process of its own, waited for without blocking this one: the app under test runs here.
    const child = spawn(
      process.execPath,
      [
        "--import",
        join(root, "test/support/conformance-on-node20.mjs"),
        SUITE,
        "server",
        "--url",
        `${url}/mcp`,
        "--suite",
        "all",
        "--expected-failures",
        join(root, "test/fixtures/mcp/conformance-baseline.yml"),
        "--output-dir",
        results,
      ],
      { cwd: results, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    const summary = stdout.slice(stdout.indexOf("=== SUMMARY ==="));
    expect(status, `${summary}\n${stderr}`).toBe(0);
    expect(summary).toMatch(/✓ server-initialize: 1 passed, 0 failed/);
    expect(summary).toMatch(/✓ tools-list: 1 passed, 0 failed/);
    expect(summary).toMatch(/✓ dns-rebinding-protection: 2 passed, 0 failed/);
  }, 90_000);

  it("is not served when MCP_HTTP is off", async () => {
    const off = await openTestApp({ env: { MCP_HTTP: "false" } });
    try {
      expect((await off.app.inject({ method: "POST", url: "/mcp", payload: {} })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});
