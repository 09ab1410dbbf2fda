/**
 * `npm install` compiles the service to dist/ (bin/build.js) and `pelagic` runs that, worker threads included; a
 * source newer than the build makes it run the sources (through tsx) instead, so an edit never runs stale. The
 * compiled command answers as the sources do.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
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
  it("is built by npm install: the command line and the worker threads' entries, bundled, stamped with the sources it is", () => {
    expect(existsSync(stamp), "dist/ is missing: npm install (or npm run build) builds it").toBe(true);
    for (const path of [
      "dist/commands/index.js",
      "dist/ingest/chain-reader-worker.js",
      "dist/runtime/aggregates-thread.js",
      "dist/runtime/ingest-thread.js",
    ])
      expect(existsSync(`${root}${path}`), path).toBe(true);
    // Bundled: a process reads a few dozen files, not the ~2,500 modules of src/ and node_modules.
    const files = readdirSync(`${root}dist`, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js"));
    expect(files.length).toBeLessThan(100);
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

  it("starts a worker thread from its bundled entry, or from the shim that loads its source", () => {
    expect(workerEntry("ingest/chain-reader-worker", true).href).toBe(
      `file://${root}dist/ingest/chain-reader-worker.js`,
    );
    expect(workerEntry("ingest/chain-reader-worker", false).href).toBe(
      `file://${root}src/ingest/chain-reader-worker.mjs`,
    );
    for (const compiled of [true, false]) expect(existsSync(workerEntry("runtime/ingest-thread", compiled))).toBe(true);
  });
});
