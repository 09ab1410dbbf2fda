/**
 * Process start, compiled (dist/, as `npm install` builds it) against the sources through tsx
 * (PELAGIC_RUNTIME=sources): `pelagic --help` to its exit, and `pelagic serve` (a fresh SQLite store, no ingest, no
 * territory monitor) from spawn to its first 200 of /api/v1/health, with the resident memory at each end. Three runs
 * of each, printed as they come and as medians. Needs dist/ current (`npm run build`). `npm run bench start`.
 */
import { freePort } from "../test/support/free-port.js";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../bin/pelagic.js", import.meta.url));
const RUNS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function helpRun(runtime: string): { ms: number; rssMb: number } {
  const run = spawnSync("/usr/bin/time", ["-f", "%e %M", process.execPath, BIN, "--help"], {
    env: { ...process.env, PELAGIC_RUNTIME: runtime },
    encoding: "utf8",
  });
  const [seconds, kb] = run.stderr.trim().split("\n").at(-1)!.split(" ").map(Number);
  return { ms: seconds! * 1000, rssMb: kb! / 1024 };
}

async function serveRun(runtime: string): Promise<{ ms: number; rssMb: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), "pelagic-start-"));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, "serve"], {
    env: {
      ...process.env,
      PELAGIC_RUNTIME: runtime,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      PORT: String(port),
      INGEST: "false",
      ISW_MONITOR: "false",
      LOG_LEVEL: "warn",
    },
    stdio: "ignore",
  });
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ms = performance.now() - started;
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1]);
    return { ms, rssMb: rssKb / 1024 };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const fmt = ({ ms, rssMb }: { ms: number; rssMb: number }) => `${Math.round(ms)} ms, ${Math.round(rssMb)} MB`;
for (const runtime of ["compiled", "sources"]) {
  const help = [];
  const serve = [];
  for (let i = 0; i < RUNS; i++) {
    help.push(helpRun(runtime));
    serve.push(await serveRun(runtime));
    console.log(`${runtime} run ${i + 1}: --help ${fmt(help.at(-1)!)}; serve to health ${fmt(serve.at(-1)!)}`);
  }
  console.log(
    `${runtime}: --help median ${fmt({ ms: median(help.map((r) => r.ms)), rssMb: median(help.map((r) => r.rssMb)) })}; ` +
      `serve to health median ${fmt({ ms: median(serve.map((r) => r.ms)), rssMb: median(serve.map((r) => r.rssMb)) })}`,
  );
}
