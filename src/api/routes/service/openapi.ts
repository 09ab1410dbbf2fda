/** GET /api/openapi.json: the OpenAPI 3.1 document generated from the route schemas. */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { access } from "../../access.js";
import { SerializedBody } from "../../../kept/serialized-body.js";
import type { AppContext } from "../../context.js";
import { sendSerialized } from "../../../kept/send-serialized.js";
import { OpenApiDocument } from "./service-schemas.js";

interface Parameter {
  required?: boolean;
  schema?: { default?: unknown };
}

/**
 * A query parameter with a default is optional, as the contract writes it ("name:type=default"). The route
 * schemas list such parameters as required properties (the validator fills in the default before it checks),
 * which the generated document would otherwise present as required.
 */
export function markDefaultedParametersOptional<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, { parameters?: Parameter[] }>> }).paths ?? {};
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? [])
        if (parameter.schema?.default !== undefined) parameter.required = false;
    }
  }
  return document;
}

export const openapiRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  // The document is fixed once the routes are registered: serialized (and compressed) once, not per request, and
  // before the service listens (a 371 KB document took its first request over 100 ms).
  let document: SerializedBody | undefined;
  const serialized = () =>
    (document ??= SerializedBody.of(JSON.stringify(app.swagger()), ctx.config.server.gzipMinBytes));
  ctx.warmUps.add("OpenAPI document", async () => serialized().gzip());
  app.get(
    "/api/openapi.json",
    {
      config: { access: access.public },
      schema: {
        summary: "Machine-readable description of every served path",
        tags: ["meta"],
        response: { 200: OpenApiDocument },
      },
    },
    async (_request, reply) => sendSerialized(reply, serialized()),
  );
};
