/**
 * The one HTTP client every venue client uses: base URL, a bounded timeout per attempt, pacing under the
 * venue's limits, and retries with exponential backoff and full jitter on 429, 5xx and network errors
 * (honouring Retry-After). Errors name the client and the path, never the base URL (RPC URLs carry keys).
 */
import { PelagicError } from "../errors/index.js";
import type { Config } from "../config/index.js";
import { systemClock, type Clock } from "../platform/clock.js";
import { Pacer, realSleep, type RateLimit, type Sleep } from "./pacing.js";

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Readonly<Record<string, QueryValue>>;

/** A non-retryable answer (e.g. 400, 404, 422), or a retryable one given up on. */
export class VenueHttpError extends PelagicError {
  constructor(
    readonly client: string,
    readonly path: string,
    readonly status: number,
    /** The parsed JSON body, or the text when it is not JSON. */
    readonly body: unknown,
    readonly attempts: number,
  ) {
    super("VENUE_HTTP_ERROR", `${client} ${path}: HTTP ${status}${describeBody(body)}`);
  }
}

/** The venue did not answer usefully within the attempt budget: the caller should degrade and try later. */
export class VenueUnavailableError extends PelagicError {
  constructor(
    readonly client: string,
    readonly path: string,
    readonly attempts: number,
    /** The last HTTP status seen; null when the last attempt failed on the network or timed out. */
    readonly lastStatus: number | null,
    /** Set when the venue asked for a longer pause than the client may wait. */
    readonly retryAfterMs: number | null,
    options?: { cause?: unknown },
  ) {
    const last = lastStatus
      ? ` (last HTTP ${lastStatus})`
      : options?.cause
        ? ` (last: ${networkCauseOf(options.cause)})`
        : "";
    super("VENUE_UNAVAILABLE", `${client} ${path}: unavailable after ${attempts} attempt(s)${last}`, options);
    this.name = "VenueUnavailableError";
  }
}

/**
 * Why a request got no answer, in words an operator acts on: the DNS lookup failed, the connection was refused or
 * reset, or the request timed out; otherwise the error's own text. fetch() hides these in `cause` ("fetch failed").
 */
export function networkCauseOf(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const inner = (cause ?? error) as {
    code?: string;
    hostname?: string;
    address?: string;
    port?: number;
    message?: string;
    name?: string;
  };
  const outer = error as { name?: string; message?: string };
  if (outer?.name === "TimeoutError" || inner?.name === "TimeoutError" || inner?.code === "UND_ERR_CONNECT_TIMEOUT")
    return "timed out (no answer within VENUE_TIMEOUT_MS)";
  switch (inner?.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `DNS lookup failed (${inner.code}${inner.hostname ? ` ${inner.hostname}` : ""})`;
    case "ECONNREFUSED":
      return `connection refused (ECONNREFUSED${inner.address ? ` ${inner.address}:${inner.port}` : ""})`;
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return `connection reset (${inner.code})`;
    case "ENETUNREACH":
    case "EHOSTUNREACH":
      return `network unreachable (${inner.code})`;
  }
  return inner?.message ?? outer?.message ?? String(error);
}

function describeBody(body: unknown): string {
  if (body === null || body === undefined || body === "") return "";
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return `: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
}

/** How to treat an answer: done, retry (optionally after a pause), or fail for good. */
export type Verdict =
  | { readonly kind: "ok" }
  | { readonly kind: "retry"; readonly status: number; readonly retryAfterMs?: number | null }
  | { readonly kind: "fail"; readonly status: number };

/** Decides on a parsed answer; returning null falls back to the status-code rule. */
export type InspectResponse = (status: number, body: unknown) => Verdict | null;

export function defaultVerdict(status: number): Verdict {
  if (status >= 200 && status < 300) return { kind: "ok" };
  if (status === 429 || status === 408 || status >= 500) return { kind: "retry", status };
  return { kind: "fail", status };
}

export type VenueHttpEvent =
  | {
      readonly type: "retry";
      readonly client: string;
      readonly path: string;
      readonly attempt: number;
      readonly status: number | null;
      readonly delayMs: number;
    }
  | {
      readonly type: "unavailable";
      readonly client: string;
      readonly path: string;
      readonly attempts: number;
      readonly status: number | null;
    }
  | {
      /** The client moved to the API's next version: the one it read answered `status` (gone). Once per client. */
      readonly type: "version";
      readonly client: string;
      readonly path: string;
      readonly from: string;
      readonly to: string;
      readonly status: number;
    };

export interface VenueHttpOptions {
  /** Names the client in errors and events ("gamma", "data-api", ...). */
  readonly name: string;
  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** Attempts per request, the first included. Default 5. */
  readonly maxAttempts?: number;
  /** Backoff before attempt n+1 is uniform in [0, min(backoffMaxMs, backoffBaseMs × 2^(n−1))). */
  readonly backoffBaseMs?: number;
  readonly backoffMaxMs?: number;
  /** A Retry-After longer than this gives up at once (VenueUnavailableError carries the pause). Default 120 s. */
  readonly maxRetryAfterMs?: number;
  readonly rateLimits?: readonly RateLimit[];
  /** Requests in flight at once. Default unlimited. */
  readonly maxConcurrent?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
  readonly clock?: Clock;
  readonly sleep?: Sleep;
  readonly random?: () => number;
  readonly onEvent?: (event: VenueHttpEvent) => void;
}

export interface RequestOptions {
  readonly query?: Query;
  readonly signal?: AbortSignal;
  readonly inspect?: InspectResponse;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface VenueResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
  readonly attempts: number;
}

/** Appends query parameters; arrays repeat the key (`condition_ids=a&condition_ids=b`), null/undefined are left out. */
export function buildUrl(baseUrl: string, path: string, query: Query = {}): URL {
  const url = /^https?:\/\//.test(path)
    ? new URL(path)
    : new URL(baseUrl.replace(/\/+$/, "") + (path === "" || path.startsWith("/") ? path : `/${path}`));
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
    else url.searchParams.append(key, String(value));
  }
  return url;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. Null when absent or unreadable. */
export function parseRetryAfter(header: string | null, nowMs: number): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : null;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export class VenueHttpClient {
  readonly name: string;
  /** Tells the client's listener (logs, health) of an event of the API it reads, such as a version change. */
  readonly report: (event: VenueHttpEvent) => void;
  readonly baseUrl: string;
  private readonly pacer: Pacer;
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: VenueHttpOptions) {
    this.name = options.name;
    this.report = (event) => options.onEvent?.(event);
    this.baseUrl = options.baseUrl;
    this.clock = options.clock ?? systemClock;
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.fetchImpl = options.fetch ?? fetch;
    this.pacer = new Pacer(options.rateLimits ?? [], this.clock, this.sleep, options.maxConcurrent);
  }

  get(path: string, options: RequestOptions = {}): Promise<VenueResponse> {
    return this.request("GET", path, undefined, options);
  }

  post(path: string, body: unknown, options: RequestOptions = {}): Promise<VenueResponse> {
    return this.request("POST", path, body, options);
  }

  /** The body of a successful GET. */
  async getJson(path: string, query?: Query, options: Omit<RequestOptions, "query"> = {}): Promise<unknown> {
    return (await this.get(path, { ...options, query })).body;
  }

  async request(
    method: "GET" | "POST",
    path: string,
    body: unknown,
    options: RequestOptions = {},
  ): Promise<VenueResponse> {
    const maxAttempts = Math.max(1, this.options.maxAttempts ?? 5);
    const url = buildUrl(this.baseUrl, path, options.query);
    const label = path || "/";
    const pacedPath = url.pathname.slice(new URL(this.baseUrl).pathname.replace(/\/+$/, "").length) || "/";
    let lastStatus: number | null = null;
    let lastError: unknown;
    for (let attempt = 1; ; attempt++) {
      const release = await this.pacer.acquire(pacedPath, options.signal);
      let verdict: Verdict;
      let headers: Headers | null = null;
      let responseBody: unknown = null;
      try {
        const response = await this.attempt(method, url, body, options);
        lastError = undefined;
        headers = response.headers;
        responseBody = await readBody(response);
        verdict = options.inspect?.(response.status, responseBody) ?? defaultVerdict(response.status);
        if (verdict.kind === "ok") return { status: response.status, body: responseBody, headers, attempts: attempt };
        lastStatus = verdict.status;
      } catch (error) {
        if (options.signal?.aborted) throw error;
        lastError = error;
        lastStatus = null;
        verdict = { kind: "retry", status: 0 };
      } finally {
        release();
      }
      if (verdict.kind === "fail") throw new VenueHttpError(this.name, label, verdict.status, responseBody, attempt);
      const retryAfterMs =
        verdict.kind === "retry" && verdict.retryAfterMs != null
          ? verdict.retryAfterMs
          : parseRetryAfter(headers?.get("retry-after") ?? null, this.clock.nowMs());
      const tooLong = retryAfterMs !== null && retryAfterMs > (this.options.maxRetryAfterMs ?? 120_000);
      if (attempt >= maxAttempts || tooLong) {
        this.options.onEvent?.({
          type: "unavailable",
          client: this.name,
          path: label,
          attempts: attempt,
          status: lastStatus,
        });
        throw new VenueUnavailableError(this.name, label, attempt, lastStatus, tooLong ? retryAfterMs : null, {
          cause:
            lastError ??
            (lastStatus !== null ? new VenueHttpError(this.name, label, lastStatus, responseBody, attempt) : undefined),
        });
      }
      const delayMs = Math.max(this.backoffMs(attempt), retryAfterMs ?? 0);
      this.options.onEvent?.({ type: "retry", client: this.name, path: label, attempt, status: lastStatus, delayMs });
      await this.sleep(delayMs, options.signal);
    }
  }

  /** Full jitter: uniform in [0, min(max, base × 2^(attempt−1))). */
  private backoffMs(attempt: number): number {
    const base = this.options.backoffBaseMs ?? 500;
    const cap = this.options.backoffMaxMs ?? 30_000;
    return Math.floor(this.random() * Math.min(cap, base * 2 ** (attempt - 1)));
  }

  private async attempt(method: string, url: URL, body: unknown, options: RequestOptions): Promise<Response> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers: Record<string, string> = { accept: "application/json", ...this.options.headers, ...options.headers };
    if (body !== undefined) headers["content-type"] = "application/json";
    return this.fetchImpl(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  }
}

/**
 * The client of one venue API as the configuration sets it up (its base URL, the venue request timeout, the API's
 * published rate limits); `overrides` come last (tests point the clock and sleep elsewhere).
 */
export function configuredHttpClient(
  config: Pick<Config, "venue">,
  api: { name: string; baseUrl: string; rateLimits: readonly RateLimit[] },
  overrides: Partial<VenueHttpOptions> = {},
): VenueHttpClient {
  return new VenueHttpClient({ timeoutMs: config.venue.requestTimeoutMs, ...api, ...overrides });
}
