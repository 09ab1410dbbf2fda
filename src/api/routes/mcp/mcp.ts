/**
 * POST /mcp: the MCP server (src/mcp/) over Streamable HTTP, stateless: each request is answered by a server of its
 * own, in JSON, so any API process answers any request (no session to route to, nothing held between requests).
 * A route like the others, behind the same gate: it costs one request of the caller's budget (its key's, else its
 * IP's), and each tool call is a request of the route it reads, injected with the caller's key and address, so
 * plans and budgets apply there as over HTTP. GET and DELETE answer 405: no server-sent stream, no session.
 * Hidden from the OpenAPI document (JSON-RPC over one path is not what it describes), as the dashboard is.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import type { OpenApiDocument } from "../../../mcp/route-shapes.js";
import { VERSION } from "../../../package.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { HttpError } from "../../errors.js";
import { injectCaller } from "./inject-caller.js";

const ROUTE = { config: { access: access.public }, schema: { hide: true } };

/**
 * A browser's request from a page of another host is refused (DNS rebinding: a page that makes its host name
 * resolve to a local service). Agents send no Origin and are not checked.
 */
function refuseForeignOrigin(origin: string | undefined, allowed: readonly string[]): void {
  if (origin === undefined || allowed.includes("*")) return;
  let host: string;
  try {
    host = new URL(origin).hostname.toLowerCase();
  } catch {
    throw new HttpError(403, `Origin ${origin} is not a URL`);
  }
  if (!allowed.includes(host))
    throw new HttpError(403, `Origin ${origin} may not call /mcp (MCP_ALLOWED_ORIGINS lists the host names allowed)`);
}

/** The request as the SDK's transport takes it: a Web Request with the body's text, which it parses itself. */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const body = typeof request.body === "string" ? request.body : JSON.stringify(request.body ?? null);
  return new Request(`http://${request.host}${request.url}`, { method: "POST", headers, body });
}

export const mcpRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const settings = ctx.config.mcp;
  if (!settings.http) return;
  // Loaded and built at the first request: the SDK takes a few hundred milliseconds to import, which a service that
  // is never asked would pay at every start, and the document is complete only once every route is registered.
  let loading: Promise<Awaited<ReturnType<typeof loadMcp>>> | undefined;
  const loadMcp = async () => {
    const [{ buildCatalog, createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
      import("../../../mcp/mcp-server.js"),
      import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    ]);
    const catalog = buildCatalog(app.swagger() as unknown as OpenApiDocument, settings);
    return { catalog, createMcpServer, WebStandardStreamableHTTPServerTransport };
  };
  // In this plugin only: the transport reads the JSON-RPC text itself, and answers malformed JSON as JSON-RPC does.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => done(null, body));

  app.post("/mcp", ROUTE, async (request, reply) => {
    refuseForeignOrigin(request.headers.origin, settings.allowedOrigins);
    const { catalog, createMcpServer, WebStandardStreamableHTTPServerTransport } = await (loading ??= loadMcp());
    const caller = injectCaller(app, { key: request.auth.key, remoteAddress: request.ip });
    const server = createMcpServer({ catalog, caller, version: VERSION });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const answer = await transport.handleRequest(webRequestOf(request));
      reply.code(answer.status);
      answer.headers.forEach((value, name) => reply.header(name, value));
      return reply.send(await answer.text());
    } finally {
      await server.close();
    }
  });

  app.route({
    ...ROUTE,
    method: ["GET", "DELETE"],
    url: "/mcp",
    handler: async (_request, reply) =>
      reply
        .code(405)
        .header("Allow", "POST")
        .send({
          jsonrpc: "2.0",
          error: { code: -32000, message: "Method not allowed: a stateless server answers POST only" },
          id: null,
        }),
  });
};
