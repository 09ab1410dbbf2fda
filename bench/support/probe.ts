/**
 * Single requests of the API bench, one at a time: the first requests a fresh service answers (what a cold cache
 * or a lazily built index costs the user who comes first), and the answer's size on the wire and as JSON. And the
 * service's peak resident memory, read from Linux's /proc.
 */
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { gunzipSync } from "node:zlib";

export interface Probe {
  readonly ms: number;
  readonly status: number;
  /** Body bytes as sent (compressed when the service compressed it). */
  readonly wireBytes: number;
  /** Body bytes once decompressed. */
  readonly jsonBytes: number;
}

export function probe(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Probe> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const req = request(new URL(path, base), { method: options.method ?? "GET", headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        const json = res.headers["content-encoding"] === "gzip" ? gunzipSync(body) : body;
        resolve({
          ms: performance.now() - started,
          status: res.statusCode ?? 0,
          wireBytes: body.length,
          jsonBytes: json.length,
        });
      });
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The process's peak resident set (VmHWM), MiB; undefined where /proc is not there. */
export function peakRssMb(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s*(\d+)\s*kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
