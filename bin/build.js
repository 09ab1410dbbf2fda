#!/usr/bin/env node
// Builds the service to JavaScript in dist/ (run by `npm install`, through `prepare`): each file of src/ transpiled
// on its own by esbuild (no bundling, no type-check: `npm test` type-checks), so dist/ mirrors src/ file for file
// and a path a module finds beside itself (the web build, the prompts, the territory snapshots) is found the same
// way from dist/. dist/.sources records the newest source it was built from: bin/pelagic.js runs the sources
// (through tsx) instead when any is newer. Usage: node bin/build.js
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { newestSource, SOURCE_STAMP, sourceFiles } from "./sources.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const src = join(root, "src");
const dist = join(root, "dist");

const started = Date.now();
const newest = newestSource(src);
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const entryPoints = sourceFiles(src).filter((path) => path.endsWith(".ts"));
await build({
  entryPoints,
  outdir: dist,
  outbase: src,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  logLevel: "warning",
});
// What the modules read beside themselves, besides code.
cpSync(join(src, "ai", "prompts"), join(dist, "ai", "prompts"), { recursive: true });
writeFileSync(join(dist, SOURCE_STAMP), `${newest}\n`);
console.log(`built ${entryPoints.length} modules into ${relative(root, dist)}/ in ${Date.now() - started} ms`);
