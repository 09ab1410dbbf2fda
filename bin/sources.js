// Whether dist/ is current: the newest modification time among the sources (src/), as bin/build.js records it in
// dist/.sources and bin/pelagic.js compares it. About 700 files: a few milliseconds.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export const SOURCE_STAMP = ".sources";

/** Every file of the service under `dir` (its modules, shims and prompts): the tests left out. */
export function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".test.ts") ? [] : [path];
  });
}

export function newestSource(dir) {
  return sourceFiles(dir).reduce((newest, path) => Math.max(newest, Math.floor(statSync(path).mtimeMs)), 0);
}

/** Whether `root`/dist holds a build of the current sources (bin/pelagic.js runs it then; PELAGIC_RUNTIME=sources: never). */
export function buildIsCurrent(root) {
  if (process.env.PELAGIC_RUNTIME === "sources") return false;
  const stamp = join(root, "dist", SOURCE_STAMP);
  if (!existsSync(stamp)) return false;
  return Number(readFileSync(stamp, "utf8")) >= newestSource(join(root, "src"));
}
