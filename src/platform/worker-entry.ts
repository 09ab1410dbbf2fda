/**
 * The module a worker thread starts from, named by its path under src/ without extension (`"runtime/ingest-thread"`):
 * its entry in the bundle (bin/build.js makes each worker module an entry of dist/) when the service runs from the
 * bundle, or when the code runs from its sources but whoever started the process found the bundle current and said so
 * (`PELAGIC_WORKERS=bundle`: vitest.config.ts, so that a test's threads do not load ~1,700 modules through tsx);
 * else the `.mjs` shim beside its source that registers the TypeScript loader in the new thread first.
 */
import { pathToFileURL } from "node:url";
import { RUNS_COMPILED, packagePath } from "../package.js";

export function workerEntry(
  module: string,
  compiled: boolean = RUNS_COMPILED || process.env.PELAGIC_WORKERS === "bundle",
): URL {
  return pathToFileURL(compiled ? packagePath("dist", `${module}.js`) : packagePath("src", `${module}.mjs`));
}
