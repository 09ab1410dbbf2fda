#!/usr/bin/env node
// Builds the service to JavaScript in dist/ (run by `npm install`, through `prepare`): esbuild bundles the command
// line and each worker thread's module, with the packages they import, into a few files (shared code in
// dist/chunks/), no type-check (`npm test` type-checks). A process then reads a handful of files where it read about
// 1,700 modules (docs/decisions.md, "A bundled runtime"). Native and optional packages stay outside the bundle and
// are loaded from node_modules. Files the code reads beside itself are found from the package root (src/package.ts).
// dist/.sources records the newest source it was built from: bin/pelagic.js runs the sources (through tsx) instead
// when any is newer. Usage: node bin/build.js
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { newestSource, SOURCE_STAMP } from "./sources.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const src = join(root, "src");
const dist = join(root, "dist");

/** The command line and the modules worker threads start from (src/platform/worker-entry.ts). */
const ENTRIES = [
  "commands/index",
  "runtime/ingest-thread",
  "runtime/aggregates-thread",
  "ingest/chain-reader-worker",
  "derive/replay-read-thread",
];
/** Loaded from node_modules at run time: a native addon, and optional packages that are not installed. */
const EXTERNAL = ["better-sqlite3", "pg-native"];

const started = Date.now();
const newest = newestSource(src);
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const result = await build({
  entryPoints: ENTRIES.map((entry) => join(src, `${entry}.ts`)),
  outdir: dist,
  outbase: src,
  entryNames: "[dir]/[name]",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  // CommonJS packages inside an ES module bundle call require() for Node's built-ins.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
  // Whitespace and syntax only: names stay as written (error and class names, stack traces). A CPU profile names
  // lines of the bundle: PELAGIC_BUILD_READABLE=1 keeps one statement per line so that they can be read.
  minifyWhitespace: !process.env.PELAGIC_BUILD_READABLE,
  minifySyntax: true,
  sourcemap: "linked",
  metafile: true,
  logLevel: "warning",
});
writeFileSync(join(dist, SOURCE_STAMP), `${newest}\n`);
const files = Object.keys(result.metafile.outputs).filter((path) => path.endsWith(".js"));
const modules = Object.keys(result.metafile.inputs).length;
console.log(
  `bundled ${modules} modules into ${files.length} files in ${relative(root, dist)}/ in ${Date.now() - started} ms`,
);
