/**
 * The OpenAPI document the service serves at /api/openapi.json, made without a service: the app built over an empty
 * in-memory store and the in-process platform (the routes' schemas do not depend on data). What the dashboard's
 * types are generated from (`npm run gen:types`, client/gen-types.ts: the typed client's, which the dashboard shares).
 */
import { loadConfig } from "../config/index.js";
import { createPlatform } from "../platform/index.js";
import { createLogger } from "../platform/logger.js";
import { openStore } from "../store/database.js";
import { migrateStore } from "../store/migrate.js";
import { buildApp } from "./app.js";

export async function servedOpenApiDocument(): Promise<unknown> {
  const config = loadConfig({ LOG_LEVEL: "silent", DATABASE_URL: "", REDIS_URL: "" });
  const store = await openStore({ kind: "sqlite", sqlitePath: ":memory:" });
  const platform = await createPlatform(config.platform);
  try {
    await migrateStore(store);
    const app = await buildApp(
      { config, store, platform, expectedSources: [], startedAt: platform.clock.now() },
      createLogger("silent"),
    );
    try {
      await app.ready();
      return (await app.inject({ url: "/api/openapi.json" })).json();
    } finally {
      await app.close();
    }
  } finally {
    await platform.close();
    await store.close();
  }
}
