/**
 * How the MCP server reaches the API: a call of one of its routes with the caller's key, answered as the route
 * answers. Tools, resources, prompts' completions all go through it, so what an agent gets is what the HTTP API
 * answers, and the gate (key, plan, rate limit) applies once, on the route. Two callers: the app in-process
 * (`app.inject`, src/api/routes/mcp/inject-caller.ts: /mcp and `pelagic mcp` on the local store) and the typed
 * client over HTTP (client-caller.ts: `pelagic mcp` pointed at a service).
 */
export interface ApiCall {
  /** The route's path as the OpenAPI document writes it, `/api/v2/wallet/{address}/overview`. */
  readonly path: string;
  readonly pathParams: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | number | boolean>>;
}

export interface ApiAnswer {
  readonly status: number;
  /** The JSON body (or its text when it is not JSON). */
  readonly body: unknown;
  /** Retry-After in seconds, when the answer carried it. */
  readonly retryAfterSeconds?: number;
}

export type ApiCaller = (call: ApiCall) => Promise<ApiAnswer>;

/** The call's URL (path and query string), its path parameters filled in. */
export function callUrl(call: ApiCall): string {
  const path = call.path.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
    encodeURIComponent(call.pathParams[name] ?? ""),
  );
  const query = new URLSearchParams(
    Object.entries(call.query).map(([name, value]): [string, string] => [name, String(value)]),
  );
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
