/**
 * The dashboard is typed against the OpenAPI document the service serves: web/src/openapi.d.ts is what
 * openapi-typescript makes of it. A route whose schema changes fails here until `npm run gen:web-types` writes the
 * file again, and then `tsc -p web` shows every page the change breaks.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { servedOpenApiDocument } from "../src/api/openapi-document.js";
import { WEB_TYPES_PATH, webTypesOf } from "../web/gen-types.js";

describe("the dashboard's API types", () => {
  it("are generated from the served OpenAPI document", async () => {
    const generated = await webTypesOf(await servedOpenApiDocument());
    expect(
      readFileSync(WEB_TYPES_PATH, "utf8") === generated,
      "web/src/openapi.d.ts is stale: npm run gen:web-types",
    ).toBe(true);
  }, 60_000);
});
