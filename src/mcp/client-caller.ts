/**
 * The ApiCaller of `pelagic mcp` pointed at a service: the typed client over HTTP, with the user's key, its retries
 * capped short (an agent is better told "retry after 60 s" than kept waiting) and its ETag reuse.
 */
import { type PelagicClient, createPelagicClient, retryAfterSeconds } from "@pelagic/client";
import type { ApiCaller } from "./api-call.js";

/** The longest Retry-After the MCP server waits out itself before answering the refusal. */
const MAX_RETRY_WAIT_MS = 5_000;

export function remoteClient(baseUrl: string, apiKey: string | undefined): PelagicClient {
  return createPelagicClient({ baseUrl, apiKey, retry: { maxRetryDelayMs: MAX_RETRY_WAIT_MS } });
}

export function clientCaller(client: PelagicClient): ApiCaller {
  const get = client.api.GET as unknown as (
    path: string,
    init: unknown,
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  return async (call) => {
    const { data, error, response } = await get(call.path, { params: { path: call.pathParams, query: call.query } });
    return {
      status: response.status,
      body: data ?? error ?? null,
      retryAfterSeconds: retryAfterSeconds(response.headers),
    };
  };
}
