/**
 * The ApiCaller of the MCP server inside a Pelagic process (/mcp, and `pelagic mcp` on the local store): each call
 * is a request injected into the app itself, with the caller's key and client address, so that it passes the same
 * gate (key, plan, rate limit, local-only rule) and gets the same answer as over HTTP.
 */
import { keyHeaders } from "@pelagic/client";
import type { FastifyInstance } from "fastify";
import { type ApiCaller, callUrl } from "../../../mcp/api-call.js";

export function injectCaller(app: FastifyInstance, as: { key?: string; remoteAddress: string }): ApiCaller {
  const headers = keyHeaders(as.key);
  return async (call) => {
    const response = await app.inject({ method: "GET", url: callUrl(call), headers, remoteAddress: as.remoteAddress });
    let body: unknown = response.body;
    try {
      body = response.json();
    } catch {
      /* not JSON: the text is the body */
    }
    const retryAfter = Number(response.headers["retry-after"]);
    return {
      status: response.statusCode,
      body,
      retryAfterSeconds: Number.isFinite(retryAfter) && response.headers["retry-after"] ? retryAfter : undefined,
    };
  };
}
