/** Runs the real `pelagic` command in a child process, as a user would. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/pelagic.js", import.meta.url));

export interface Running {
  child: ChildProcess;
  /** Every stdout line so far, parsed when it is JSON. */
  lines: Array<Record<string, unknown> | string>;
  stderr(): string;
  /** Resolves with the first log line matching, or rejects after ms. */
  waitFor(match: (line: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

export function spawnPelagic(args: string[], env: Record<string, string | undefined>): Running {
  return follow(
    spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] }),
  );
}

/** Follows a child process started with piped stdout and stderr (a `pelagic` command, or a shell running one). */
export function follow(child: ChildProcess): Running {
  const lines: Running["lines"] = [];
  let err = "";
  let buffer = "";
  const waiters: Array<{
    match: (l: Record<string, unknown>) => boolean;
    resolve: (l: Record<string, unknown>) => void;
  }> = [];
  child.stdout?.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const raw = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let line: Record<string, unknown> | string = raw;
      try {
        line = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        /* plain text line */
      }
      lines.push(line);
      if (typeof line === "object") {
        for (const w of [...waiters]) {
          if (w.match(line)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(line);
          }
        }
      }
    }
  });
  child.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    lines,
    stderr: () => err,
    exited,
    waitFor(match, ms = 120_000) {
      const found = lines.find((l): l is Record<string, unknown> => typeof l === "object" && match(l));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching log line in ${ms} ms; stderr: ${err}`)), ms);
        waiters.push({ match, resolve: (l) => (clearTimeout(timer), resolve(l)) });
        void exited.then((code) => reject(new Error(`process exited (${code}) before the line; stderr: ${err}`)));
      });
    },
  };
}

export function runPelagic(args: string[], env: Record<string, string | undefined>) {
  return spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, encoding: "utf8" });
}
