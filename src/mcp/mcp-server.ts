/**
 * Pelagic's MCP server on the official SDK's low-level Server (tools take their JSON schemas from the OpenAPI
 * document as they are, where the SDK's McpServer wants zod): tools, resources, prompts and completions, each
 * answered by calling the API's routes through an ApiCaller. One catalog per document, built once; one Server per
 * connection (stdio) or per request (Streamable HTTP, stateless).
 * - A tool's answer is the route's 200 body as structured content (a list as `{items}`), and in words: a summary
 *   and the JSON. Lists are bounded by MCP_PAGE_SIZE, and the summary says how to get the rest.
 * - A refusal of the route (401, 403, 404, 422, 429, 502, 503) is a tool error (`isError`) whose text is the status
 *   and the contract's `detail`, the same in `_meta["pelagic/http"]` with Retry-After; so are arguments the route
 *   cannot be called with (a missing path argument), which the agent can then correct. An unknown tool is a
 *   JSON-RPC invalid-params error; a resource's 404 is -32002 (resource not found).
 */
import { errorDetail } from "@pelagic/client";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { ApiAnswer, ApiCall, ApiCaller } from "./api-call.js";
import { MARKET_TOOLS } from "./market-tools.js";
import { COMPLETIONS, PROMPTS } from "./prompts.js";
import { METRICS_URI, RESOURCE_TEMPLATES, metricDefinitions, templateOf } from "./resources.js";
import { type OpenApiDocument, type PageSizes, type RouteShape, routeShape } from "./route-shapes.js";
import { pagingNote } from "./text.js";
import type { ToolArgs, ToolSpec } from "./tool-spec.js";
import { WALLET_TOOLS } from "./wallet-tools.js";

export const TOOL_SPECS: readonly ToolSpec[] = [...WALLET_TOOLS, ...MARKET_TOOLS];

const INSTRUCTIONS =
  "Pelagic: whale analytics for a prediction-market venue (binary YES/NO markets). Wallets are 0x addresses " +
  "(wallet_search finds one by name); markets have a venue id (search_markets finds one). Tools marked Premium need " +
  "a Premium API key. Lists come a page at a time: each answer's summary says how to ask for the rest. What every " +
  `figure means: the resource ${METRICS_URI} (by section: ${METRICS_URI}/<section>).`;

/** Resource not found, as MCP's resources specification numbers it. */
const RESOURCE_NOT_FOUND = -32002;

export interface McpCatalog {
  readonly tools: readonly Tool[];
  readonly byName: ReadonlyMap<string, { spec: ToolSpec; shape: RouteShape }>;
  readonly pages: PageSizes;
}

/** Every tool with its schemas from `document`; a tool whose route the document lacks fails here (MissingRoute). */
export function buildCatalog(document: OpenApiDocument, pages: PageSizes): McpCatalog {
  const byName = new Map<string, { spec: ToolSpec; shape: RouteShape }>();
  const tools = TOOL_SPECS.map((spec): Tool => {
    const shape = routeShape(document, spec.route, pages);
    byName.set(spec.name, { spec, shape });
    const premium = shape.premium ? " Premium: needs a Premium API key." : "";
    return {
      name: spec.name,
      title: spec.title,
      description: `${spec.purpose}${premium}\n\nGET ${spec.route}: ${shape.summary}. ${shape.description}`.trim(),
      inputSchema: shape.inputSchema,
      outputSchema: shape.outputSchema,
      annotations: { title: spec.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      _meta: { "pelagic/premium": shape.premium, "pelagic/route": `GET ${spec.route}` },
    };
  });
  return { tools, byName, pages };
}

/** A query value as the route reads it: scalars as they are, anything else as its JSON (the route refuses it). */
const queryValue = (value: unknown): string | number | boolean =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : JSON.stringify(value);

/**
 * The route call a tool's arguments make, or what is wrong with them that the route would not say: a missing path
 * argument, a limit above MCP_MAX_PAGE_SIZE (the route checks the rest, and its 422 says what).
 */
function callOf(shape: RouteShape, args: ToolArgs, pages: PageSizes): ApiCall | string {
  const pathParams: Record<string, string> = {};
  for (const name of shape.pathParams) {
    const value = args[name];
    if (value === undefined || value === null || value === "") return `missing argument: ${name}`;
    pathParams[name] = String(value);
  }
  if (shape.defaultLimit !== undefined && Number(args.limit) > pages.maxPageSize)
    return `limit: at most ${pages.maxPageSize} rows a call (MCP_MAX_PAGE_SIZE); page with offset or the cursor the summary names`;
  const query: Record<string, string | number | boolean> = {};
  if (shape.defaultLimit !== undefined) query.limit = shape.defaultLimit;
  for (const [name, value] of Object.entries(args))
    if (!shape.pathParams.includes(name) && value !== undefined && value !== null) query[name] = queryValue(value);
  return { path: shape.path, pathParams, query };
}

const refused = (answer: ApiAnswer) => answer.status < 200 || answer.status >= 300;

/** A refusal in words: the status and the contract's detail, and when to retry. */
function refusalText(answer: ApiAnswer): string {
  const detail = errorDetail(answer.body) ?? "no detail";
  const retry = answer.retryAfterSeconds === undefined ? "" : ` Retry after ${answer.retryAfterSeconds} seconds.`;
  return `HTTP ${answer.status}: ${detail}${retry}`;
}

function toolError(answer: ApiAnswer): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: refusalText(answer) }],
    _meta: {
      "pelagic/http": {
        status: answer.status,
        detail: errorDetail(answer.body) ?? null,
        retry_after_seconds: answer.retryAfterSeconds ?? null,
      },
    },
  };
}

async function callTool(catalog: McpCatalog, caller: ApiCaller, name: string, args: ToolArgs): Promise<CallToolResult> {
  const entry = catalog.byName.get(name);
  if (!entry) throw new McpError(ErrorCode.InvalidParams, `no tool named ${name}`);
  const { spec, shape } = entry;
  const call = callOf(shape, args, catalog.pages);
  if (typeof call === "string")
    return { isError: true, content: [{ type: "text", text: `Invalid arguments: ${call}` }] };
  let answer: ApiAnswer;
  try {
    answer = await caller(call);
  } catch (error) {
    const text = `the service did not answer: ${error instanceof Error ? error.message : String(error)}`;
    return { isError: true, content: [{ type: "text", text }] };
  }
  if (refused(answer)) return toolError(answer);
  const body = answer.body as Record<string, unknown>;
  const structured = (shape.answersList ? { items: answer.body } : body) as Record<string, unknown>;
  const list = spec.list ? body[spec.list] : shape.answersList ? answer.body : undefined;
  const shown = Array.isArray(list) ? list.length : 0;
  const note = pagingNote(shape, { ...call.query, ...args }, body, shown, catalog.pages.maxPageSize);
  const summary = spec.summarize(answer.body, args) + (note ? `\n${note}` : "");
  return {
    content: [
      { type: "text", text: summary },
      { type: "text", text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
  };
}

async function readResource(caller: ApiCaller, uri: string) {
  const { whole, sections } = metricDefinitions();
  if (uri === METRICS_URI) return { contents: [{ uri, mimeType: "text/markdown", text: whole }] };
  const section = sections.find((s) => s.uri === uri);
  if (section) return { contents: [{ uri, mimeType: "text/markdown", text: section.text }] };
  const named = templateOf(uri);
  if (!named) throw new McpError(RESOURCE_NOT_FOUND, `no resource ${uri}`, { uri });
  const { template, value } = named;
  const answer = await caller({ path: template.route, pathParams: { [template.variable]: value }, query: {} });
  if (refused(answer)) {
    const code =
      answer.status === 404
        ? RESOURCE_NOT_FOUND
        : answer.status === 422
          ? ErrorCode.InvalidParams
          : ErrorCode.InternalError;
    throw new McpError(code, refusalText(answer), { uri, status: answer.status });
  }
  return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(answer.body) }] };
}

/** Up to 10 values for an argument, from the search route it completes from; none for any other argument. */
async function complete(caller: ApiCaller, argument: string, value: string): Promise<string[]> {
  const source = COMPLETIONS[argument];
  if (!source || value.trim() === "") return [];
  const query = { q: value, ...(source.limit ? { limit: source.limit } : {}) };
  const answer = await caller({ path: source.route, pathParams: {}, query });
  if (refused(answer)) return [];
  const rows = (answer.body as Record<string, unknown>)[source.list];
  return (Array.isArray(rows) ? rows : [])
    .map((row) => String((row as Record<string, unknown>)[source.field]))
    .slice(0, 10);
}

export function createMcpServer(deps: { catalog: McpCatalog; caller: ApiCaller; version: string }): Server {
  const { catalog, caller } = deps;
  const server = new Server(
    { name: "pelagic", title: "Pelagic", version: deps.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
      instructions: INSTRUCTIONS,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...catalog.tools] }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(catalog, caller, request.params.name, request.params.arguments ?? {}),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: METRICS_URI,
        name: "metrics",
        title: "What every number means",
        description: "Every figure Pelagic serves, its rule, threshold setting and code (docs/METRICS.md, whole)",
        mimeType: "text/markdown",
      },
      ...metricDefinitions().sections.map((s) => ({
        uri: s.uri,
        name: `metrics-${s.name}`,
        title: `Metrics: ${s.title}`,
        description: `The section "${s.title}" of the metric definitions`,
        mimeType: "text/markdown",
      })),
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: RESOURCE_TEMPLATES.map(({ uriTemplate, name, title, description }) => ({
      uriTemplate,
      name,
      title,
      description,
      mimeType: "application/json",
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(caller, request.params.uri));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: PROMPTS.map(({ name, title, description, argument }) => ({
      name,
      title,
      description,
      arguments: [{ ...argument, required: true }],
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = PROMPTS.find((p) => p.name === request.params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `no prompt named ${request.params.name}`);
    const value = request.params.arguments?.[prompt.argument.name];
    if (!value) throw new McpError(ErrorCode.InvalidParams, `missing argument: ${prompt.argument.name}`);
    return {
      description: prompt.description,
      messages: [{ role: "user", content: { type: "text", text: prompt.text(value) } }],
    };
  });
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const values = await complete(caller, request.params.argument.name, request.params.argument.value);
    return { completion: { values, hasMore: false } };
  });
  return server;
}
