/**
 * `npm install` compiles the service to dist/ (bin/build.js) and `pelagic` runs that, worker threads included; a
 * source newer than the build makes it run the sources (through tsx) instead, so an edit never runs stale. The
 * compiled command answers as the sources do.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript beside bin/pelagic.js, without declarations
import { SOURCE_STAMP, newestSource } from "../bin/sources.js";
import { workerEntry } from "../src/platform/worker-entry.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const stamp = `${root}dist/${SOURCE_STAMP as string}`;

async function pelagic(args: string[]): Promise<{ stdout: string; runtime: string }> {
  const { stdout, stderr } = await run(process.execPath, [`${root}bin/pelagic.js`, ...args], {
    cwd: root,
    env: { ...process.env, PELAGIC_REPORT_RUNTIME: "1", LOG_LEVEL: "silent" },
  });
  return { stdout, runtime: /runtime: (\w+)/.exec(stderr)?.[1] ?? "?" };
}

describe("the compiled runtime", () => {
  it("is built by npm install: every module, the worker threads' entries and the prompts, stamped with the sources it is", () => {
    expect(existsSync(stamp), "dist/ is missing: npm install (or npm run build) builds it").toBe(true);
    for (const path of [
      "dist/commands/index.js",
      "dist/ingest/chain-reader-worker.js",
      "dist/runtime/aggregates-thread.js",
      "dist/ai/prompts/wallet-analysis.v1.md",
    ])
      expect(existsSync(`${root}${path}`), path).toBe(true);
    expect(Number(readFileSync(stamp, "utf8"))).toBeGreaterThan(0);
  });

  it("runs the build while it is current, the sources once one is newer, and both answer alike", async () => {
    const current = Number(readFileSync(stamp, "utf8")) >= (newestSource(`${root}src`) as number);
    const compiled = await pelagic(["settings"]);
    expect(compiled.runtime).toBe(current ? "compiled" : "sources");
    expect(compiled.stdout).toContain("DATA_DIR");
    // The sources, as a newer edit would make it run them: the same answer.
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "-e", 'const { main } = await import("./src/commands/index.ts"); await main(["settings"]);'],
      { cwd: root, env: { ...process.env, LOG_LEVEL: "silent" } },
    );
    expect(stdout).toBe(compiled.stdout);
  }, 60_000);

  it("starts a worker thread from its compiled module, or from the shim that loads its source", () => {
    expect(workerEntry("file:///p/dist/ingest/chain-reader.js", "chain-reader-worker").href).toBe(
      "file:///p/dist/ingest/chain-reader-worker.js",
    );
    expect(workerEntry("file:///p/src/ingest/chain-reader.ts", "chain-reader-worker").href).toBe(
      "file:///p/src/ingest/chain-reader-worker.mjs",
    );
  });
});
