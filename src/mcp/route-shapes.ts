/**
 * A tool's schemas, read from the OpenAPI document the service serves (itself generated from the routes' TypeBox
 * schemas): one source, no second copy. The input schema is the route's path and query parameters as one object
 * (each parameter's schema and description as the document gives them); the output schema is its 200 answer's, a
 * list answer wrapped as `{items}` since MCP's structured output is an object. Two changes are made, both for an
 * agent: a `limit` defaults to MCP_PAGE_SIZE and stops at MCP_MAX_PAGE_SIZE (never above the route's own), and the
 * output schema drops descriptions (the fields are explained by the metric definitions resource; tools/list stays
 * small).
 */
import { PelagicError } from "../errors/index.js";

export type JsonSchema = Record<string, unknown>;

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly description?: string;
  readonly schema?: JsonSchema;
}

interface Operation {
  readonly summary?: string;
  readonly description?: string;
  readonly parameters?: readonly Parameter[];
  readonly security?: readonly unknown[];
  readonly responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components?: { readonly schemas?: Record<string, JsonSchema> };
}

export interface RouteShape {
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  /** The route needs a Premium key (its operation names a security scheme). */
  readonly premium: boolean;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  /** The `limit` a call gets when the agent names none (MCP_PAGE_SIZE, or the route's own when smaller). */
  readonly defaultLimit: number | undefined;
  readonly inputSchema: JsonSchema & { type: "object" };
  readonly outputSchema: JsonSchema & { type: "object" };
  /** The route answers a list, given to the agent as `{items: [...]}`. */
  readonly answersList: boolean;
}

export interface PageSizes {
  readonly pageSize: number;
  readonly maxPageSize: number;
}

/** Thrown when a tool names a route the document does not have: a fault of the catalog, found at start-up. */
export class MissingRoute extends PelagicError {
  constructor(path: string) {
    super("MCP_ROUTE_MISSING", `no GET ${path} in the OpenAPI document`);
  }
}

/** `schema` with every `#/components/schemas/...` reference replaced by what it names. */
function inlined(schema: unknown, components: Record<string, JsonSchema>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlined(item, components));
  if (!schema || typeof schema !== "object") return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/"))
    return inlined(components[ref.slice("#/components/schemas/".length)] ?? {}, components);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inlined(value, components)]));
}

/** `schema` without its descriptions and examples, recursively (a property named `description` stays). */
function withoutProse(schema: unknown, inProperties = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withoutProse(item));
  if (!schema || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => inProperties || (key !== "description" && key !== "examples" && key !== "example"))
      .map(([key, value]) => [key, withoutProse(value, !inProperties && key === "properties")]),
  );
}

function limitSchema(schema: JsonSchema, pages: PageSizes): { schema: JsonSchema; defaultLimit: number } {
  const routeMax = typeof schema.maximum === "number" ? schema.maximum : Number.POSITIVE_INFINITY;
  const routeDefault = typeof schema.default === "number" ? schema.default : Number.POSITIVE_INFINITY;
  const maximum = Math.min(routeMax, pages.maxPageSize);
  const defaultLimit = Math.min(routeDefault, pages.pageSize, maximum);
  return { schema: { ...schema, default: defaultLimit, maximum }, defaultLimit };
}

/** The shape of GET `path` as a tool: its input and output schemas and how it is called. */
export function routeShape(document: OpenApiDocument, path: string, pages: PageSizes): RouteShape {
  const operation = document.paths[path]?.get;
  if (!operation) throw new MissingRoute(path);
  const components = document.components?.schemas ?? {};
  const parameters = (operation.parameters ?? []).filter((p) => p.in === "path" || p.in === "query");
  const properties: Record<string, unknown> = {};
  let defaultLimit: number | undefined;
  for (const parameter of parameters) {
    let schema = (inlined(parameter.schema ?? {}, components) ?? {}) as JsonSchema;
    if (parameter.name === "limit" && parameter.in === "query") ({ schema, defaultLimit } = limitSchema(schema, pages));
    properties[parameter.name] = parameter.description ? { ...schema, description: parameter.description } : schema;
  }
  const answer = inlined(operation.responses?.["200"]?.content?.["application/json"]?.schema ?? {}, components);
  const answersList = (answer as JsonSchema).type === "array";
  const output = withoutProse(answersList ? { type: "object", properties: { items: answer } } : answer) as JsonSchema;
  return {
    path,
    summary: operation.summary ?? "",
    description: operation.description ?? "",
    premium: (operation.security ?? []).length > 0,
    pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
    queryParams: parameters.filter((p) => p.in === "query").map((p) => p.name),
    defaultLimit,
    inputSchema: {
      type: "object",
      properties,
      required: parameters.filter((p) => p.in === "path" || p.required).map((p) => p.name),
      additionalProperties: false,
    },
    outputSchema: { ...output, type: "object", ...(answersList ? { required: ["items"] } : {}) },
    answersList,
  };
}
