/**
 * What a user meets while the demo's first sync runs: `pelagic demo` (a fresh store, the default world) is started,
 * and from the moment it listens until a few seconds after it says ready, `/api/v1/health` and a wallet's public
 * overview are each requested 20 times a second. Prints the time to listening and to ready, and each route's
 * p50, p99 and worst latency, with the ingest in its own thread (the default) and, for comparison, in the serving
 * thread (INGEST_THREAD=false). `npm run bench first-sync`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../test/support/free-port.js";

const BIN = fileURLToPath(new URL("../bin/pelagic.js", import.meta.url));
const PER_SECOND = 20;
/** Polling goes on this long after ready: the first refreshes after the sync run then. */
const AFTER_READY_MS = 5_000;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

interface Poller {
  readonly latencies: number[];
  failures: number;
  stop(): void;
}

/** Requests `url` PER_SECOND times a second, whether or not the previous answer came. */
function poll(url: string): Poller {
  const poller: Poller = { latencies: [], failures: 0, stop: () => clearInterval(timer) };
  const timer = setInterval(() => {
    const started = performance.now();
    fetch(url).then(
      async (response) => {
        await response.arrayBuffer();
        if (response.status >= 500) poller.failures++;
        poller.latencies.push(performance.now() - started);
      },
      () => poller.failures++,
    );
  }, 1000 / PER_SECOND);
  return poller;
}

/** The demo's stdout, line by line, and a wait for the first line matching a pattern. */
function outputOf(child: ChildProcess): (pattern: RegExp) => Promise<RegExpExecArray> {
  const lines: string[] = [];
  let rest = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const parts = (rest + chunk.toString()).split("\n");
    rest = parts.pop() ?? "";
    lines.push(...parts);
  });
  return async (pattern) => {
    for (;;) {
      for (const line of lines) {
        const match = pattern.exec(line);
        if (match) return match;
      }
      if (child.exitCode !== null) throw new Error(`the demo ended before printing ${pattern}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
}

async function run(thread: boolean): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "pelagic-first-sync-"));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, "demo", "--port", String(port)], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      LOG_LEVEL: "warn",
      INGEST_THREAD: String(thread),
      // The pollers are one client: lift the Free budget so every request is answered, not refused.
      RATE_FREE_PER_MINUTE: "1000000",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lineMatching = outputOf(child);
  try {
    const serving = await lineMatching(/serving at (\S+) after/);
    const listeningMs = performance.now() - started;
    const url = serving[1]!.replace(/,$/, "");
    const dataApi = (await lineMatching(/VENUE_DATA_API_URL=(\S+)/))[1]!;
    const [trade] = (await (await fetch(`${dataApi}/trades?limit=1`)).json()) as { proxyWallet: string }[];
    const health = poll(`${url}/api/v1/health`);
    const overview = poll(`${url}/api/public/v1/wallet/${trade!.proxyWallet}/overview`);
    await lineMatching(/demo ready in/);
    const readyMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, AFTER_READY_MS));
    health.stop();
    overview.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const label = thread ? "ingest thread" : "serving thread";
    console.log(
      `${label}: listening after ${(listeningMs / 1000).toFixed(1)} s, ready after ${(readyMs / 1000).toFixed(1)} s`,
    );
    for (const [name, poller] of [
      ["health", health],
      ["overview", overview],
    ] as const) {
      const sorted = [...poller.latencies].sort((a, b) => a - b);
      console.log(
        `  ${name.padEnd(8)} ${sorted.length} answers, ${poller.failures} failed: p50 ${ms(quantile(sorted, 0.5))}, ` +
          `p99 ${ms(quantile(sorted, 0.99))}, worst ${ms(sorted.at(-1) ?? 0)}`,
      );
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const thread of [true, false]) await run(thread);
