/**
 * The simulated venue's one HTTP server: path prefixes route to the per-source handlers (Gamma, Data API,
 * P&L, JSON-RPC, ArcGIS), injected faults come first, and every handler sees the world advanced to now.
 * Handlers are synchronous functions of (state, request); they throw SimErrorReply for a status with a body.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Faults } from "./faults.js";
import type { VenueState } from "./venue-state.js";

export interface SimRequest {
  readonly method: string;
  /** The path below the mount's prefix ("" or starting with "/"). */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly rawBody: string;
}

export interface SimReply {
  readonly status?: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export type RouteHandler = (request: SimRequest) => SimReply;

export interface Mount {
  readonly prefix: string;
  readonly handler: RouteHandler;
  /**
   * Plain HTTP sources answer faults with 429/5xx; ArcGIS with an error object inside HTTP 200; the ground truth,
   * which is not the venue's, with none.
   */
  readonly faultStyle: "http" | "arcgis" | "none";
}

/**
 * The simulated venue's answer other than 200, with the body the real venue would send (its own error shapes, not
 * Pelagic's `{detail}`: that is `HttpError` in src/api/errors.ts).
 */
export class SimErrorReply extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

/** The Data API's error spelling: `{"error": "..."}`. */
export function fail(status: number, message: string): never {
  throw new SimErrorReply(status, { error: message });
}

export function json(body: unknown, status = 200): SimReply {
  return { status, body };
}

export interface SimHttpServer {
  readonly server: Server;
  readonly port: number;
  close(): Promise<void>;
}

/** `latencyMs`: every answer waits this long first (a remote venue's round trip; tests slow the venue down with it). */
export async function startHttpServer(
  state: VenueState,
  faults: Faults,
  mounts: readonly Mount[],
  host: string,
  port: number,
  latencyMs = 0,
): Promise<SimHttpServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      if (latencyMs > 0) setTimeout(() => respond(req, res, body), latencyMs);
      else respond(req, res, body);
    });
  });

  function respond(req: IncomingMessage, res: ServerResponse, rawBody: string): void {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const mount = mounts.find((m) => url.pathname === m.prefix || url.pathname.startsWith(`${m.prefix}/`));
    let reply: SimReply;
    try {
      if (!mount) throw new SimErrorReply(404, { error: "not found" });
      reply = injectedFault(faults, mount.faultStyle) ?? serve(mount, req, url, rawBody);
    } catch (error) {
      reply =
        error instanceof SimErrorReply
          ? { status: error.status, body: error.body }
          : { status: 500, body: { error: String((error as Error).message ?? error) } };
    }
    res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
    res.end(JSON.stringify(reply.body));
  }

  function serve(mount: Mount, req: IncomingMessage, url: URL, rawBody: string): SimReply {
    state.sync();
    return mount.handler({
      method: req.method ?? "GET",
      path: url.pathname.slice(mount.prefix.length),
      query: url.searchParams,
      rawBody,
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function injectedFault(faults: Faults, style: Mount["faultStyle"]): SimReply | null {
  if (style === "none") return null;
  if (style === "arcgis") {
    if (faults.strikes("arcgisThrottle"))
      return json({ error: { code: 429, message: "Too many requests. Please try again later.", details: [] } });
    if (faults.strikes("serverError"))
      return json({ error: { code: 500, message: "Unable to complete operation.", details: [] } });
    return null;
  }
  if (faults.strikes("rateLimit"))
    return {
      status: 429,
      body: { error: "Too Many Requests" },
      headers: { "retry-after": String(faults.retryAfterSeconds) },
    };
  if (faults.strikes("serverError")) return json({ error: "internal server error" }, faults.serverErrorStatus());
  return null;
}

// ---- query parameters ------------------------------------------------------------------------------------

export function intParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  range: { min?: number; max?: number } = {},
): number {
  const text = query.get(name);
  if (text === null || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value)) fail(400, `invalid ${name}: ${text}`);
  if (range.min !== undefined && value < range.min) fail(400, `${name} must be >= ${range.min}`);
  return range.max !== undefined ? Math.min(value, range.max) : value;
}

export function numberParam(query: URLSearchParams, name: string): number | null {
  const text = query.get(name);
  if (text === null || text === "") return null;
  const value = Number(text);
  if (!Number.isFinite(value)) fail(400, `invalid ${name}: ${text}`);
  return value;
}

export function boolParam(query: URLSearchParams, name: string): boolean | null {
  const text = query.get(name);
  if (text === null || text === "") return null;
  if (text === "true") return true;
  if (text === "false") return false;
  return fail(400, `invalid ${name}: ${text}`);
}

/** A Data API list parameter: comma-separated values. */
export function csvParam(query: URLSearchParams, name: string): string[] {
  return (query.get(name) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** One of `allowed` (case-insensitive), returned upper case; `fallback` when absent. */
export function enumParam<T extends string>(
  query: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const text = query.get(name);
  if (text === null || text === "") return fallback;
  const value = text.toUpperCase() as T;
  if (!allowed.includes(value)) fail(400, `invalid ${name}: ${text}`);
  return value;
}

export interface Page {
  limit: number;
  offset: number;
}

/** `limit` (clamped to its maximum) and `offset`; an offset past the ceiling is the venue's HTTP 400. */
/** A list's page limits: default and largest page, the offset ceiling, and what its rows are called in errors. */
export interface PageSpec {
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly maxOffset: number;
  readonly noun: string;
}

export function pageParams(query: URLSearchParams, spec: PageSpec): Page {
  const limit = intParam(query, "limit", spec.defaultLimit, { min: 0, max: spec.maxLimit });
  const offset = intParam(query, "offset", 0, { min: 0 });
  if (offset > spec.maxOffset) fail(400, `max historical ${spec.noun} offset of ${spec.maxOffset} exceeded`);
  return { limit, offset };
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The wallet index named by an address parameter: -1 for a well-formed address the world does not know. */
export function walletParam(state: VenueState, query: URLSearchParams, name: string): number | null {
  const text = query.get(name);
  if (text === null || text === "") return null;
  if (!ADDRESS.test(text)) fail(400, `invalid ${name}: ${text}`);
  return state.world.walletIndex(text);
}

export function requiredWallet(state: VenueState, query: URLSearchParams, name = "user"): number {
  const w = walletParam(state, query, name);
  if (w === null) fail(400, `${name} is required`);
  return w;
}

/** Applies offset and limit to rows produced lazily, newest first: stops producing once the page is full. */
export function takePage<T>(rows: Iterable<T>, page: Page): T[] {
  const out: T[] = [];
  if (page.limit === 0) return out;
  let skipped = 0;
  for (const row of rows) {
    if (skipped < page.offset) {
      skipped++;
      continue;
    }
    out.push(row);
    if (out.length >= page.limit) break;
  }
  return out;
}
