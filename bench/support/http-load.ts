/**
 * HTTP load for the endpoint benches: the service runs in a child process (`pelagic serve` over a prepared
 * store, ingest off), the load generator (autocannon) in this one, so the two do not share an event loop.
 * The ceiling is a bare Fastify route answering a fixed pre-serialized body, in a child process too: the
 * fastest any endpoint can be on this machine.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

// autocannon appends every response body to a string (`body += chunk`), for checks these benches never ask for
// (expectBody, verifyBody, onResponse). That decoding runs in the load generator, which shares the 2 cores with the
// service: it cost a quarter of its CPU on 29 KB JSON answers, and more on gzip ones (binary data decodes slowly as
// UTF-8), so it measured the load generator instead of the service. Bytes are counted apart and stay exact.
const queue = createRequire(import.meta.url)("autocannon/lib/pipelinedRequestsQueue.js") as {
  prototype: { addBody(data: Buffer): void };
};
queue.prototype.addBody = () => undefined;

const CEILING = fileURLToPath(new URL("./ceiling-server.ts", import.meta.url));

export interface Server {
  readonly url: string;
  /** The server's process id. */
  readonly pid: number;
  close(): Promise<void>;
}

function serverFrom(child: ChildProcess, urlOf: (line: string) => string | undefined): Promise<Server> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split("\n")) {
        const url = urlOf(line);
        if (url) {
          child.stdout?.removeAllListeners("data");
          child.stdout?.resume();
          resolve({
            url,
            pid: child.pid as number,
            close: () =>
              new Promise<void>((done) => {
                child.once("exit", () => done());
                child.kill("SIGTERM");
              }),
          });
          return;
        }
      }
    });
  });
}

/** API only, rate limits out of the way, logs at info (the access log writes its per-request lines at debug). */
const SERVICE_ENV = {
  PORT: "0",
  HOST: "127.0.0.1",
  INGEST: "false",
  LOG_LEVEL: "info",
  RATE_FREE_PER_MINUTE: "100000000",
  RATE_PREMIUM_PER_MINUTE: "100000000",
};

function servingUrl(line: string): string | undefined {
  if (!line.includes("pelagic serving")) return undefined;
  return (JSON.parse(line) as { url: string }).url;
}

const CLOCKED = fileURLToPath(new URL("./clocked-service.ts", import.meta.url));

/**
 * `pelagic serve` over DATA_DIR, API only, rate limits out of the way, with its clock starting at `clockAt` (unix
 * seconds; see support/clocked-service.ts). `BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`
 * profiles it under load.
 */
export function startService(dataDir: string, clockAt: number, env: Record<string, string> = {}): Promise<Server> {
  const nodeArgs = process.env.BENCH_SERVICE_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", CLOCKED], {
    env: { ...process.env, ...SERVICE_ENV, DATA_DIR: dataDir, BENCH_CLOCK_AT: String(clockAt), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return serverFrom(child, servingUrl);
}

export function startCeiling(): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", CEILING], { stdio: ["ignore", "pipe", "pipe"] });
  return serverFrom(child, (line) => (line.startsWith("http://") ? line.trim() : undefined));
}

export interface Target {
  readonly label: string;
  readonly method?: "GET" | "POST";
  /** Paths to rotate through (different wallets or markets), or one. */
  readonly paths: readonly string[];
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

export interface LoadFigures {
  readonly rps: number;
  readonly non2xx: number;
}

/**
 * Runs `target` against `base` for `seconds`, as fast as `connections` allow (closed loop: throughput). Over several
 * bases (the scaled mode's API processes) the connections are dealt round robin, as many to each.
 */
export async function load(
  base: string | readonly string[],
  target: Target,
  options: { seconds: number; connections: number },
): Promise<LoadFigures> {
  let next = 0;
  const result = await autocannon({
    url: typeof base === "string" ? base : [...base],
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        method: target.method ?? "GET",
        headers: { "content-type": "application/json", ...target.headers },
        ...(target.body === undefined ? {} : { body: target.body }),
        setupRequest: (request: Record<string, unknown>) => {
          request.path = target.paths[next++ % target.paths.length];
          return request;
        },
      },
    ],
  });
  return { rps: result.requests.average, non2xx: result.non2xx };
}

/** The scaled mode's API processes in the benches (the closed loop deals its connections over them). */
export const SCALED_API_PROCESSES = 2;

/**
 * The scaled mode without its ingest: `processes` (SCALED_API_PROCESSES) fresh `serve --role api` processes on the PostgreSQL
 * world `databaseUrl`, sharing Redis under `redisPrefix`, rate limits out of the way, clocks at `clockAt`.
 */
export function startScaledServices(
  dataDir: string,
  clockAt: number,
  shared: { databaseUrl: string; redisUrl: string; redisPrefix: string },
  processes = SCALED_API_PROCESSES,
): Promise<Server[]> {
  const env = {
    ROLE: "api",
    DATABASE_URL: shared.databaseUrl,
    REDIS_URL: shared.redisUrl,
    REDIS_PREFIX: shared.redisPrefix,
  };
  return Promise.all(Array.from({ length: processes }, () => startService(dataDir, clockAt, env)));
}
