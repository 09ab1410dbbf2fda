/**
 * Query-string conventions applied to every route in one place:
 * - unknown query parameters are a 422 (every querystring schema is closed; a route without one accepts none);
 * - boolean parameters also accept 1/0 and yes/no, as the contract's `include_pending=1` does.
 */
import type { FastifyInstance, RouteOptions } from "fastify";

const TRUE = new Set(["1", "yes", "on"]);
const FALSE = new Set(["0", "no", "off"]);

interface ObjectSchema {
  type?: string;
  properties?: Record<string, { type?: string | string[] }>;
  additionalProperties?: boolean;
}

function booleanKeys(schema: ObjectSchema): string[] {
  return Object.entries(schema.properties ?? {})
    .filter(([, prop]) => prop.type === "boolean")
    .map(([key]) => key);
}

export function applyQueryConventions(app: FastifyInstance): void {
  app.addHook("onRoute", (route: RouteOptions) => {
    const schema = (route.schema ??= {});
    const query = (schema.querystring ?? { type: "object", properties: {} }) as ObjectSchema;
    query.additionalProperties = false;
    schema.querystring = query;

    const keys = booleanKeys(query);
    if (keys.length === 0) return;
    const normalize = async (request: { query: unknown }) => {
      const q = request.query as Record<string, unknown>;
      for (const key of keys) {
        const value = q[key];
        if (typeof value !== "string") continue;
        const lower = value.toLowerCase();
        if (TRUE.has(lower)) q[key] = "true";
        else if (FALSE.has(lower)) q[key] = "false";
      }
    };
    const existing = route.preValidation;
    route.preValidation = existing ? [normalize, ...(Array.isArray(existing) ? existing : [existing])] : [normalize];
  });
}
