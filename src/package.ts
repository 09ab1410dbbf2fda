/**
 * The package itself: where its root is and what it ships beside the code (package.json, the web build, the
 * territory snapshots, the AI prompts, bin/). Found from this module's URL, whichever way it runs: from its source
 * (tests, tsx) or from the bundle `npm install` builds into dist/ (bin/build.js), where this code sits in a chunk.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "src"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package root above ${from}`);
  }
}

/** The repository's folder: the one holding package.json and src/. */
export const PACKAGE_ROOT: string = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the package, e.g. `packagePath("web", "dist")`. */
export function packagePath(...segments: string[]): string {
  return join(PACKAGE_ROOT, ...segments);
}

/** Whether this code runs from the compiled bundle in dist/ (else from its TypeScript source). */
export const RUNS_COMPILED: boolean = !import.meta.url.endsWith(".ts");

/** The package version, read once from package.json. */
export const VERSION: string = (JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { version: string })
  .version;
