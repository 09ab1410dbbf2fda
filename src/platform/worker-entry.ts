/**
 * The module a worker thread starts from, named by its path under src/ without extension (`"runtime/ingest-thread"`):
 * its entry in the compiled bundle when the service runs from dist/ (bin/build.js makes each worker module an entry
 * there), else the `.mjs` shim beside its source that registers the TypeScript loader in the new thread first (tests,
 * and a source newer than the build).
 */
import { pathToFileURL } from "node:url";
import { RUNS_COMPILED, packagePath } from "../package.js";

export function workerEntry(module: string, compiled: boolean = RUNS_COMPILED): URL {
  return pathToFileURL(compiled ? packagePath("dist", `${module}.js`) : packagePath("src", `${module}.mjs`));
}
