/**
 * The module a worker thread starts from, beside the module that starts it: its compiled JavaScript when the
 * service runs from dist/ (bin/build.js), else the `.mjs` shim that registers the TypeScript loader in the new
 * thread first (tests and a source newer than the build run the sources).
 */
export function workerEntry(from: string, name: string): URL {
  return new URL(from.endsWith(".ts") ? `./${name}.mjs` : `./${name}.js`, from);
}
