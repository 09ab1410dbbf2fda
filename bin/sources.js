// Whether dist/ is current: the newest modification time among the sources (src/), as bin/build.js records it in
// dist/.sources and bin/pelagic.js compares it. About 700 files: a few milliseconds.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const SOURCE_STAMP = ".sources";

export function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!entry.name.endsWith(".test.ts")) newest = Math.max(newest, Math.floor(statSync(path).mtimeMs));
  }
  return newest;
}
