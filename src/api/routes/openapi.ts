/** GET /api/openapi.json: the OpenAPI 3.1 document generated from the route schemas. */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { access } from "../access.js";
import type { AppContext } from "../context.js";

export const openapiRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app) => {
  app.get(
    "/api/openapi.json",
    {
      config: { access: access.public },
      schema: {
        summary: "Machine-readable description of every served path",
        tags: ["meta"],
        response: { 200: Type.Object({}, { additionalProperties: true }) },
      },
    },
    async () => app.swagger(),
  );
};
