/**
 * What every request of the client goes through, as a fetch function for openapi-fetch: the key, retries that honour
 * Retry-After, and ETag reuse.
 * - The key goes as X-API-Key and as a Bearer token: the contract's Premium /api/v2 routes read the first, the
 *   /isw/premium mirrors the second, every other route either.
 * - 429 is retried for any method (the service refused it before doing anything); 503 (a read that timed out), 202
 *   with Retry-After (a cold overview) and a failed connection only for GET and HEAD. A wait longer than
 *   `maxRetryDelayMs` is not made: the answer is returned as is (the caller sees the 429 and its Retry-After).
 *   No other status is retried: a 4xx says what to fix.
 * - A GET answered 200 with an ETag is kept (up to `maxEntries` answers, the least recently used dropped); the next
 *   GET of the same URL sends If-None-Match, and a 304 is answered from what was kept.
 */
import { retryAfterSeconds } from "./errors.js";

export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  readonly retries?: number;
  /** The longest wait before a retry, Retry-After included (default 60,000 ms: the service's 429 asks for 60 s). */
  readonly maxRetryDelayMs?: number;
  /** The first wait when the answer names none; doubled each retry (default 500 ms). */
  readonly baseDelayMs?: number;
}

export interface EtagOptions {
  /** Answers kept for revalidation (default 100). */
  readonly maxEntries?: number;
  /** Larger bodies are not kept (default 1 MiB). */
  readonly maxBodyBytes?: number;
}

export type FetchFunction = (request: Request) => Promise<Response>;

const IDEMPOTENT = new Set(["GET", "HEAD"]);

/** The headers that carry a key, as the service reads them. */
export function keyHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { "X-API-Key": apiKey, Authorization: `Bearer ${apiKey}` } : {};
}

/** A request with the key's headers, unless it sets its own. */
export function withKey(request: Request, apiKey: string | undefined): Request {
  if (!apiKey || request.headers.has("x-api-key") || request.headers.has("authorization")) return request;
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(keyHeaders(apiKey))) headers.set(name, value);
  return new Request(request, { headers });
}

/** Resolves after `ms`, or rejects when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

interface Kept {
  readonly etag: string;
  readonly body: string;
  readonly headers: [string, string][];
}

/** Answers kept by URL for If-None-Match, least recently used first. */
class EtagCache {
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly maxEntries: number,
    private readonly maxBodyBytes: number,
  ) {}

  get(url: string): Kept | undefined {
    const kept = this.kept.get(url);
    if (kept) {
      this.kept.delete(url);
      this.kept.set(url, kept);
    }
    return kept;
  }

  async keep(url: string, response: Response): Promise<void> {
    const etag = response.headers.get("etag");
    const length = Number(response.headers.get("content-length") ?? 0);
    if (!etag || length > this.maxBodyBytes) return;
    const body = await response.clone().text();
    if (body.length > this.maxBodyBytes) return;
    this.kept.delete(url);
    this.kept.set(url, { etag, body, headers: [...response.headers] });
    if (this.kept.size > this.maxEntries) this.kept.delete(this.kept.keys().next().value as string);
  }
}

/** The wait before the next attempt, or undefined when this answer is final. */
function waitBefore(response: Response, method: string, attempt: number, baseDelayMs: number): number | undefined {
  const idempotent = IDEMPOTENT.has(method);
  const retryable =
    response.status === 429 ||
    (idempotent && response.status === 503) ||
    (idempotent && response.status === 202 && response.headers.has("retry-after"));
  if (!retryable) return undefined;
  const seconds = retryAfterSeconds(response.headers);
  return seconds === undefined ? baseDelayMs * 2 ** attempt : seconds * 1000;
}

export function policyFetch(options: {
  apiKey?: string;
  fetch?: typeof fetch;
  retry?: RetryOptions;
  etags?: EtagOptions | false;
}): FetchFunction {
  const send = options.fetch ?? globalThis.fetch;
  const retries = options.retry?.retries ?? 2;
  const maxDelayMs = options.retry?.maxRetryDelayMs ?? 60_000;
  const baseDelayMs = options.retry?.baseDelayMs ?? 500;
  const etags =
    options.etags === false
      ? undefined
      : new EtagCache(options.etags?.maxEntries ?? 100, options.etags?.maxBodyBytes ?? 1 << 20);

  return async (original) => {
    const request = withKey(original, options.apiKey);
    const method = request.method.toUpperCase();
    const kept = method === "GET" ? etags?.get(request.url) : undefined;
    for (let attempt = 0; ; attempt++) {
      const attemptRequest = request.clone();
      if (kept && !attemptRequest.headers.has("if-none-match")) attemptRequest.headers.set("If-None-Match", kept.etag);
      let response: Response;
      try {
        response = await send(attemptRequest);
      } catch (error) {
        const delay = baseDelayMs * 2 ** attempt;
        if (!IDEMPOTENT.has(method) || attempt >= retries || delay > maxDelayMs || request.signal.aborted) throw error;
        await sleep(delay, request.signal);
        continue;
      }
      if (response.status === 304 && kept) return new Response(kept.body, { status: 200, headers: kept.headers });
      const delay = waitBefore(response, method, attempt, baseDelayMs);
      if (delay === undefined || attempt >= retries || delay > maxDelayMs) {
        if (method === "GET" && response.status === 200) await etags?.keep(request.url, response);
        return response;
      }
      await response.body?.cancel();
      await sleep(delay, request.signal);
    }
  };
}
